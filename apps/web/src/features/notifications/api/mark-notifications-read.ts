// POST /api/notifications/read/ {ids | all}: alerts marked read, the bell changed at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZNotificationReadResult,
  type TNotificationPage,
  type TNotificationReadRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { notificationsQueryKey } from './get-notifications';

export const NOTIFICATIONS_READ_PATH = '/api/notifications/read/';

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
