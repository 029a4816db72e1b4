// A visitor's page lists what happened with them, a page at a time:
// GET /api/business/customer-directory/{id}/conversations/ → the conversations they started;
// GET /api/business/customer-directory/{id}/sends/ → every message sent them (email, SMS, WhatsApp…).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPage, ZVisitorConversation, ZVisitorSend } from '@titan/contracts';

import { protectedClient } from '../protected-client';
import { visitorApiPath } from './get-customer';
import { DIRECTORY_KEY } from './keys';

export const ACTIVITY_PAGE_SIZE = 10;

const ZConversationsPage = ZEnvelope(ZPage(ZVisitorConversation));
const ZSendsPage = ZEnvelope(ZPage(ZVisitorSend));

function activityQuery<T>(
  kind: 'conversations' | 'sends',
  id: number,
  page: number,
  parse: (d: unknown) => T,
) {
  return queryOptions({
    queryKey: [...DIRECTORY_KEY, 'detail', id, kind, page],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${visitorApiPath(id)}${kind}/`, {
        params: { page, page_size: ACTIVITY_PAGE_SIZE },
        signal,
      });
      return parse(data);
    },
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useVisitorConversations(id: number, page: number) {
  return useQuery(activityQuery('conversations', id, page, (d) => ZConversationsPage.parse(d).result));
}

export function useVisitorSends(id: number, page: number) {
  return useQuery(activityQuery('sends', id, page, (d) => ZSendsPage.parse(d).result));
}
