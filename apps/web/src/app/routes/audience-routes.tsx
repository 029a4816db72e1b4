// The audience: the visitor directory, lists, the CSV import and one visitor's page.
import { type RouteObject } from 'react-router';

import { DIRECTORY_PATH, LISTS_PATH, DIRECTORY_IMPORT_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const AUDIENCE_ROUTES: RouteObject[] = [
  {
    path: DIRECTORY_PATH,
    handle: { title: SHELL_STRINGS.areas.directory } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/directory/routes/directory-route')).DirectoryRoute,
    }),
  },
  {
    path: LISTS_PATH,
    handle: { title: T.lists } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/customer-lists/routes/lists-route')).ListsRoute,
    }),
  },
  {
    path: DIRECTORY_IMPORT_PATH,
    handle: { title: T.importCustomers } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/customer-imports/routes/import-route')).ImportRoute,
    }),
  },
  {
    path: `${LISTS_PATH}/:id`,
    handle: { title: T.list } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/customer-lists/routes/list-route')).ListRoute,
    }),
  },
  {
    path: `${DIRECTORY_PATH}/visitor/:details`,
    handle: { title: T.visitor } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/directory/routes/visitor-route')).VisitorRoute,
    }),
  },
];
