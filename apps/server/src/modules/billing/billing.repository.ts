// The only code that touches the billing tables (migration 0037, db/schema/billing.ts):
// `billing_settings`, `billing_accounts`, `billing_usage`, `billing_top_ups` and
// `billing_webhook_events`. Plain writes go through drizzle; the conditional counting stays SQL.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TBilledChannel, TSubscriptionStatus } from '@titan/contracts';
import {
  billingAccounts,
  billingSettings,
  billingTopUps,
  billingUsage,
  billingWebhookEvents,
} from '../../db/schema';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/sql';

const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
const at = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs));

export type Quotas = Partial<Record<TBilledChannel, number>>;

export type BillingAccount = {
  businessId: number;
  customerId: string;
  subscriptionId: string | null;
  status: TSubscriptionStatus;
  planItemPriceId: string | null;
  planName: string | null;
  quotas: Quotas;
  currentTermStart: Date | null;
  currentTermEnd: Date | null;
  resourceVersion: number;
};

/** What a send is judged by: whether billing is on, and the business's account (if any). */
export type Policy = { enabled: boolean; account: BillingAccount | null };

type AccountRaw = {
  business_id: number;
  customer_id: string;
  subscription_id: string | null;
  status: TSubscriptionStatus;
  plan_item_price_id: string | null;
  plan_name: string | null;
  quotas: Quotas | string;
  term_start: number | null;
  term_end: number | null;
  resource_version: number;
};

const accountColumns = sql`a.business_id::float8 as business_id, a.customer_id, a.subscription_id, a.status,
  a.plan_item_price_id, a.plan_name, a.quotas, ${ms(sql`a.current_term_start`)} as term_start,
  ${ms(sql`a.current_term_end`)} as term_end, a.resource_version::float8 as resource_version`;

function toAccount(raw: AccountRaw): BillingAccount {
  return {
    businessId: raw.business_id,
    customerId: raw.customer_id,
    subscriptionId: raw.subscription_id,
    status: raw.status,
    planItemPriceId: raw.plan_item_price_id,
    planName: raw.plan_name,
    quotas: typeof raw.quotas === 'string' ? (JSON.parse(raw.quotas) as Quotas) : raw.quotas,
    currentTermStart: at(raw.term_start),
    currentTermEnd: at(raw.term_end),
    resourceVersion: raw.resource_version,
  };
}

export async function writeSettings(db: Queryable, enabled: boolean, site: string | null): Promise<void> {
  await db
    .insert(billingSettings)
    .values({ id: 1, enabled, site, updatedAt: sql`now()` })
    .onConflictDoUpdate({ target: billingSettings.id, set: { enabled, site, updatedAt: sql`now()` } });
}

export async function findPolicy(db: Queryable, businessId: number): Promise<Policy> {
  const [row] = await rowsOf<AccountRaw & { enabled: boolean; has_account: boolean }>(
    db,
    sql`select s.enabled, a.business_id is not null as has_account, ${accountColumns}
      from billing_settings s left join billing_accounts a on a.business_id = ${businessId} where s.id = 1`,
  );
  return {
    enabled: row?.enabled ?? false,
    account: row?.has_account ? toAccount(row) : null,
  };
}

export async function findAccount(db: Queryable, businessId: number): Promise<BillingAccount | null> {
  const [row] = await rowsOf<AccountRaw>(
    db,
    sql`select ${accountColumns} from billing_accounts a where a.business_id = ${businessId}`,
  );
  return row ? toAccount(row) : null;
}

export async function findAccountByCustomer(
  db: Queryable,
  customerId: string,
  options: { lock?: boolean } = {},
): Promise<BillingAccount | null> {
  const [row] = await rowsOf<AccountRaw>(
    db,
    sql`select ${accountColumns} from billing_accounts a where a.customer_id = ${customerId} ${options.lock ? sql`for update` : sql``}`,
  );
  return row ? toAccount(row) : null;
}

export async function insertAccount(db: Queryable, businessId: number, customerId: string): Promise<void> {
  await db
    .insert(billingAccounts)
    .values({ businessId, customerId })
    .onConflictDoNothing({ target: billingAccounts.businessId });
}

export async function updateSubscription(
  db: Queryable,
  businessId: number,
  values: {
    subscriptionId: string;
    status: TSubscriptionStatus;
    planItemPriceId: string | null;
    planName: string | null;
    quotas: Quotas;
    currentTermStart: Date | null;
    currentTermEnd: Date | null;
    resourceVersion: number;
  },
): Promise<void> {
  await db
    .update(billingAccounts)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(billingAccounts.businessId, businessId));
}

export type UsageKey = { businessId: number; channel: TBilledChannel; periodStart: Date };

/**
 * Counts `n` sends against the period's allowance in one conditional update: the row lock makes
 * concurrent reservations take turns, and each sees the others' counts, so none overshoots
 * `limit` (+ the period's top-up credit). Null `limit`: counted, never refused. False: refused.
 */
export async function reserve(
  db: Queryable,
  key: UsageKey,
  n: number,
  limit: number | null,
): Promise<boolean> {
  await db.execute(sql`insert into billing_usage (business_id, channel, period_start)
    values (${key.businessId}, ${key.channel}, ${key.periodStart.toISOString()}::timestamptz) on conflict do nothing`);
  const rows = await rowsOf<{ reserved: number }>(
    db,
    sql`update billing_usage set reserved = reserved + ${n}
      where business_id = ${key.businessId} and channel = ${key.channel}
        and period_start = ${key.periodStart.toISOString()}::timestamptz
        and (${limit}::int is null or reserved + ${n} <= ${limit}::int + extra)
      returning reserved`,
  );
  return rows.length > 0;
}

/** The usage row of the period a send created at `createdAt` was reserved in. */
const periodRowOf = (businessId: number, channel: string, createdAt: Date) =>
  sql`(select u.period_start from billing_usage u where u.business_id = ${businessId} and u.channel = ${channel}
    and u.period_start <= ${createdAt.toISOString()}::timestamptz order by u.period_start desc limit 1)`;

/** Gives back what failed sends had reserved (they never reached their provider). */
export async function release(
  db: Queryable,
  businessId: number,
  channel: string,
  createdAt: Date,
  n: number,
) {
  await db.execute(sql`update billing_usage set reserved = greatest(reserved - ${n}, 0)
    where business_id = ${businessId} and channel = ${channel}
      and period_start = ${periodRowOf(businessId, channel, createdAt)}`);
}

/** Counts sends their provider accepted in the period they were reserved in. */
export async function addAccepted(
  db: Queryable,
  businessId: number,
  channel: string,
  createdAt: Date,
  n: number,
) {
  await db.execute(sql`update billing_usage set accepted = accepted + ${n}
    where business_id = ${businessId} and channel = ${channel}
      and period_start = ${periodRowOf(businessId, channel, createdAt)}`);
}

export type UsageRow = { channel: TBilledChannel; reserved: number; accepted: number; extra: number };

export async function usageOf(db: Queryable, businessId: number, periodStart: Date): Promise<UsageRow[]> {
  const rows = await db
    .select({
      channel: billingUsage.channel,
      reserved: billingUsage.reserved,
      accepted: billingUsage.accepted,
      extra: billingUsage.extra,
    })
    .from(billingUsage)
    .where(and(eq(billingUsage.businessId, businessId), eq(billingUsage.periodStart, periodStart)));
  return rows.map((r) => ({ ...r, channel: r.channel as TBilledChannel }));
}

/** Adds top-up credit to a period (the row is made when missing). */
export async function addExtra(db: Queryable, key: UsageKey, units: number): Promise<void> {
  await db
    .insert(billingUsage)
    .values({ businessId: key.businessId, channel: key.channel, periodStart: key.periodStart, extra: units })
    .onConflictDoUpdate({
      target: [billingUsage.businessId, billingUsage.channel, billingUsage.periodStart],
      set: { extra: sql`${billingUsage.extra} + excluded.extra` },
    });
}

export type TopUpRow = {
  invoice_id: string;
  business_id: number;
  channel: TBilledChannel;
  units: number;
  status: string;
  credited: boolean;
};

export async function insertTopUp(
  db: Queryable,
  values: {
    invoiceId: string;
    businessId: number;
    itemPriceId: string;
    channel: TBilledChannel;
    units: number;
    status: string;
    createdBy: number | null;
  },
): Promise<void> {
  await db.insert(billingTopUps).values(values).onConflictDoNothing({ target: billingTopUps.invoiceId });
}

/** Marks a top-up credited, once: answers it when this call did (else null). */
export async function markTopUpCredited(
  db: Queryable,
  invoiceId: string,
  status: string,
): Promise<TopUpRow | null> {
  const [row] = await rowsOf<TopUpRow>(
    db,
    sql`update billing_top_ups set status = ${status}, credited_at = now()
      where invoice_id = ${invoiceId} and credited_at is null
      returning invoice_id, business_id::float8 as business_id, channel, units, status, true as credited`,
  );
  return row ?? null;
}

/** Keeps a webhook event once: false when it was already kept (a duplicate delivery). */
export async function insertWebhookEvent(
  db: Queryable,
  event: { id: string; type: string; businessId: number | null; outcome: string },
): Promise<boolean> {
  const rows = await db
    .insert(billingWebhookEvents)
    .values({
      eventId: event.id,
      eventType: event.type,
      businessId: event.businessId,
      outcome: event.outcome,
    })
    .onConflictDoNothing({ target: billingWebhookEvents.eventId })
    .returning({ eventId: billingWebhookEvents.eventId });
  return rows.length > 0;
}
