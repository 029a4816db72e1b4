// The event logs of every channel (`/api/{email,whatsapp,sms}/events/`): one query, one set of
// filters, one CSV stream read from a database cursor with no row cap. A send appears as the
// WhatsApp logs always showed one (`error` = refused before the provider took it).
import type {
  TEmailLog,
  TEmailLogEvent,
  TEmailLogFilter,
  TEmailLogListQuery,
  TWhatsappLog,
  TWhatsappLogEvent,
  TWhatsappLogFilter,
  TWhatsappLogListQuery,
  TVisitorSend,
  TVisitorSendsQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import type { InboxScope } from '../../platform/inbox-scope';
import { csvCell, csvLine } from '../../platform/csv';
import type * as repo from './sends.repository';
import * as repoEvents from './sends.events.repository';
import * as repoLogs from './sends.logs.repository';
import type { SendChannel } from './sends.repository';

export const SEND_LOG_ERRORS = { notFound: 'No send with this tracking id.' } as const;

const num = (v: string | number | null) => (v === null ? null : Number(v));

export function toLog(row: repoLogs.SendLogRow): TWhatsappLog {
  const code = row.error_code === null ? null : Number(row.error_code);
  const cost = row.cost ?? {};
  const sender = row.sender_id !== null;
  return {
    tracking_id: row.id,
    wamid: row.provider_message_id,
    conversation_id: num(row.conversation_id),
    to: row.recipient,
    type: row.type ?? '',
    template_name: row.template_name,
    status: (row.status === 'failed' && row.provider_message_id === null
      ? 'error'
      : row.status) as TWhatsappLog['status'],
    error_code: code !== null && Number.isInteger(code) ? code : null,
    error_message: row.error_message,
    pricing_category: typeof cost.category === 'string' ? cost.category : null,
    billable: typeof cost.billable === 'boolean' ? cost.billable : null,
    sent_by: sender
      ? {
          id: Number(row.sender_id),
          name: `${row.sender_first_name ?? ''} ${row.sender_last_name ?? ''}`.trim() || row.sender_email,
        }
      : row.created_by !== null
        ? { id: Number(row.created_by), name: null }
        : null,
    agent:
      row.agent_id !== null && row.agent_run_id !== null
        ? { id: Number(row.agent_id), name: row.agent_name ?? '', run_id: row.agent_run_id }
        : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A page of a channel's logs, each row in the channel's shape. */
export async function logsPage<T>(
  db: Db,
  channel: SendChannel,
  scope: InboxScope,
  query: repoLogs.SendLogFilter & { page: number; page_size: number },
  shape: (row: repoLogs.SendLogRow) => T,
) {
  const { page, page_size, ...filter } = query;
  const { rows, count } = await repoLogs.listLogs(
    db,
    channel,
    scope,
    filter,
    page_size,
    (page - 1) * page_size,
  );
  return {
    count,
    next: page * page_size < count ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
    results: rows.map(shape),
  };
}

/** Agents see the sends in conversations their inbox shows (docs/design/inbox.md "Who sees which conversation"). */
export async function findSendLogs(
  db: Db,
  channel: SendChannel,
  scope: InboxScope,
  query: TWhatsappLogListQuery,
) {
  return logsPage(db, channel, scope, query, toLog);
}

function toEvent(row: Awaited<ReturnType<typeof repoEvents.listEvents>>[number]): TWhatsappLogEvent {
  const payload = row.payload as {
    pricing?: { category?: unknown; billable?: unknown };
    errors?: { code?: unknown; title?: unknown; message?: unknown; error_data?: { details?: unknown } }[];
  };
  const error = Array.isArray(payload.errors) ? payload.errors[0] : undefined;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    status: row.type,
    timestamp: row.occurredAt === null ? null : row.occurredAt.toISOString(),
    received_at: row.receivedAt.toISOString(),
    pricing: payload.pricing
      ? {
          category: text(payload.pricing.category),
          billable: typeof payload.pricing.billable === 'boolean' ? payload.pricing.billable : null,
        }
      : null,
    error: error
      ? {
          code: typeof error.code === 'number' ? error.code : null,
          title: text(error.title) ?? text(error.message),
          details: text(error.error_data?.details) ?? text(error.message),
        }
      : null,
  };
}

/** One send with its provider bodies and its timeline; null when the scope may not see it. */
export async function findSendLog(db: Db, channel: SendChannel, scope: InboxScope, trackingId: string) {
  const found = await repoLogs.findLog(db, channel, scope, trackingId);
  if (!found) return null;
  return {
    log: toLog(found.log),
    request: found.send.providerRequest,
    response: found.send.providerResponse,
    events: (await repoEvents.listEvents(db, found.send)).map(toEvent),
  };
}

// ---- CSV (RFC 4180) ----

const CSV_COLUMNS: [string, (l: TWhatsappLog) => string | number | boolean | null][] = [
  ['tracking_id', (l) => l.tracking_id],
  ['created_at', (l) => l.created_at],
  ['updated_at', (l) => l.updated_at],
  ['to', (l) => l.to],
  ['type', (l) => l.type],
  ['template_name', (l) => l.template_name],
  ['status', (l) => l.status],
  ['error_code', (l) => l.error_code],
  ['error_message', (l) => l.error_message],
  ['pricing_category', (l) => l.pricing_category],
  ['billable', (l) => l.billable],
  ['wamid', (l) => l.wamid],
  ['conversation_id', (l) => l.conversation_id],
  ['sent_by', (l) => l.sent_by?.name ?? null],
];

export const exportFileName = (channel: SendChannel, now = new Date()) =>
  `${channel === 'titan_message' ? 'titan-message' : channel}-logs-${now.toISOString().slice(0, 10)}.csv`;

/**
 * The filtered sends as CSV lines, newest first, straight from a database cursor: every row, one
 * batch in memory at a time. A consumer that stops reading (the client went away) closes it.
 */
export async function* exportSendLogs(
  db: Db,
  channel: SendChannel,
  scope: InboxScope,
  filter: TWhatsappLogFilter,
): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS.map(([name]) => name));
  for await (const batch of repoLogs.streamLogs(db, channel, scope, filter)) {
    yield batch
      .map((row) => {
        const log = toLog(row);
        return csvLine(CSV_COLUMNS.map(([, cell]) => cell(log)));
      })
      .join('');
  }
}

// ---- Email: the shared shape with email's statuses and subject; one email with its message ----

export function toEmailLog(row: repoLogs.SendLogRow): TEmailLog {
  const log = toLog(row);
  return { ...log, status: log.status as TEmailLog['status'], subject: row.subject };
}

export async function findEmailLogs(db: Db, scope: InboxScope, query: TEmailLogListQuery) {
  return logsPage(db, 'email', scope, query, toEmailLog);
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * One event of an email: opens and clicks with their destination, user agent and machine flag; a
 * bounce or complaint with the mail server's words (the send's error when the event has none).
 */
function toEmailEvent(
  row: Awaited<ReturnType<typeof repoEvents.listEvents>>[number],
  send: repo.SendRow,
): TEmailLogEvent {
  const p = row.payload as Record<string, unknown>;
  const final = ['bounced', 'complained', 'failed', 'soft_bounce', 'soft_bounced', 'deferred'].includes(
    row.type,
  );
  const details =
    text(p.diagnostic) ??
    text(p.diagnostic_code) ??
    text(p.error_message) ??
    text(p.message) ??
    text(p.detail) ??
    (final && !['soft_bounce', 'soft_bounced', 'deferred'].includes(row.type) ? send.errorMessage : null);
  const code = text(p.status) ?? text(p.error_code) ?? text(p.code);
  return {
    status: row.type,
    timestamp: row.occurredAt === null ? null : row.occurredAt.toISOString(),
    received_at: row.receivedAt.toISOString(),
    pricing: null,
    error:
      final && (details || code)
        ? {
            code: code && /^\d+$/.test(code) ? Number(code) : null,
            title: code && !/^\d+$/.test(code) ? code : text(p.reason),
            details,
          }
        : null,
    url: text(p.url),
    user_agent: text(p.user_agent),
    machine: typeof p.machine === 'boolean' ? p.machine : null,
    reason: text(p.reason),
  };
}

const synthetic = (status: string, at: Date): TEmailLogEvent => ({
  status,
  timestamp: at.toISOString(),
  received_at: at.toISOString(),
  pricing: null,
  error: null,
  url: null,
  user_agent: null,
  machine: null,
  reason: null,
});

/**
 * One email as its page shows it: the log row, the message handed to the mail server
 * (`provider_request` keeps from, to, subject, html, text, headers) and its timeline oldest first —
 * queued when recorded, sent when handed over (its claim, unless a `sent` event says when), then
 * what was observed.
 */
export async function findEmailLog(db: Db, scope: InboxScope, trackingId: string) {
  const found = await repoLogs.findLog(db, 'email', scope, trackingId);
  if (!found) return null;
  const { send } = found;
  const request = send.providerRequest ?? {};
  const observed = (await repoEvents.listEvents(db, send)).map((e) => toEmailEvent(e, send));
  const timeline: TEmailLogEvent[] = [];
  if (!observed.some((e) => e.status === 'queued')) timeline.push(synthetic('queued', send.createdAt));
  const wasSent = statusRankOf(send.status) >= 2 || send.providerMessageId !== null;
  if (wasSent && send.claimedAt && !observed.some((e) => e.status === 'sent'))
    timeline.push(synthetic('sent', send.claimedAt));
  const events = [...timeline, ...observed].sort(
    (a, b) => Date.parse(a.timestamp ?? a.received_at) - Date.parse(b.timestamp ?? b.received_at),
  );
  return {
    ...toEmailLog(found.log),
    request,
    response: send.providerResponse,
    message: {
      from: text(request.from),
      to: text(request.to) ?? send.recipient,
      subject: text(request.subject) ?? send.subject,
      html: text(request.html),
      text: text(request.text),
    },
    events,
  };
}

/** sent (2) and beyond in email's order; bounced and complained were sent too. */
function statusRankOf(status: string): number {
  if (status === 'bounced' || status === 'complained') return 2;
  return ['queued', 'sending', 'sent', 'delivered', 'opened', 'clicked'].indexOf(status);
}

const EMAIL_CSV_HEADER = [
  'tracking_id',
  'created_at',
  'updated_at',
  'to',
  'subject',
  'template_name',
  'status',
  'error_code',
  'error_message',
  'message_id',
  'sent_by',
];

/**
 * One email's CSV line straight from its row (the values of `toEmailLog`, without building it: a
 * million rows make a million objects fewer for the collector). The id and the timestamps never
 * need quoting; the status and the sender come worked out from the database.
 */
function emailCsvLine(row: repoLogs.EmailCsvRow): string {
  const code = row.error_code === null ? NaN : Number(row.error_code);
  return (
    `${row.id},${row.created_at},${row.updated_at},${csvCell(row.recipient)},${csvCell(row.subject)},` +
    `${csvCell(row.template_name)},${row.status},${Number.isInteger(code) ? code : ''},` +
    `${csvCell(row.error_message)},${csvCell(row.provider_message_id)},${csvCell(row.sender)}\r\n`
  );
}

/** The filtered emails as CSV, newest first, from a database cursor (see exportSendLogs). */
export async function* exportEmailLogs(
  db: Db,
  scope: InboxScope,
  filter: TEmailLogFilter,
): AsyncGenerator<string> {
  yield csvLine(EMAIL_CSV_HEADER);
  for await (const batch of repoLogs.streamEmailCsvRows(db, scope, filter)) {
    let out = '';
    for (const row of batch) out += emailCsvLine(row);
    yield out;
  }
}

/** A page of the sends to one customer, every channel (the visitor's page in the directory). */
export async function findCustomerSends(
  db: Db,
  scope: InboxScope,
  customerId: number,
  query: TVisitorSendsQuery,
): Promise<{ count: number; next: number | null; previous: number | null; results: TVisitorSend[] }> {
  const { page, page_size, channel } = query;
  const { rows, count } = await repoLogs.listCustomerSends(
    db,
    scope,
    customerId,
    channel,
    page_size,
    (page - 1) * page_size,
  );
  return {
    count,
    next: page * page_size < count ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
    results: rows.map((row) => {
      const log = toLog(row);
      return {
        tracking_id: log.tracking_id,
        channel: row.channel,
        status: log.status,
        to: log.to,
        subject: row.subject,
        template_name: log.template_name,
        error_message: log.error_message,
        conversation_id: log.conversation_id,
        created_at: log.created_at,
        updated_at: log.updated_at,
      };
    }),
  };
}
