// The inbox (/messages) and the Titan Message widget's embed settings.
import { type RouteObject } from 'react-router';

import { EMBED_SETTINGS_PATH, MESSAGES_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const INBOX_ROUTES: RouteObject[] = [
  {
    path: MESSAGES_PATH,
    handle: { title: SHELL_STRINGS.areas.conversations } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/conversations/routes/messages-route')).MessagesRoute,
    }),
  },
  {
    path: `${EMBED_SETTINGS_PATH}/b/:businessSlug`,
    handle: { title: T.widgetEmbed } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/chat-groups/routes/business-embed-route')).BusinessEmbedRoute,
    }),
  },
  {
    path: `${EMBED_SETTINGS_PATH}/g/:groupSlug`,
    handle: { title: T.groupEmbed } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/chat-groups/routes/group-embed-route')).GroupEmbedRoute,
    }),
  },
];
