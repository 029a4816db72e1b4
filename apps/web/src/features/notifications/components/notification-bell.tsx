// The bell in the app header: the unread count, and a list of the latest notifications to mark read
// or open (the conversation, marked read on the way).
import type { TNotification } from '@titan/contracts';
import { BellIcon, CheckCheckIcon, SettingsIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { Button } from '../../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { conversationPath, settingsPath } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { useMarkRead } from '../api/mark-notifications-read';
import { useLiveNotifications } from '../hooks/use-live-notifications';
import { NOTIFICATION_STRINGS as S } from '../strings';

export function NotificationBell({ businessCode }: { businessCode: string | null }) {
  const [open, setOpen] = useState(false);
  const query = useLiveNotifications(businessCode);
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const unread = query.data?.unread_count ?? 0;
  const items = query.data?.results ?? [];

  const openItem = (n: TNotification) => {
    if (!n.read) markRead.mutate({ ids: [n.id] });
    setOpen(false);
    if (n.conversation_id !== null) void navigate(conversationPath(n.conversation_id));
  };

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={unread > 0 ? S.bellUnread(unread) : S.bell}
        >
          <BellIcon aria-hidden="true" />
          {unread > 0 ? (
            <span
              aria-hidden="true"
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-white"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-[min(24rem,calc(100vw-1rem))] p-0">
        <div className="flex items-center justify-between gap-2 border-b px-3 py-2">
          <h2 className="text-sm font-semibold">{S.heading}</h2>
          <div className="flex items-center gap-1">
            <Button
              variant="ghost"
              size="sm"
              disabled={unread === 0 || markRead.isPending}
              onClick={() => markRead.mutate({ all: true })}
            >
              <CheckCheckIcon aria-hidden="true" />
              {S.markAllRead}
            </Button>
            <Button variant="ghost" size="icon" asChild>
              <Link
                to={settingsPath('notifications')}
                aria-label={S.settingsLink}
                onClick={() => setOpen(false)}
              >
                <SettingsIcon aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </div>
        {query.isError ? (
          <p className="p-4 text-sm text-destructive">{S.loadFailed}</p>
        ) : items.length === 0 ? (
          <p className="p-4 text-sm text-muted-foreground">{query.isPending ? '…' : S.empty}</p>
        ) : (
          <ul className="max-h-[min(28rem,70dvh)] divide-y overflow-y-auto" aria-label={S.heading}>
            {items.map((n) => (
              <li key={n.id} className={cn('flex items-start gap-2 px-3 py-2', !n.read && 'bg-accent/40')}>
                <span
                  aria-hidden="true"
                  className={cn(
                    'mt-1.5 size-2 shrink-0 rounded-full',
                    n.read ? 'bg-transparent' : 'bg-primary',
                  )}
                />
                <button
                  type="button"
                  className="min-w-0 flex-1 text-left"
                  onClick={() => openItem(n)}
                  aria-label={`${n.title}${n.conversation_id !== null ? ` — ${S.open}` : ''}`}
                >
                  <span className={cn('block text-sm break-words', !n.read && 'font-medium')}>{n.title}</span>
                  {n.body ? (
                    <span className="line-clamp-2 block text-xs break-words text-muted-foreground">
                      {n.body}
                    </span>
                  ) : null}
                  <span className="block text-xs text-muted-foreground">{formatDateTime(n.created_at)}</span>
                </button>
                {!n.read ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="shrink-0"
                    onClick={() => markRead.mutate({ ids: [n.id] })}
                    aria-label={`${S.markRead}: ${n.title}`}
                  >
                    {S.markRead}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}
