// Many sends at once (broadcasts), and email sending's batch claims, transient retries and
// idempotency. Part of the send spine's repository (sends.repository.ts).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sendEvents, sends, type SendCause, type SendChannel } from '../../db/schema';
import { lockKeyOf, recordset, rowsOf } from '../../db/sql';
import {
  CHANGE_COLUMNS,
  type NewSend,
  type SendRow,
  type StatusChange,
  type StatusChangeSqlRow,
  toChange,
} from './sends.repository';

/** How many sends of one cause (a broadcast, an agent run) stand at each status. */
export async function countByCause(
  db: Queryable,
  businessId: number,
  cause: SendCause,
  causeId: string,
): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: sends.status, n: sql<number>`count(*)::int` })
    .from(sends)
    .where(and(eq(sends.businessId, businessId), eq(sends.cause, cause), eq(sends.causeId, causeId)))
    .groupBy(sends.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Cancels the sends of one cause not yet claimed (a cancelled broadcast); answers how many. */
export async function cancelQueuedByCause(
  db: Queryable,
  businessId: number,
  cause: SendCause,
  causeId: string,
): Promise<(SendRow & { channel: SendChannel })[]> {
  return db
    .update(sends)
    .set({ status: 'cancelled', updatedAt: new Date() })
    .where(
      and(
        eq(sends.businessId, businessId),
        eq(sends.cause, cause),
        eq(sends.causeId, causeId),
        eq(sends.status, 'queued'),
      ),
    )
    .returning();
}

/**
 * Many observed events (opens, clicks) in one statement: each kept on its send, and each send
 * raised once to the strongest of its events that `raise` (never lowered, final states kept). A
 * click within `machineWindowMs` of the send's claim (when it went to the mail server) is marked
 * `machine` (reason `too_fast`) and does not raise. Events of unknown sends are dropped. Answers
 * how many events were kept.
 */
export async function recordEventBatch(
  db: Queryable,
  events: {
    sendId: string;
    type: string;
    occurredAt: Date;
    payload: Record<string, unknown>;
    raise: boolean;
  }[],
  machineWindowMs: number,
): Promise<{ kept: number; raised: StatusChange[] }> {
  if (events.length === 0) return { kept: 0, raised: [] };
  const rows = await rowsOf<{ n: number | string; raised: StatusChangeSqlRow[] | null }>(
    db,
    sql`with v as (
        select v.ord, v.send_id, v.type, v.occurred_at, v.payload, v.raise
        from jsonb_to_recordset(${recordset(
          events.map((e, ord) => ({
            ord,
            send_id: e.sendId,
            type: e.type,
            occurred_at: e.occurredAt.toISOString(),
            payload: e.payload,
            raise: e.raise,
          })),
        )}) as v(ord int, send_id uuid, type text, occurred_at timestamptz, payload jsonb, raise boolean)
      ), e as (
        select v.*, s.business_id, s.channel, s.provider_message_id,
          (v.type = 'clicked' and not coalesce((v.payload->>'machine')::boolean, false)
            and v.occurred_at < coalesce(s.claimed_at, s.created_at) + ${machineWindowMs} * interval '1 millisecond'
          ) as too_fast
        from v join sends s on s.id = v.send_id
      ), kept as (
        insert into send_events (business_id, channel, send_id, provider_message_id, type, occurred_at, payload)
        select business_id, channel, send_id, provider_message_id, type, occurred_at,
          case when too_fast then payload || '{"machine": true, "reason": "too_fast"}'::jsonb else payload end
        from e order by ord
        returning 1
      ), best as (
        select distinct on (send_id) send_id, channel, type from e
        where raise and not too_fast
        order by send_id, send_status_rank(channel, type) desc
      ), raised as (
        update sends s set status = best.type, updated_at = now()
        from best
        where s.id = best.send_id
          and send_status_rank(s.channel, best.type) > send_status_rank(s.channel, s.status)
          and send_status_rank(s.channel, s.status) < 100
        returning ${CHANGE_COLUMNS}
      )
      select (select count(*) from kept)::int as n, (select jsonb_agg(raised) from raised) as raised`,
  );
  return { kept: Number(rows[0]?.n ?? 0), raised: (rows[0]?.raised ?? []).map(toChange) };
}

// ---- Email sending: batch claims, transient retries, idempotency ----

/** Claims those of `ids` still queued, in one statement (a job sending a chunk of a batch). */
export async function claimSends(db: Queryable, ids: string[]): Promise<SendRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(sends)
    .set({ status: 'sending', claimedAt: new Date(), updatedAt: new Date() })
    .where(and(inArray(sends.id, ids), eq(sends.status, 'queued')))
    .returning();
}

/**
 * A claimed send the provider deferred (a transient failure): back to `queued` with the reason, for
 * a later attempt. Only while we still hold it.
 */
export async function requeueSend(
  db: Queryable,
  id: string,
  values: { errorCode: string | null; errorMessage: string },
): Promise<SendRow | null> {
  const [row] = await db
    .update(sends)
    .set({
      status: 'queued',
      errorCode: values.errorCode,
      errorMessage: values.errorMessage,
      claimedAt: null,
      updatedAt: new Date(),
    })
    .where(and(eq(sends.id, id), eq(sends.status, 'sending')))
    .returning();
  return row ?? null;
}

export async function findSendByIdempotencyKey(
  db: Queryable,
  businessId: number,
  key: string,
): Promise<SendRow | null> {
  const [row] = await db
    .select()
    .from(sends)
    .where(and(eq(sends.businessId, businessId), eq(sends.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

/** How many events of `type` a send has (e.g. its deferred attempts). */
export async function countSendEvents(db: Queryable, sendId: string, type: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sendEvents)
    .where(and(eq(sendEvents.sendId, sendId), eq(sendEvents.type, type)));
  return Number(row?.n ?? 0);
}

/**
 * Many sends at once (a bulk batch's chunk): one statement whose rows travel as one jsonb
 * parameter, answering each new send's id and status. A send whose idempotency key the business
 * already used is skipped (a broadcast's batch recorded again after a crash).
 */
export async function insertSends(
  db: Queryable,
  values: (NewSend & { id: string })[],
): Promise<{ id: string; status: string }[]> {
  if (values.length === 0) return [];
  return rowsOf<{ id: string; status: string }>(
    db,
    sql`insert into sends (id, business_id, channel, cause, cause_id, customer_id, conversation_id, recipient,
        template_id, template_name, subject, status, error_message, idempotency_key, created_by, provider_request, cost)
      select v.id, v.business_id, v.channel, v.cause, v.cause_id, v.customer_id, v.conversation_id, v.recipient,
        v.template_id, v.template_name, v.subject, v.status, v.error_message, v.idempotency_key, v.created_by,
        coalesce(v.provider_request, '{}'::jsonb), v.cost
      from jsonb_to_recordset(${recordset(
        values.map((v) => ({
          id: v.id,
          business_id: v.businessId,
          channel: v.channel,
          cause: v.cause,
          cause_id: v.causeId ?? null,
          customer_id: v.customerId ?? null,
          conversation_id: v.conversationId ?? null,
          recipient: v.recipient,
          template_id: v.templateId ?? null,
          template_name: v.templateName ?? null,
          subject: v.subject ?? null,
          status: v.status,
          error_message: v.errorMessage ?? null,
          idempotency_key: v.idempotencyKey ?? null,
          created_by: v.createdBy ?? null,
          provider_request: v.providerRequest ?? {},
          cost: v.cost ?? null,
        })),
      )}) as v(id uuid, business_id bigint, channel text, cause text, cause_id text, customer_id bigint,
        conversation_id bigint, recipient text, template_id bigint, template_name text, subject text, status text,
        error_message text, idempotency_key text, created_by bigint, provider_request jsonb, cost jsonb)
      on conflict (business_id, idempotency_key) do nothing
      returning id, status`,
  );
}

/**
 * Sends the provider accepted, in one statement (a chunk of a bulk send): each gets its status,
 * provider id and answer, while still claimed. For channels whose own events carry the send id
 * (email): nothing reported under the provider id waits to be attached. Answers the sends updated.
 */
export async function markAcceptedMany(
  db: Queryable,
  values: {
    id: string;
    status: string;
    providerMessageId: string;
    response: Record<string, unknown> | null;
  }[],
): Promise<StatusChange[]> {
  if (values.length === 0) return [];
  const rows = await rowsOf<StatusChangeSqlRow>(
    db,
    sql`update sends s set status = v.status, provider_message_id = v.pmid, provider_response = v.response,
        updated_at = now()
      from jsonb_to_recordset(${recordset(
        values.map((v) => ({ id: v.id, status: v.status, pmid: v.providerMessageId, response: v.response })),
      )}) as v(id uuid, status text, pmid text, response jsonb)
      where s.id = v.id and s.status = 'sending'
      returning ${CHANGE_COLUMNS}`,
  );
  return rows.map(toChange);
}

/**
 * Adds what a provider said about a send's cost (SMS: Twilio's segments and price) to what is
 * already known; keys given as null leave the known value.
 */
export async function mergeCost(
  db: Queryable,
  values: { id: string; cost: Record<string, unknown> }[],
): Promise<void> {
  if (values.length === 0) return;
  await db.execute(sql`update sends s
    set cost = coalesce(s.cost, '{}'::jsonb) || jsonb_strip_nulls(v.cost), updated_at = now()
    from jsonb_to_recordset(${recordset(values)}) as v(id uuid, cost jsonb)
    where s.id = v.id`);
}

export async function findSendByProviderMessageId(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  providerMessageId: string,
): Promise<SendRow | null> {
  const [row] = await db
    .select()
    .from(sends)
    .where(
      and(
        eq(sends.businessId, businessId),
        eq(sends.channel, channel),
        eq(sends.providerMessageId, providerMessageId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Holds transaction-scoped advisory locks on these provider messages, taken in one order: a
 * channel whose events can race its own acceptance (SMS) serializes the two on them.
 */
export async function lockProviderMessages(
  db: Queryable,
  channel: SendChannel,
  keys: { businessId: number; providerMessageId: string }[],
): Promise<void> {
  if (keys.length === 0) return;
  await db.execute(sql`select pg_advisory_xact_lock(${lockKeyOf(sql`k.key`)})
    from (select distinct ${channel} || ':' || k.business_id || ':' || k.pmid as key
      from jsonb_to_recordset(${recordset(
        keys.map((k) => ({ business_id: k.businessId, pmid: k.providerMessageId })),
      )}) as k(business_id bigint, pmid text)) k
    order by k.key`);
}

/**
 * A channel's sends that ended (delivered or failed) at their provider but have no price yet,
 * updated between `from` and `to`, and asked about fewer than `maxChecks` times: what a pricing
 * sweep asks the provider about.
 */
export async function findUnpricedSends(
  db: Queryable,
  channel: SendChannel,
  window: { from: Date; to: Date },
  maxChecks: number,
  limit: number,
): Promise<{ id: string; businessId: number; providerMessageId: string; checks: number }[]> {
  const rows = await rowsOf<{
    id: string;
    business_id: string | number;
    pmid: string;
    checks: number | null;
  }>(
    db,
    sql`select id, business_id, provider_message_id as pmid, (cost->>'price_checks')::int as checks
      from sends
      where channel = ${channel} and status in ('delivered', 'failed') and provider_message_id is not null
        and cost->>'price' is null and coalesce((cost->>'price_checks')::int, 0) < ${maxChecks}
        and updated_at >= ${window.from.toISOString()}::timestamptz
        and updated_at <= ${window.to.toISOString()}::timestamptz
      order by updated_at limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    businessId: Number(r.business_id),
    providerMessageId: r.pmid,
    checks: r.checks ?? 0,
  }));
}

/** The dashboard's sends (GET /api/metrics/engage/): counts per day in `timeZone`, channel and status, agents' apart. */
export async function sendCountsByDay(
  db: Queryable,
  businessId: number,
  range: { from: Date; to: Date },
  timeZone = 'UTC',
): Promise<{ date: string; channel: SendChannel; status: string; agent: boolean; n: number }[]> {
  return rowsOf(
    db,
    sql`select to_char(created_at at time zone ${timeZone}, 'YYYY-MM-DD') as date, channel, status,
        cause = 'agent' as agent, count(*)::int as n
      from sends where business_id = ${businessId}
        and created_at >= ${range.from.toISOString()}::timestamptz and created_at <= ${range.to.toISOString()}::timestamptz
      group by 1, 2, 3, 4`,
  );
}

/** Erase and export (GDPR): a customer's sends — by customer, or to one of their addresses. */
const customerSendsWhere = (businessId: number, customerId: number, addresses: string[]) =>
  and(
    eq(sends.businessId, businessId),
    addresses.length > 0
      ? sql`(${sends.customerId} = ${customerId} or lower(${sends.recipient}) = any(${sql.param(addresses)}::text[]))`
      : eq(sends.customerId, customerId),
  );

export async function deleteCustomerSends(
  db: Queryable,
  businessId: number,
  customerId: number,
  addresses: string[],
): Promise<void> {
  await db.delete(sends).where(customerSendsWhere(businessId, customerId, addresses));
}

export async function customerSendsWithEvents(
  db: Queryable,
  businessId: number,
  customerId: number,
  addresses: string[],
): Promise<{ send: SendRow; events: (typeof sendEvents.$inferSelect)[] }[]> {
  const rows = await db
    .select()
    .from(sends)
    .where(customerSendsWhere(businessId, customerId, addresses))
    .orderBy(asc(sends.createdAt));
  const out = [];
  for (const send of rows)
    out.push({
      send,
      events: await db
        .select()
        .from(sendEvents)
        .where(eq(sendEvents.sendId, send.id))
        .orderBy(asc(sendEvents.id)),
    });
  return out;
}
