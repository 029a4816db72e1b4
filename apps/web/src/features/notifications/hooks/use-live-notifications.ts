// Keeps the bell live: the member's notifications arrive on the realtime topic `notifications`
// (a new one is put first and counted, a read one marked); each new one plays the chime and, while
// the tab is hidden and the browser has no push subscription, shows a browser notification. The
// unread count goes to the shell (tab title, navigation badge). When the browser already allowed
// notifications, its push subscription is registered again for this sign-in.
import { useQueryClient } from '@tanstack/react-query';
import { ZNotification, type TNotificationPage } from '@titan/contracts';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';

import { conversationPath } from '../../../config/paths';
import { realtimeClient } from '../../../lib/realtime';
import { useUnreadNotifications } from '../../../stores/unread-notifications';
import { BELL_PAGE_SIZE, notificationsQueryKey, useNotifications } from '../api/get-notifications';
import { enablePush, playChime, pushSupported, showPageNotification } from '../lib/push';

export function useLiveNotifications(businessCode: string | null) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useNotifications();
  const setCount = useUnreadNotifications((s) => s.setCount);
  const unread = query.data?.unread_count ?? 0;

  useEffect(() => {
    setCount(unread);
  }, [setCount, unread]);
  useEffect(() => () => setCount(0), [setCount]);

  useEffect(() => {
    if (!businessCode) return;
    return realtimeClient().subscribe(
      { topic: 'notifications', business_code: businessCode },
      {
        onChange: (change) => {
          if (change.table !== 'notifications') return;
          const parsed = ZNotification.safeParse(change.new);
          if (!parsed.success) return;
          const n = parsed.data;
          let isNew = false;
          queryClient.setQueryData<TNotificationPage>(notificationsQueryKey, (old) => {
            if (!old) return old;
            const known = old.results.find((r) => r.id === n.id);
            if (known) {
              const nowRead = !known.read && n.read;
              return {
                ...old,
                results: old.results.map((r) => (r.id === n.id ? n : r)),
                unread_count: nowRead ? Math.max(0, old.unread_count - 1) : old.unread_count,
              };
            }
            if (change.event !== 'INSERT') return old;
            isNew = true;
            return {
              ...old,
              count: old.count + 1,
              results: [n, ...old.results].slice(0, BELL_PAGE_SIZE),
              unread_count: old.unread_count + (n.read ? 0 : 1),
            };
          });
          if (change.event === 'INSERT' && (isNew || !queryClient.getQueryData(notificationsQueryKey))) {
            playChime();
            void showPageNotification(n.title, n.body, () => {
              if (n.conversation_id !== null) void navigate(conversationPath(n.conversation_id));
            });
          }
        },
        onResync: () => void queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
      },
    );
  }, [businessCode, navigate, queryClient]);

  // A browser that allowed notifications before: its subscription follows this sign-in.
  useEffect(() => {
    if (!businessCode || !pushSupported() || Notification.permission !== 'granted') return;
    void enablePush(false).catch(() => undefined);
  }, [businessCode]);

  return query;
}
