// What was sent to WhatsApp and what became of it: the log list, one send with its status timeline,
// the CSV export, and this month's usage priced by category.
import type {
  TWhatsappBalance,
  TWhatsappLog,
  TWhatsappLogDetail,
  TWhatsappLogEvent,
  TWhatsappLogFilter,
  TWhatsappLogListQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { InboxScope } from '../conversations/conversations.repository';
import { credentialsOf, type WhatsappDeps } from './whatsapp.outbound';
import * as repo from './whatsapp.repository';

export const LOG_MESSAGES = { notFound: 'No WhatsApp log with this tracking id.' } as const;

/** The export stops here: enough for a year of a busy number, small enough to stream safely. */
export const EXPORT_MAX_ROWS = 100_000;
const EXPORT_BATCH = 2_000;

function toLog({ log, sender }: repo.WhatsappLogRow): TWhatsappLog {
  return {
    tracking_id: log.trackingId,
    wamid: log.wamid,
    conversation_id: log.conversationId,
    to: log.recipient,
    type: log.type,
    template_name: log.templateName,
    status: log.status as TWhatsappLog['status'],
    error_code: log.errorCode,
    error_message: log.errorMessage,
    pricing_category: log.pricingCategory,
    billable: log.billable,
    sent_by: sender
      ? { id: sender.id, name: `${sender.firstName} ${sender.lastName}`.trim() || sender.email }
      : log.sentBy
        ? { id: log.sentBy, name: null }
        : null,
    created_at: log.createdAt.toISOString(),
    updated_at: log.updatedAt.toISOString(),
  };
}

/** Agents see the sends in conversations their inbox shows (README "Who sees which conversation"). */
export async function findLogs(db: Db, scope: InboxScope, query: TWhatsappLogListQuery) {
  const { page, page_size, ...filter } = query;
  const { rows, count } = await repo.listLogs(db, scope, filter, page_size, (page - 1) * page_size);
  return {
    count,
    next: page * page_size < count ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
    results: rows.map(toLog),
  };
}

const SECRET_KEY = /token|secret|authorization|password|api[-_]?key/i;
const REDACTED = '[redacted]';

/**
 * A stored body without credentials: keys that name one, and any string holding one of the
 * account's secrets. Request bodies are built without them; this keeps it so for any body.
 */
export function withoutSecrets(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string')
    return secrets.some((s) => s.length >= 8 && value.includes(s)) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : withoutSecrets(v, secrets)]),
    );
  return value;
}

function toEvent(row: Awaited<ReturnType<typeof repo.listStatusEvents>>[number]): TWhatsappLogEvent {
  const payload = row.payload as {
    pricing?: { category?: unknown; billable?: unknown };
    errors?: { code?: unknown; title?: unknown; message?: unknown; error_data?: { details?: unknown } }[];
  };
  const error = Array.isArray(payload.errors) ? payload.errors[0] : undefined;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    status: row.status,
    timestamp: row.timestamp === null ? null : new Date(row.timestamp * 1000).toISOString(),
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

export async function findLogDetail(
  deps: Pick<WhatsappDeps, 'db' | 'secrets'>,
  scope: InboxScope,
  trackingId: string,
): Promise<TWhatsappLogDetail> {
  const row = await repo.findLog(deps.db, scope, trackingId);
  if (!row) throw AppError.notFound(LOG_MESSAGES.notFound);
  const businessId = scope.businessId;
  const [events, account] = await Promise.all([
    row.log.wamid ? repo.listStatusEvents(deps.db, businessId, row.log.wamid) : [],
    repo.findAccountByBusiness(deps.db, businessId),
  ]);
  const secrets = account
    ? [credentialsOf(deps, account).accessToken, deps.secrets.open(account.appSecretSealed)]
    : [];
  return {
    ...toLog(row),
    request: withoutSecrets(row.log.request, secrets) as Record<string, unknown>,
    response: row.log.response
      ? (withoutSecrets(row.log.response, secrets) as Record<string, unknown>)
      : null,
    events: events.map(toEvent),
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

/**
 * One CSV cell: text that a spreadsheet would run as a formula (= + - @, tab, CR) gets a leading
 * quote; cells holding a quote, comma or line break are quoted with quotes doubled.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: (string | number | boolean | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export const exportFileName = (now = new Date()) => `whatsapp-logs-${now.toISOString().slice(0, 10)}.csv`;

/** The filtered logs as CSV lines, newest first, read in batches (at most EXPORT_MAX_ROWS rows). */
export async function* exportLogs(
  db: Db,
  scope: InboxScope,
  filter: TWhatsappLogFilter,
): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS.map(([name]) => name));
  let cursor: repo.LogCursor | null = null;
  let written = 0;
  do {
    const batch = await repo.listLogsAfter(
      db,
      scope,
      filter,
      cursor,
      Math.min(EXPORT_BATCH, EXPORT_MAX_ROWS - written),
    );
    yield batch.rows
      .map((row) => {
        const log = toLog(row);
        return csvLine(CSV_COLUMNS.map(([, cell]) => cell(log)));
      })
      .join('');
    written += batch.rows.length;
    cursor = batch.next;
  } while (cursor && written < EXPORT_MAX_ROWS);
}

// ---- Balance ----

/**
 * Estimated USD per billable message by Meta's pricing category. Meta's real price depends on the
 * recipient's country and changes over time; these are indicative rates for a usage overview,
 * not an invoice. Service conversations are free; a category we do not know is counted at 0.
 */
export const ESTIMATED_RATES_USD: Record<string, number> = {
  marketing: 0.025,
  utility: 0.004,
  authentication: 0.0135,
  service: 0,
  unknown: 0,
};

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** This calendar month (UTC) of accepted messages, with their estimated cost per category. */
export async function findBalance(db: Db, businessId: number, now = new Date()): Promise<TWhatsappBalance> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const usage = await repo.usageByCategory(db, businessId, start, end);
  const totals = new Map(Object.keys(ESTIMATED_RATES_USD).map((c) => [c, { messages: 0, billable: 0 }]));
  for (const row of usage) {
    const category = row.category || 'unknown';
    const t = totals.get(category) ?? { messages: 0, billable: 0 };
    totals.set(category, { messages: t.messages + row.messages, billable: t.billable + row.billable });
  }
  const byCategory = [...totals].map(([category, t]) => {
    const rate = ESTIMATED_RATES_USD[category] ?? 0;
    return { category, messages: t.messages, billable: t.billable, rate, cost: round(t.billable * rate) };
  });
  return {
    currency: 'USD',
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    messages_sent: byCategory.reduce((n, c) => n + c.messages, 0),
    billable_messages: byCategory.reduce((n, c) => n + c.billable, 0),
    spent: round(byCategory.reduce((n, c) => n + c.cost, 0)),
    by_category: byCategory,
  };
}
