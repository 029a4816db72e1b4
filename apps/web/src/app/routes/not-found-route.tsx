// The catch-all screen for paths that match no route.
import { Link } from 'react-router';

import { Button } from '../../components/ui/button';
import { DASHBOARD_PATH } from '../../config/paths';
import { NOT_FOUND_STRINGS } from '../strings';

export function NotFoundRoute() {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-sm font-medium text-muted-foreground">404</p>
      <h1 className="text-3xl font-semibold tracking-tight">{NOT_FOUND_STRINGS.heading}</h1>
      <p className="text-muted-foreground">{NOT_FOUND_STRINGS.text}</p>
      <Button asChild>
        <Link to={DASHBOARD_PATH}>{NOT_FOUND_STRINGS.backToDashboard}</Link>
      </Button>
    </div>
  );
}
