// The dot on an avatar or beside a member's name: green online, amber away, grey offline
// (next-api.md "Team inbox": presence). With `label`, it is an image named for screen readers.
import type { TPresenceStatus } from '@titan/contracts';

import { cn } from '../lib/utils';

const PRESENCE_LABELS: Record<TPresenceStatus, string> = {
  online: 'Online',
  away: 'Away',
  offline: 'Offline',
};

export function PresenceDot({
  status,
  className,
  labelled = false,
}: {
  status: TPresenceStatus;
  className?: string;
  /** Named for screen readers ("Online"); otherwise decorative (the text beside it says it). */
  labelled?: boolean;
}) {
  return (
    <span
      {...(labelled
        ? { role: 'img', 'aria-label': PRESENCE_LABELS[status], title: PRESENCE_LABELS[status] }
        : { 'aria-hidden': true })}
      data-presence={status}
      className={cn(
        'inline-block size-2.5 shrink-0 rounded-full ring-2 ring-background',
        status === 'online'
          ? 'bg-emerald-500'
          : status === 'away'
            ? 'bg-amber-500'
            : 'bg-muted-foreground/60',
        className,
      )}
    />
  );
}
