// The route table (spec section 2), composed of one table per area (app/routes/*-routes.tsx). Every
// screen is a lazily loaded module; the root route shows the full-screen loader while the first
// screen loads and the error screen when anything fails. Guards run as loaders (guards.ts): signed-in
// screens, and business screens that also need a current business.
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';

import { FullScreenLoader } from '../components/full-screen-loader';
import { DASHBOARD_PATH } from '../config/paths';
import { type TRouteHandle } from './document-title';
import { createBusinessLoader, createSessionLoader } from './guards';
import { RootLayout } from './layouts/root-layout';
import { ACCOUNT_ROUTES } from './routes/account-routes';
import { AGENTS_ROUTES } from './routes/agents-routes';
import { AUDIENCE_ROUTES } from './routes/audience-routes';
import { CAMPAIGNS_ROUTES } from './routes/campaigns-routes';
import { DASHBOARD_ROUTES } from './routes/dashboard-routes';
import { ErrorScreen } from './routes/error-screen';
import { EVENT_LOGS_ROUTES } from './routes/event-logs-routes';
import { INBOX_ROUTES } from './routes/inbox-routes';
import { JOURNEYS_ROUTES } from './routes/journeys-routes';
import { KNOWLEDGE_ROUTES } from './routes/knowledge-routes';
import { PUBLIC_ROUTES } from './routes/public-routes';
import { SETTINGS_ROUTES } from './routes/settings-routes';
import { TEMPLATES_ROUTES } from './routes/templates-routes';
import { NOT_FOUND_STRINGS } from './strings';

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootLayout,
      HydrateFallback: FullScreenLoader,
      errorElement: <ErrorScreen />,
      children: [
        // Replace, not push: Back from the dashboard must not land on / and bounce forward again.
        { index: true, element: <Navigate to={DASHBOARD_PATH} replace /> },
        ...PUBLIC_ROUTES,
        // Signed in, no business needed yet.
        { id: 'signed-in', loader: createSessionLoader(queryClient), children: ACCOUNT_ROUTES },
        {
          // Business screens, inside the /engage shell.
          id: 'engage',
          loader: createBusinessLoader(queryClient),
          lazy: async () => ({ Component: (await import('./layouts/engage-layout')).EngageLayout }),
          children: [
            ...DASHBOARD_ROUTES,
            ...INBOX_ROUTES,
            ...AGENTS_ROUTES,
            ...TEMPLATES_ROUTES,
            ...KNOWLEDGE_ROUTES,
            ...CAMPAIGNS_ROUTES,
            ...JOURNEYS_ROUTES,
            ...EVENT_LOGS_ROUTES,
            ...AUDIENCE_ROUTES,
            ...SETTINGS_ROUTES,
          ],
        },
        {
          path: '*',
          handle: { title: NOT_FOUND_STRINGS.heading } satisfies TRouteHandle,
          lazy: async () => ({ Component: (await import('./routes/not-found-route')).NotFoundRoute }),
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
