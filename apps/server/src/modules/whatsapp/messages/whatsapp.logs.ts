// What was sent to WhatsApp and what became of it, read from the send spine: the log list, one send
// with its status timeline (credentials taken out), the CSV export, and this month's usage priced
// by category.
import type {
  TWhatsappBalance,
  TWhatsappLogDetail,
  TWhatsappLogFilter,
  TWhatsappLogListQuery,
} from '@titan/contracts';
import type { Db } from '../../../db/client';
import { AppError } from '../../../platform/errors';
import type { InboxScope } from '../../../platform/inbox-scope';
import { credentialsOf, type WhatsappDeps } from './whatsapp.outbound';
import * as accountRepo from '../account/whatsapp.account.repository';
import * as sendLogs from '../../sends';
import * as sendsRepo from '../../sends';

export const LOG_ERRORS = { notFound: 'No WhatsApp log with this tracking id.' } as const;

/** Agents see the sends in conversations their inbox shows (docs/design/inbox.md "Who sees which conversation"). */
export const findLogs = (db: Db, scope: InboxScope, query: TWhatsappLogListQuery) =>
  sendLogs.findSendLogs(db, 'whatsapp', scope, query);

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

export async function findLogDetail(
  deps: Pick<WhatsappDeps, 'db' | 'secrets'>,
  scope: InboxScope,
  trackingId: string,
): Promise<TWhatsappLogDetail> {
  const [found, account] = await Promise.all([
    sendLogs.findSendLog(deps.db, 'whatsapp', scope, trackingId),
    accountRepo.findAccountByBusiness(deps.db, scope.businessId),
  ]);
  if (!found) throw AppError.notFound(LOG_ERRORS.notFound);
  const secrets = account
    ? [credentialsOf(deps, account).accessToken, deps.secrets.open(account.appSecretSealed)]
    : [];
  return {
    ...found.log,
    request: withoutSecrets(found.request, secrets) as Record<string, unknown>,
    response: found.response ? (withoutSecrets(found.response, secrets) as Record<string, unknown>) : null,
    events: found.events,
  };
}

// ---- CSV: the spine's, streamed from a database cursor ----

export { csvCell } from '../../../platform/csv';

export const exportFileName = (now = new Date()) => sendLogs.exportFileName('whatsapp', now);

export const exportLogs = (db: Db, scope: InboxScope, filter: TWhatsappLogFilter) =>
  sendLogs.exportSendLogs(db, 'whatsapp', scope, filter);

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
  const usage = await sendsRepo.usageByCategory(db, businessId, 'whatsapp', start, end);
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
