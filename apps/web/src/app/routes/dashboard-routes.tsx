// The dashboard (/engage).
import { type RouteObject } from 'react-router';

import { DASHBOARD_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { SHELL_STRINGS } from '../strings';

export const DASHBOARD_ROUTES: RouteObject[] = [
  {
    path: DASHBOARD_PATH,
    handle: { title: SHELL_STRINGS.areas.dashboard } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/dashboard/routes/dashboard-route')).DashboardRoute,
    }),
  },
];
