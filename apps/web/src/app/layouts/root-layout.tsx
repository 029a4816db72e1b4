// The root route: renders the matched screen and covers it with the loader while the next
// screen's code (or data) is loading; document.title names the matched screen.
import { Outlet, useNavigation } from 'react-router';

import { FullScreenLoader } from '../../components/full-screen-loader';
import { useDocumentTitle } from '../document-title';

export function RootLayout() {
  const navigation = useNavigation();
  useDocumentTitle();
  return (
    <>
      <Outlet />
      {navigation.state === 'loading' ? <FullScreenLoader className="bg-background/70" /> : null}
    </>
  );
}
