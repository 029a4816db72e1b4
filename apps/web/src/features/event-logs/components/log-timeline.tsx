// The statuses reported for one send, oldest first, each with its time and, for a failure, the
// provider's error. The same timeline serves every channel; an email's opens and clicks also say
// whether a person or a machine (privacy proxy, link scanner) made them, and where a click went.
import type { TEventLogDetail } from '@titan/contracts';
import { BotIcon, UserIcon } from 'lucide-react';

import { Badge } from '../../../components/ui/badge';
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

/** Opens and clicks: who made the hit. */
function HitMark({ event }: { event: TEvent }) {
  if (event.machine === null || event.machine === undefined) return null;
  return event.machine ? (
    <Badge variant="outline" title={event.user_agent ?? undefined}>
      <BotIcon aria-hidden="true" />
      {event.reason ? S.machineReason(event.reason) : S.machine}
    </Badge>
  ) : (
    <Badge variant="secondary" title={event.user_agent ?? undefined}>
      <UserIcon aria-hidden="true" />
      {S.human}
    </Badge>
  );
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
            {/* A text's status in Twilio's own words when they differ (undelivered, queued…). */}
            {event.provider_status && event.provider_status !== event.status ? (
              <Badge variant="outline">{S.providerStatus(event.provider_status)}</Badge>
            ) : null}
            <time dateTime={eventTime(event)} className="text-sm text-muted-foreground">
              {formatDateTime(eventTime(event))}
            </time>
            <HitMark event={event} />
          </div>
          {event.error ? <p className="text-sm text-destructive">{eventError(event.error)}</p> : null}
          {event.url ? (
            <p className="text-sm break-all">
              <span className="text-muted-foreground">{S.clickedUrl}: </span>
              {event.url}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
