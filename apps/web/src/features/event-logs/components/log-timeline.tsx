// The statuses reported for one send, oldest first, each with its time and, for a failure, the
// provider's error. The same timeline serves every channel.
import type { TEventLogDetail } from '@titan/contracts';

import { formatDateTime } from '../../../lib/format';
import { EVENT_LOGS_STRINGS } from '../strings';
import { LogStatusBadge } from './status-badge';

const S = EVENT_LOGS_STRINGS.log;
type TEvent = TEventLogDetail['events'][number];

/** When the provider says it happened, else when Titan heard of it. */
function eventTime(event: TEvent): string {
  return event.timestamp ?? event.received_at;
}

function eventError(error: NonNullable<TEvent['error']>): string {
  const text = [error.title, error.details && error.details !== error.title ? error.details : null]
    .filter(Boolean)
    .join(' — ');
  return error.code !== null ? S.errorWithCode(error.code, text || String(error.code)) : text;
}

export function LogTimeline({ events, empty }: { events: TEvent[]; empty: string }) {
  if (events.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  const ordered = [...events].sort((a, b) => Date.parse(eventTime(a)) - Date.parse(eventTime(b)));
  return (
    <ol aria-label={S.timeline} className="grid gap-3 border-l pl-4">
      {ordered.map((event, index) => (
        <li key={`${event.status}-${event.received_at}-${index}`} className="relative grid gap-1">
          <span
            aria-hidden="true"
            className="absolute top-1.5 -left-[1.3rem] size-2.5 rounded-full border-2 border-background bg-muted-foreground"
          />
          <div className="flex flex-wrap items-center gap-2">
            <LogStatusBadge status={event.status} />
            <time dateTime={eventTime(event)} className="text-sm text-muted-foreground">
              {formatDateTime(eventTime(event))}
            </time>
          </div>
          {event.error ? <p className="text-sm text-destructive">{eventError(event.error)}</p> : null}
        </li>
      ))}
    </ol>
  );
}
