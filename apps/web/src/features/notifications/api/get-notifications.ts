// GET /api/notifications/ (next-api.md "Team inbox"): the bell's newest alerts and the unread count.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZNotificationPage, type TNotificationPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const NOTIFICATIONS_API_PATH = '/api/notifications/';

/** How many the bell's list shows. */
export const BELL_PAGE_SIZE = 20;

export const notificationsQueryKey = [BUSINESS_SCOPE, 'notifications'] as const;

export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: notificationsQueryKey,
    queryFn: async ({ signal }): Promise<TNotificationPage> => {
      const { data } = await protectedClient.get(NOTIFICATIONS_API_PATH, {
        params: { page_size: BELL_PAGE_SIZE },
        signal,
      });
      return ZEnvelope(ZNotificationPage).parse(data).result;
    },
  });
}

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
