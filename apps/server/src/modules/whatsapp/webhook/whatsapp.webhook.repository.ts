// The receiving side: the webhook queue, set-based processing of wa_messages (whatsapp.inbound.ts).
// Each WhatsApp sub-folder has its repository; together they are the only code writing the WhatsApp
// tables (docs/design/database.md). Conversations are written through the conversations module's face.
import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../../db/client';
import { lockKeyOf, recordset, rowsOf } from '../../../db/sql';

/**
 * Deliveries as Meta sent them, in one statement: each raw body is cast to jsonb by PostgreSQL,
 * not re-serialised.
 */
export async function insertWebhookEvents(
  db: Db,
  events: { accountId: number; rawBody: string }[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => sql`(${e.accountId}, ${e.rawBody}::jsonb)`);
  await db.execute(
    sql`insert into whatsapp_webhook_events (account_id, payload) values ${sql.join(rows, sql`, `)}`,
  );
}

export type PendingWebhookEvent = { id: number; businessId: number; payload: Record<string, unknown> };

/**
 * Locks up to `limit` deliveries that are due, oldest first, skipping those another processor
 * holds; `onlyId` claims that one delivery (when it is still pending and free).
 */
export async function claimWebhookEvents(
  db: Queryable,
  limit: number,
  onlyId?: number,
): Promise<PendingWebhookEvent[]> {
  const rows = await rowsOf<{ id: string | number; business_id: string | number; payload: unknown }>(
    db,
    sql`select e.id, a.business_id, e.payload
      from whatsapp_webhook_events e join whatsapp_accounts a on a.id = e.account_id
      where e.processed_at is null
        and ${onlyId === undefined ? sql`e.next_attempt_at <= now()` : sql`e.id = ${onlyId}`}
      order by e.next_attempt_at, e.id
      limit ${limit}
      for update of e skip locked`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    businessId: Number(r.business_id),
    payload: (r.payload ?? {}) as Record<string, unknown>,
  }));
}

export async function markWebhookEventsProcessed(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`update whatsapp_webhook_events set processed_at = now(), last_error = null
    where id in (select (jsonb_array_elements_text(${recordset(ids)}))::bigint)`);
}

/**
 * A delivery that failed on its own: counted, its error kept, and put off for `retryDelaySeconds`
 * doubled per earlier attempt (at most `maxDelaySeconds`); after `maxAttempts` it is no longer due.
 */
export async function recordWebhookEventFailure(
  db: Queryable,
  id: number,
  error: string,
  policy: { retryDelaySeconds: number; maxDelaySeconds: number; maxAttempts: number },
): Promise<void> {
  await db.execute(sql`update whatsapp_webhook_events set
      attempts = attempts + 1,
      last_error = ${error.slice(0, 2000)},
      next_attempt_at = case when attempts + 1 >= ${policy.maxAttempts} then null
        else now() + make_interval(secs => least(${policy.maxDelaySeconds}::float8,
          ${policy.retryDelaySeconds}::float8 * power(2, attempts))) end
    where id = ${id} and processed_at is null`);
}

/**
 * Retention, one batch in one statement: up to `limit` deliveries received before `cutoff` that are
 * processed or given up (next_attempt_at null), oldest first by whatsapp_webhook_events_done_idx,
 * skipping rows a processor holds; pending ones are never touched. With a processed delivery go
 * the statuses it reported (kept under the business of the number that reported them) whose wamid
 * has no whatsapp_logs row of that business (not sent by Titan, or never stored): nothing reads
 * them any more. A logged send's statuses are its timeline in the logs and
 * stay as long as the log. Given-up deliveries stored no statuses, so none are taken with them.
 */
export async function deleteExpiredWebhookEvents(
  db: Queryable,
  cutoff: Date,
  limit: number,
): Promise<{ events: number; reported: { businessId: number; providerMessageId: string; type: string }[] }> {
  const rows = await rowsOf<{
    events: number | string;
    reported: { b: number; m: string; s: string }[] | null;
  }>(
    db,
    sql`with doomed as (
        select id from whatsapp_webhook_events
        where (processed_at is not null or next_attempt_at is null)
          and received_at < ${cutoff.toISOString()}::timestamptz
        order by received_at, id
        limit ${limit}
        for update skip locked
      ), deleted as (
        delete from whatsapp_webhook_events where id = any(array(select id from doomed))
        returning account_id, processed_at, payload
      ), reported as (
        select distinct a.business_id as b, st.item->>'id' as m, st.item->>'status' as s
        from deleted join whatsapp_accounts a on a.id = deleted.account_id,
          jsonb_path_query(deleted.payload,
            '$.entry[*].changes[*] ? (@.field == "messages").value.statuses[*]') as st(item)
        where deleted.processed_at is not null
      )
      select (select count(*) from deleted)::int as events,
        (select jsonb_agg(to_jsonb(reported)) from reported where m is not null and s is not null) as reported`,
  );
  const row = rows[0];
  return {
    events: Number(row?.events ?? 0),
    reported: (row?.reported ?? []).map((r) => ({
      businessId: Number(r.b),
      providerMessageId: r.m,
      type: r.s,
    })),
  };
}

/**
 * Takes the per-contact locks of a batch in one order every processor shares (the lock keys
 * sorted), so two batches with contacts in common wait for each other instead of deadlocking.
 */
export async function lockContacts(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  // pg_advisory_xact_lock is volatile, so it runs after the sort, in key order.
  await db.execute(sql`select pg_advisory_xact_lock(k)
    from (select distinct ${lockKeyOf(sql`v`)} as k from jsonb_array_elements_text(${recordset(keys)}) v) keys
    order by k`);
}

/** A wamid as a key within its business: the same wamid in two businesses is two messages. */
export const wamidKey = (businessId: number, id: string) => `${businessId}:${id}`;

/** Which of `keys` are already stored in their business (redeliveries), as `wamidKey`s. */
export async function findStoredWamids(
  db: Queryable,
  keys: { businessId: number; id: string }[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await rowsOf<{ business_id: string | number; id: string }>(
    db,
    sql`select m.business_id, m.id
      from jsonb_to_recordset(${recordset(
        keys.map((k) => ({ business_id: k.businessId, id: k.id })),
      )}) as k(business_id bigint, id text)
      join wa_messages m on m.business_id = k.business_id and m.id = k.id`,
  );
  return new Set(rows.map((r) => wamidKey(Number(r.business_id), r.id)));
}
