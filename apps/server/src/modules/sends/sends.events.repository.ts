// Send events: providers' status reports applied set-based, and the events Titan observes itself
// (opens, clicks, bounces by VERP, unsubscribes). Part of the send spine's repository (sends.repository.ts).
import { and, eq, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { sendEvents, sends, type SendChannel } from '../../db/schema';
import { recordset, rowsOf } from '../../db/sql';
import {
  CHANGE_COLUMNS,
  type SendRow,
  type StatusChange,
  type StatusChangeSqlRow,
  findSendById,
  toChange,
} from './sends.repository';

export type ProviderEvent = {
  businessId: number;
  providerMessageId: string;
  type: string;
  /** Unix seconds, as providers report them. */
  timestamp: number | null;
  payload: Record<string, unknown>;
};

/**
 * A channel's provider events, each (business, provider id, type) kept once however often it is
 * redelivered, attached to its send when the send is known; inserted in one order for every batch,
 * so two batches reporting the same events cannot deadlock.
 */
export async function insertEvents(
  db: Queryable,
  channel: SendChannel,
  values: ProviderEvent[],
): Promise<void> {
  if (values.length === 0) return;
  await db.execute(sql`insert into send_events
      (business_id, channel, send_id, provider_message_id, type, occurred_at, payload)
    select v.business_id, ${channel}, s.id, v.pmid, v.type,
      case when v.ts is not null then to_timestamp(v.ts) end, v.payload
    from jsonb_to_recordset(${recordset(
      values.map((v) => ({
        business_id: v.businessId,
        pmid: v.providerMessageId,
        type: v.type,
        ts: v.timestamp,
        payload: v.payload,
      })),
    )}) as v(business_id bigint, pmid text, type text, ts bigint, payload jsonb)
    left join sends s on s.business_id = v.business_id and s.channel = ${channel} and s.provider_message_id = v.pmid
    order by v.business_id, v.pmid, v.type
    -- Each channel's own unique index says what is a repeat (WhatsApp: per status; SMS: per Twilio
    -- status); whichever is hit, the repeat is dropped.
    on conflict do nothing`);
}

export type BestEvent = {
  businessId: number;
  providerMessageId: string;
  type: string;
  payload: Record<string, unknown>;
};

/**
 * For each (business, provider id): the strongest event reported, raised onto its send in the
 * channel's status order (never lowered; final states stay), with the error of a failure and the
 * latest pricing. One statement per step, whatever the number of keys; rows are locked in one
 * order. Answers the strongest event per key, for the channel to mirror onto its messages.
 */
export async function applyBestEvents(
  db: Queryable,
  channel: SendChannel,
  keys: { businessId: number; providerMessageId: string }[],
): Promise<{ best: BestEvent[]; changed: StatusChange[] }> {
  if (keys.length === 0) return { best: [], changed: [] };
  const keyset = recordset(keys.map((k) => ({ business_id: k.businessId, pmid: k.providerMessageId })));
  const best = await rowsOf<{
    business_id: string | number;
    pmid: string;
    type: string;
    payload: Record<string, unknown>;
  }>(
    db,
    sql`select distinct on (e.business_id, e.provider_message_id)
        e.business_id, e.provider_message_id as pmid, e.type, e.payload
      from (select distinct business_id, pmid from jsonb_to_recordset(${keyset}) as k(business_id bigint, pmid text)) k
      join send_events e on e.business_id = k.business_id and e.channel = ${channel} and e.provider_message_id = k.pmid
      order by e.business_id, e.provider_message_id, send_status_rank(${channel}, e.type) desc, e.received_at desc`,
  );
  if (best.length === 0) return { best: [], changed: [] };
  const before = await rowsOf<{ id: string; status: string }>(
    db,
    sql`select s.id, s.status from sends s
    join jsonb_to_recordset(${keyset}) as k(business_id bigint, pmid text)
      on s.business_id = k.business_id and s.channel = ${channel} and s.provider_message_id = k.pmid
    order by s.business_id, s.provider_message_id for update of s`,
  );
  const statusBefore = new Map(before.map((r) => [r.id, r.status]));
  const after = await rowsOf<StatusChangeSqlRow>(
    db,
    sql`update sends s set
      status = case when send_status_rank(s.channel, b.type) > send_status_rank(s.channel, s.status)
        and send_status_rank(s.channel, s.status) < 100 then b.type else s.status end,
      error_code = case when b.type = 'failed' and s.status <> 'failed'
        then coalesce(b.payload->'errors'->0->>'code', s.error_code) else s.error_code end,
      error_message = case when b.type = 'failed' and s.status <> 'failed'
        then coalesce(b.payload->'errors'->0->>'message', b.payload->'errors'->0->>'title', s.error_message)
        else s.error_message end,
      cost = coalesce(p.cost, s.cost),
      updated_at = now()
    from jsonb_to_recordset(${recordset(
      best.map((b) => ({
        business_id: Number(b.business_id),
        pmid: b.pmid,
        type: b.type,
        payload: b.payload,
      })),
    )}) as b(business_id bigint, pmid text, type text, payload jsonb)
    left join lateral (
      select jsonb_build_object('category', e.payload->'pricing'->>'category',
        'billable', (e.payload->'pricing'->>'billable')::boolean) as cost
      from send_events e
      where e.business_id = b.business_id and e.channel = ${channel} and e.provider_message_id = b.pmid
        and e.payload ? 'pricing'
      order by e.received_at desc, e.id desc limit 1
    ) p on true
    where s.business_id = b.business_id and s.channel = ${channel} and s.provider_message_id = b.pmid
    returning ${CHANGE_COLUMNS}`,
  );
  return {
    best: best.map((b) => ({
      businessId: Number(b.business_id),
      providerMessageId: b.pmid,
      type: b.type,
      payload: b.payload ?? {},
    })),
    changed: after.filter((r) => statusBefore.get(r.id) !== r.status).map(toChange),
  };
}

/**
 * Retention: of the events reported by deliveries being deleted, those whose provider id has no
 * send of that business (not sent by Titan, or never stored). A send's events are its timeline
 * and stay as long as the send.
 */
export async function deleteOrphanEvents(
  db: Queryable,
  channel: SendChannel,
  reported: { businessId: number; providerMessageId: string; type: string }[],
): Promise<number> {
  if (reported.length === 0) return 0;
  const rows = await rowsOf<{ n: number | string }>(
    db,
    sql`with gone as (
        delete from send_events e
        using jsonb_to_recordset(${recordset(
          reported.map((r) => ({ business_id: r.businessId, pmid: r.providerMessageId, type: r.type })),
        )}) as r(business_id bigint, pmid text, type text)
        where e.business_id = r.business_id and e.channel = ${channel} and e.provider_message_id = r.pmid
          and e.type = r.type
          and not exists (select 1 from sends s where s.business_id = e.business_id and s.channel = ${channel}
            and s.provider_message_id = e.provider_message_id)
        returning e.id)
      select count(*)::int as n from gone`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** A send's events: in its channel's status order, then by when they happened. */
export async function listEvents(db: Queryable, send: SendRow) {
  return db
    .select()
    .from(sendEvents)
    .where(
      // Events Titan kept before the provider id was known (an email's deferred attempts) carry
      // only the send id; events a provider reported carry only its id until the send has it.
      send.providerMessageId
        ? or(
            eq(sendEvents.sendId, send.id),
            and(
              eq(sendEvents.businessId, send.businessId),
              eq(sendEvents.channel, send.channel),
              eq(sendEvents.providerMessageId, send.providerMessageId),
            ),
          )
        : eq(sendEvents.sendId, send.id),
    )
    .orderBy(
      sql`(case when ${sendEvents.type} = 'failed' then 100 else send_status_rank(${sendEvents.channel}, ${sendEvents.type}) end)`,
      sql`${sendEvents.occurredAt} asc nulls last`,
      sql`${sendEvents.receivedAt} asc`,
    );
}

// ---- Events Titan observes itself (opens, clicks, bounces by VERP, unsubscribes) ----

/**
 * One event about a known send: kept (events of this kind may repeat), and, when `raise`, the
 * send's status raised to `type` in its channel's order — never lowered, final states kept. A
 * final type (bounced, complained, failed) stores its code and reason on the send. Null when the
 * send does not exist.
 */
export async function recordEvent(
  db: Queryable,
  event: {
    sendId: string;
    type: string;
    occurredAt?: Date | null;
    payload?: Record<string, unknown>;
    raise: boolean;
    errorCode?: string | null;
    errorMessage?: string | null;
  },
): Promise<{ send: SendRow; raised: boolean } | null> {
  const [inserted] = await rowsOf<{ business_id: string | number }>(
    db,
    sql`insert into send_events (business_id, channel, send_id, provider_message_id, type, occurred_at, payload)
      select s.business_id, s.channel, s.id, s.provider_message_id, ${event.type},
        ${event.occurredAt ? event.occurredAt.toISOString() : null}::timestamptz, ${JSON.stringify(event.payload ?? {})}::jsonb
      from sends s where s.id = ${event.sendId}
      returning business_id`,
  );
  if (!inserted) return null;
  const unraised = async () => {
    const send = await findSendById(db, event.sendId);
    return send ? { send, raised: false } : null;
  };
  if (!event.raise) return unraised();
  const [raised] = await db
    .update(sends)
    .set({
      status: event.type,
      errorCode: sql`coalesce(${event.errorCode ?? null}, ${sends.errorCode})`,
      errorMessage: sql`coalesce(${event.errorMessage ?? null}, ${sends.errorMessage})`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(sends.id, event.sendId),
        sql`send_status_rank(${sends.channel}, ${event.type}) > send_status_rank(${sends.channel}, ${sends.status})`,
        sql`send_status_rank(${sends.channel}, ${sends.status}) < 100`,
      ),
    )
    .returning();
  return raised ? { send: raised, raised: true } : unraised();
}
