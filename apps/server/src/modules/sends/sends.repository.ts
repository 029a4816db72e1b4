// The only code that touches `sends` and `send_events` (the send spine, engage.md §1): this file (the
// sends themselves) and its siblings by section — sends.events, .logs, .batches and .metrics.repository.ts.
import { and, count, eq, gte, inArray, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sendEvents, sends, type SendCause, type SendChannel } from '../../db/schema';
import { lockKeyOf, recordset, rowsOf } from '../../db/sql';

export type { SendCause, SendChannel };
export type SendRow = typeof sends.$inferSelect;
export type NewSend = typeof sends.$inferInsert;

/** A send whose status just changed, as `send.status_changed` tells it. */
export type StatusChange = {
  id: string;
  businessId: number;
  channel: string;
  cause: string;
  causeId: string | null;
  customerId: number | null;
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
};
export type StatusChangeSqlRow = {
  id: string;
  business_id: string | number;
  channel: string;
  cause: string;
  cause_id: string | null;
  customer_id: string | number | null;
  status: string;
  error_code: string | null;
  error_message: string | null;
};
export const CHANGE_COLUMNS = sql.raw(
  's.id, s.business_id, s.channel, s.cause, s.cause_id, s.customer_id, s.status, s.error_code, s.error_message',
);
export const toChange = (r: StatusChangeSqlRow): StatusChange => ({
  id: r.id,
  businessId: Number(r.business_id),
  channel: r.channel,
  cause: r.cause,
  causeId: r.cause_id,
  customerId: r.customer_id === null ? null : Number(r.customer_id),
  status: r.status,
  errorCode: r.error_code,
  errorMessage: r.error_message,
});

export async function insertSend(db: Queryable, values: NewSend): Promise<SendRow> {
  const [row] = await db.insert(sends).values(values).returning();
  return row!;
}

export async function findSend(db: Queryable, businessId: number, id: string): Promise<SendRow | null> {
  const [row] = await db
    .select()
    .from(sends)
    .where(and(eq(sends.businessId, businessId), eq(sends.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findSendById(db: Queryable, id: string): Promise<SendRow | null> {
  const [row] = await db.select().from(sends).where(eq(sends.id, id)).limit(1);
  return row ?? null;
}

/**
 * Takes a queued send for the one caller that will call the provider: a conditional update, so
 * of two claimants (the request and a recovery job) exactly one gets it.
 */
export async function claimSend(db: Queryable, id: string): Promise<SendRow | null> {
  const [row] = await db
    .update(sends)
    .set({ status: 'sending', claimedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(sends.id, id), eq(sends.status, 'queued')))
    .returning();
  return row ?? null;
}

/**
 * The provider accepted a claimed send: its id and answer are kept, and events that arrived for
 * that id before now are attached to it. False when the send was no longer being sent by us.
 */
export async function markAccepted(
  db: Queryable,
  id: string,
  values: { status: string; providerMessageId: string | null; response: Record<string, unknown> | null },
): Promise<SendRow | null> {
  const [row] = await db
    .update(sends)
    .set({
      status: values.status,
      providerMessageId: values.providerMessageId,
      providerResponse: values.response,
      updatedAt: new Date(),
    })
    .where(and(eq(sends.id, id), eq(sends.status, 'sending')))
    .returning();
  if (row?.providerMessageId) {
    await db
      .update(sendEvents)
      .set({ sendId: row.id })
      .where(
        and(
          eq(sendEvents.businessId, row.businessId),
          eq(sendEvents.channel, row.channel),
          eq(sendEvents.providerMessageId, row.providerMessageId),
          sql`${sendEvents.sendId} is null`,
        ),
      );
  }
  return row ?? null;
}

/** A send that ended before the provider accepted it (refused, or given up); only while unfinished. */
export async function markFailed(
  db: Queryable,
  id: string,
  values: { errorCode: string | null; errorMessage: string; response: Record<string, unknown> | null },
): Promise<SendRow | null> {
  const [row] = await db
    .update(sends)
    .set({
      status: 'failed',
      errorCode: values.errorCode,
      errorMessage: values.errorMessage,
      providerResponse: values.response,
      updatedAt: new Date(),
    })
    .where(and(eq(sends.id, id), sql`${sends.status} in ('queued', 'sending')`))
    .returning();
  return row ?? null;
}

export async function detachConversation(db: Queryable, businessId: number, conversationId: number) {
  await db
    .update(sends)
    .set({ conversationId: null })
    .where(and(eq(sends.businessId, businessId), eq(sends.conversationId, conversationId)));
}

/** Unfinished sends untouched since `before`: queued ones (never claimed) and claimed ones. */
export async function findStale(db: Queryable, status: 'queued' | 'sending', before: Date, limit: number) {
  return rowsOf<{ id: string; channel: SendChannel }>(
    db,
    sql`select id, channel from sends where status = ${status} and updated_at < ${before.toISOString()}::timestamptz
      order by updated_at limit ${limit}`,
  );
}

/** The causes of marketing sends (the frequency cap counts them); replies, one-off, test and system sends are not. */
export const MARKETING_CAUSES = ['broadcast', 'agent', 'journey'] as const satisfies readonly SendCause[];
export const MARKETING_CHANNELS = ['email', 'sms', 'whatsapp'] as const satisfies readonly SendChannel[];
/** Sends that never reached the customer: not counted (queued and sending ones are: they are on their way). */
export const UNCOUNTED_STATUSES = ['failed', 'bounced', 'suppressed', 'cancelled'];

/**
 * Marketing sends of the business to each of these customers since `since`, for a page of
 * customers in one statement (customers without any are absent). Served by
 * sends_customer_created_idx: only the window's sends of the page's customers are read.
 */
export async function marketingSendCounts(
  db: Queryable,
  businessId: number,
  customerIds: number[],
  since: Date,
): Promise<Map<number, number>> {
  if (customerIds.length === 0) return new Map();
  const rows = await db
    .select({ customerId: sends.customerId, n: count() })
    .from(sends)
    .where(
      and(
        inArray(sends.customerId, customerIds),
        gte(sends.createdAt, since),
        eq(sends.businessId, businessId),
        inArray(sends.cause, [...MARKETING_CAUSES]),
        inArray(sends.channel, [...MARKETING_CHANNELS]),
        notInArray(sends.status, UNCOUNTED_STATUSES),
      ),
    )
    .groupBy(sends.customerId);
  return new Map(rows.map((r) => [Number(r.customerId), Number(r.n)]));
}

/**
 * Holds the frequency cap's transaction-scoped advisory lock on each (business, customer), taken in
 * one statement by ascending customer id: every capped sender locks in that order, so two batches
 * sharing customers wait for each other instead of deadlocking.
 */
export async function lockFrequencyCap(
  db: Queryable,
  keys: { businessId: number; customerId: number }[],
): Promise<void> {
  if (keys.length === 0) return;
  await db.execute(sql`select pg_advisory_xact_lock(${lockKeyOf(sql`k.key`)})
    from (select distinct 'frequency-cap:' || c.business_id || ':' || c.customer_id as key, c.customer_id
      from jsonb_to_recordset(${recordset(
        keys.map((k) => ({ business_id: k.businessId, customer_id: k.customerId })),
      )}) as c(business_id bigint, customer_id bigint)
      order by c.customer_id offset 0) k`);
}
