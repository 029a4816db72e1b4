// The SMS event logs (`/api/sms/events/`): the shared log query and filters, with what a text
// adds — its segments and encoding, what Twilio charged, the text as sent — and a timeline in
// Twilio's words (queued, sent, delivered, undelivered…), a failure with its reason.
import type { TSmsLog, TSmsLogEvent, TSmsLogFilter, TSmsLogListQuery } from '@titan/contracts';
import type { Db } from '../../db/client';
import type { InboxScope } from '../../platform/inbox-scope';
import { csvLine } from '../../platform/csv';
import { logsPage, toLog } from './sends.logs';
import * as repoEvents from './sends.events.repository';
import * as repoLogs from './sends.logs.repository';

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);

export function toSmsLog(row: repoLogs.SendLogRow): TSmsLog {
  const log = toLog(row);
  const cost = row.cost ?? {};
  return {
    ...log,
    status: log.status as TSmsLog['status'],
    pricing_category: null,
    billable: null,
    // Twilio's count once it answered (it may encode smarter), Titan's until then.
    segments: int(cost.twilio_segments) ?? int(cost.segments),
    encoding: text(cost.encoding),
    price: text(cost.price),
    // Twilio names the currency before it has a price.
    price_unit: text(cost.price) ? text(cost.price_unit) : null,
  };
}

export async function findSmsLogs(db: Db, scope: InboxScope, query: TSmsLogListQuery) {
  return logsPage(db, 'sms', scope, query, toSmsLog);
}

function toSmsEvent(row: Awaited<ReturnType<typeof repoEvents.listEvents>>[number]): TSmsLogEvent {
  const p = row.payload as Record<string, unknown>;
  const error = Array.isArray(p.errors) ? (p.errors[0] as Record<string, unknown> | undefined) : undefined;
  const code = text(error?.code) ?? text(p.ErrorCode) ?? text(p.code);
  const message = text(error?.message) ?? text(p.message);
  return {
    status: row.type,
    provider_status: text(p.provider_status),
    timestamp: row.occurredAt === null ? null : row.occurredAt.toISOString(),
    received_at: row.receivedAt.toISOString(),
    pricing: null,
    error:
      (code && code !== '0') || (row.type === 'deferred' && message)
        ? { code: code && /^\d+$/.test(code) ? Number(code) : null, title: message, details: message }
        : null,
  };
}

/**
 * One text as its page shows it: the log row, Twilio's parameters and answer, the text with its
 * segments, and its timeline oldest first — queued when recorded, then what Twilio reported.
 */
export async function findSmsLog(db: Db, scope: InboxScope, trackingId: string) {
  const found = await repoLogs.findLog(db, 'sms', scope, trackingId);
  if (!found) return null;
  const { send } = found;
  const request = send.providerRequest ?? {};
  const log = toSmsLog(found.log);
  const cost = send.cost ?? {};
  const observed = (await repoEvents.listEvents(db, send)).map(toSmsEvent);
  const queued: TSmsLogEvent = {
    status: 'queued',
    provider_status: null,
    timestamp: send.createdAt.toISOString(),
    received_at: send.createdAt.toISOString(),
    pricing: null,
    error: null,
  };
  return {
    ...log,
    request,
    response: send.providerResponse,
    sms: {
      from: text(request.From) ?? text(request.MessagingServiceSid),
      to: text(request.To) ?? send.recipient,
      body: text(request.Body) ?? '',
      encoding: text(cost.encoding) ?? 'GSM-7',
      characters: int(cost.characters) ?? [...(text(request.Body) ?? '')].length,
      segments: log.segments ?? 1,
    },
    events: [queued, ...observed],
  };
}

const SMS_CSV_HEADER = [
  'tracking_id',
  'created_at',
  'updated_at',
  'to',
  'template_name',
  'status',
  'segments',
  'encoding',
  'price',
  'price_unit',
  'error_code',
  'error_message',
  'message_sid',
  'sent_by',
];

/** The filtered texts as CSV, newest first, from a database cursor (see exportSendLogs). */
export async function* exportSmsLogs(
  db: Db,
  scope: InboxScope,
  filter: TSmsLogFilter,
): AsyncGenerator<string> {
  yield csvLine(SMS_CSV_HEADER);
  for await (const batch of repoLogs.streamLogs(db, 'sms', scope, filter)) {
    let out = '';
    for (const row of batch) {
      const l = toSmsLog(row);
      out += csvLine([
        l.tracking_id,
        l.created_at,
        l.updated_at,
        l.to,
        l.template_name,
        l.status,
        l.segments,
        l.encoding,
        l.price,
        l.price_unit,
        l.error_code,
        l.error_message,
        l.wamid,
        l.sent_by?.name ?? null,
      ]);
    }
    yield out;
  }
}
