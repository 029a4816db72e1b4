// The root route: renders the matched screen and covers it with the loader while the next
// screen's code (or data) is loading.
import { Outlet, useNavigation } from 'react-router';

import { FullScreenLoader } from '../../components/full-screen-loader';

export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      <Outlet />
      {navigation.state === 'loading' ? <FullScreenLoader className="bg-background/70" /> : null}
    </>
  );
}
