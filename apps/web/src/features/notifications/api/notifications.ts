// The alerts API (next-api.md "Team inbox"): GET /api/notifications/?unread=, POST …/read/ {ids |
// all}, GET/PUT …/preferences/, GET/POST/DELETE …/push-subscriptions/.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZNotificationPage,
  ZNotificationPreferences,
  ZNotificationReadResult,
  ZPushSetup,
  type TNotificationPage,
  type TNotificationPreferences,
  type TNotificationReadRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const NOTIFICATIONS_API_PATH = '/api/notifications/';
export const NOTIFICATIONS_READ_PATH = '/api/notifications/read/';
export const NOTIFICATION_PREFERENCES_PATH = '/api/notifications/preferences/';
export const PUSH_SUBSCRIPTIONS_PATH = '/api/notifications/push-subscriptions/';

/** How many the bell's list shows. */
export const BELL_PAGE_SIZE = 20;

export const notificationsQueryKey = [BUSINESS_SCOPE, 'notifications'] as const;
export const preferencesQueryKey = [BUSINESS_SCOPE, 'notification-preferences'] as const;

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

export async function markNotificationsRead(body: TNotificationReadRequest) {
  const { data } = await protectedClient.post(NOTIFICATIONS_READ_PATH, body);
  return ZEnvelope(ZNotificationReadResult).parse(data).result;
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: (body) => {
      // The bell changes at once; the answer (and the topic) confirm it.
      queryClient.setQueryData<TNotificationPage>(notificationsQueryKey, (old) => {
        if (!old) return old;
        const hit = (id: number) => body.all === true || (body.ids ?? []).includes(id);
        const newlyRead = old.results.filter((n) => !n.read && hit(n.id)).length;
        return {
          ...old,
          results: old.results.map((n) => (hit(n.id) ? { ...n, read: true } : n)),
          unread_count: body.all ? 0 : Math.max(0, old.unread_count - newlyRead),
        };
      });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: preferencesQueryKey,
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(NOTIFICATION_PREFERENCES_PATH, { signal });
      return ZEnvelope(ZNotificationPreferences).parse(data).result;
    },
  });
}

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (prefs: TNotificationPreferences) => {
      const { data } = await protectedClient.put(NOTIFICATION_PREFERENCES_PATH, prefs);
      return ZEnvelope(ZNotificationPreferences).parse(data).result;
    },
    onSuccess: (prefs) => queryClient.setQueryData(preferencesQueryKey, prefs),
  });
}

export async function getPushSetup() {
  const { data } = await protectedClient.get(PUSH_SUBSCRIPTIONS_PATH);
  return ZEnvelope(ZPushSetup).parse(data).result;
}

export async function savePushSubscription(subscription: PushSubscriptionJSON) {
  await protectedClient.post(PUSH_SUBSCRIPTIONS_PATH, subscription);
}

export async function deletePushSubscription(endpoint: string) {
  await protectedClient.delete(PUSH_SUBSCRIPTIONS_PATH, { data: { endpoint } });
}
