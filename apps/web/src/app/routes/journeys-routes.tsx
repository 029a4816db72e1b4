// Journeys: the list, and the canvas editor (a new journey, or one journey with its counts). The
// editor's canvas (React Flow) is its own chunk, loaded only on a wide screen.
import { type RouteObject } from 'react-router';

import { JOURNEYS_PATH, NEW_JOURNEY_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const JOURNEYS_ROUTES: RouteObject[] = [
  {
    path: JOURNEYS_PATH,
    handle: { title: SHELL_STRINGS.areas.journeys } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/journeys/routes/journeys-route')).JourneysRoute,
    }),
  },
  {
    path: NEW_JOURNEY_PATH,
    handle: { title: T.newJourney } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/journeys/routes/journey-editor-route')).NewJourneyRoute,
    }),
  },
  {
    path: `${JOURNEYS_PATH}/:id`,
    handle: { title: T.journey } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/journeys/routes/journey-editor-route')).JourneyRoute,
    }),
  },
];
