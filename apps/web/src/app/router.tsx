// The route table (spec section 2). Every screen is a lazily loaded module; the root route shows
// the full-screen loader while the first screen loads and the error screen when anything fails.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';

import { FullScreenLoader } from '../components/full-screen-loader';
import { RootLayout } from './layouts/root-layout';
import { ErrorScreen } from './routes/error-screen';
import { DASHBOARD_PATH } from './paths';

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: FullScreenLoader,
    errorElement: <ErrorScreen />,
    children: [
      // Replace, not push: Back from the dashboard must not land on / and bounce forward again.
      { index: true, element: <Navigate to={DASHBOARD_PATH} replace /> },
      {
        path: DASHBOARD_PATH,
        lazy: async () => ({
          Component: (await import('./layouts/dashboard-layout')).DashboardLayout,
        }),
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('../features/dashboard/routes/dashboard-route')).DashboardRoute,
            }),
          },
        ],
      },
      {
        path: '*',
        lazy: async () => ({
          Component: (await import('./routes/not-found-route')).NotFoundRoute,
        }),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
