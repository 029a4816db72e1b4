// The only code that touches `sends` and `send_events` (the send spine, engage.md §1).
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../../db/client';
import {
  broadcasts,
  conversations,
  sendEvents,
  sends,
  type SendCause,
  type SendChannel,
} from '../../db/schema';
import { SEND_OUTCOME_STATUSES, type TSendOutcome } from '@titan/contracts';
import { type InboxScope, scopeConditions } from '../../platform/inbox-scope';
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
type StatusChangeSqlRow = {
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
const CHANGE_COLUMNS = sql.raw(
  's.id, s.business_id, s.channel, s.cause, s.cause_id, s.customer_id, s.status, s.error_code, s.error_message',
);
const toChange = (r: StatusChangeSqlRow): StatusChange => ({
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

// ---- Provider events (set-based) ----

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

// ---- The logs query (one for every channel) ----

export type SendLogFilter = {
  /** A status as the channel's logs name it; `error` is a failed send without a provider id. */
  status?: string;
  /** What the dashboard counts the sends as (SEND_OUTCOME_STATUSES): the same rows as its figures. */
  outcome?: TSendOutcome;
  search?: string;
  template_id?: number;
  /** An agent's sends: cause `agent`, cause_id one of its runs (of the same business). */
  agent_id?: number;
  created_at__gte?: Date;
  created_at__lte?: Date;
};

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The sends a viewer may see: a whole business, or (agents) the sends in conversations their inbox
 * shows. Sends to a bare address belong to no conversation, and to no agent.
 */
function scopeWhere(scope: InboxScope): SQL[] {
  const where: SQL[] = [sql`s.business_id = ${scope.businessId}`];
  if (scope.groupIds !== null) {
    where.push(
      sql`exists (select 1 from ${conversations} where ${conversations.id} = s.conversation_id and ${and(...scopeConditions(scope))})`,
    );
  }
  return where;
}

function logWhere(channel: SendChannel, scope: InboxScope, filter: SendLogFilter): SQL {
  const where: SQL[] = [...scopeWhere(scope), sql`s.channel = ${channel}`];
  if (filter.status === 'error') where.push(sql`s.status = 'failed' and s.provider_message_id is null`);
  else if (filter.status === 'failed')
    where.push(sql`s.status = 'failed' and s.provider_message_id is not null`);
  else if (filter.status) where.push(sql`s.status = ${filter.status}`);
  if (filter.outcome) where.push(statusIn(SEND_OUTCOME_STATUSES[channel][filter.outcome]));
  if (filter.template_id !== undefined) where.push(sql`s.template_id = ${filter.template_id}`);
  if (filter.agent_id !== undefined)
    where.push(sql`s.cause = 'agent' and s.cause_id in (select r.id::text from agent_runs r
      where r.business_id = ${scope.businessId} and r.agent_id = ${filter.agent_id})`);
  if (filter.created_at__gte)
    where.push(sql`s.created_at >= ${filter.created_at__gte.toISOString()}::timestamptz`);
  if (filter.created_at__lte)
    where.push(sql`s.created_at <= ${filter.created_at__lte.toISOString()}::timestamptz`);
  if (filter.search) {
    const term = containing(filter.search);
    const matches = [
      sql`s.recipient ilike ${term}`,
      sql`s.template_name ilike ${term}`,
      sql`s.provider_message_id ilike ${term}`,
      sql`s.subject ilike ${term}`,
    ];
    // "+1 (555) 010-0200" finds the digits-only recipient.
    const digits = filter.search.replace(/\D/g, '');
    if (digits.length >= 3 && digits !== filter.search) matches.push(sql`s.recipient ilike ${`%${digits}%`}`);
    where.push(sql`(${sql.join(matches, sql` or `)})`);
  }
  return sql.join(where, sql` and `);
}

/** A send as the logs show it, with its sender's name. */
export type SendLogRow = {
  id: string;
  conversation_id: string | number | null;
  provider_message_id: string | null;
  recipient: string;
  type: string | null;
  template_name: string | null;
  subject: string | null;
  status: string;
  error_code: string | null;
  error_message: string | null;
  cost: Record<string, unknown> | null;
  created_by: string | number | null;
  sender_id: string | number | null;
  sender_first_name: string | null;
  sender_last_name: string | null;
  sender_email: string | null;
  agent_id: string | number | null;
  agent_name: string | null;
  agent_run_id: string | null;
  created_at: string;
  updated_at: string;
};

/** A timestamp as ISO text (milliseconds, as the API always answered them) from PostgreSQL. */
const TIMESTAMP_TEXT = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const LOG_COLUMNS = sql`s.id, s.conversation_id, s.provider_message_id, s.recipient,
  s.provider_request->>'type' as type, s.template_name, s.subject, s.status, s.error_code, s.error_message, s.cost,
  s.created_by, u.id as sender_id, u.first_name as sender_first_name, u.last_name as sender_last_name,
  u.email as sender_email, ag.id as agent_id, ag.name as agent_name, ar.id::text as agent_run_id,
  ${TIMESTAMP_TEXT('s.created_at')} as created_at,
  ${TIMESTAMP_TEXT('s.updated_at')} as updated_at`;

/** The sender (a member) and, for an agent's send, the agent and its run. */
const LOG_JOINS = sql`left join users u on u.id = s.created_by
    left join agent_runs ar on s.cause = 'agent' and ar.id::text = s.cause_id and ar.business_id = s.business_id
    left join agents ag on ag.id = ar.agent_id`;

const logSelect = (where: SQL) => sql`select ${LOG_COLUMNS} from sends s ${LOG_JOINS} where ${where}`;

const NEWEST_FIRST = sql`order by s.created_at desc, s.id desc`;

/** A page of a channel's sends, newest first, with the total. */
export async function listLogs(
  db: Db,
  channel: SendChannel,
  scope: InboxScope,
  filter: SendLogFilter,
  limit: number,
  offset: number,
): Promise<{ rows: SendLogRow[]; count: number }> {
  const where = logWhere(channel, scope, filter);
  const [rows, total] = await Promise.all([
    rowsOf<SendLogRow>(db, sql`${logSelect(where)} ${NEWEST_FIRST} limit ${limit} offset ${offset}`),
    rowsOf<{ n: number | string }>(db, sql`select count(*)::int as n from sends s where ${where}`),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

/** A page of the sends to one customer the viewer may see, every channel or one, newest first. */
export async function listCustomerSends(
  db: Db,
  scope: InboxScope,
  customerId: number,
  channel: SendChannel | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: (SendLogRow & { channel: SendChannel })[]; count: number }> {
  const where = sql.join(
    [
      ...scopeWhere(scope),
      sql`s.customer_id = ${customerId}`,
      ...(channel ? [sql`s.channel = ${channel}`] : []),
    ],
    sql` and `,
  );
  const [rows, total] = await Promise.all([
    rowsOf<SendLogRow & { channel: SendChannel }>(
      db,
      sql`select ${LOG_COLUMNS}, s.channel from sends s ${LOG_JOINS}
        where ${where} ${NEWEST_FIRST} limit ${limit} offset ${offset}`,
    ),
    rowsOf<{ n: number | string }>(db, sql`select count(*)::int as n from sends s where ${where}`),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

export async function findLog(
  db: Db,
  channel: SendChannel,
  scope: InboxScope,
  id: string,
): Promise<{ log: SendLogRow; send: SendRow } | null> {
  // Not a uuid: not found (rather than an error from the cast).
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [log] = await rowsOf<SendLogRow>(
    db,
    logSelect(sql`${logWhere(channel, scope, {})} and s.id = ${id}::uuid`),
  );
  if (!log) return null;
  const send = await findSend(db, scope.businessId, id);
  return send ? { log, send } : null;
}

/**
 * The filtered sends, newest first, in batches of `batch`. On PostgreSQL one read-only
 * transaction holds a server-side cursor (DECLARE … FETCH): one statement, no row cap, memory of
 * one batch. PGlite has a single connection that a long transaction would hold for everyone, so
 * there the same order is read in keyset pages, each its own statement.
 */
export async function* streamLogs(
  db: Db,
  channel: SendChannel,
  scope: InboxScope,
  filter: SendLogFilter,
  batch = 1000,
): AsyncGenerator<SendLogRow[]> {
  yield* streamSelected<SendLogRow>(db, LOG_COLUMNS, logWhere(channel, scope, filter), batch);
}

/** An email as its CSV line needs it: the status as shown and the sender's name worked out here. */
export type EmailCsvRow = {
  id: string;
  created_at: string;
  updated_at: string;
  recipient: string;
  subject: string | null;
  template_name: string | null;
  status: string;
  error_code: string | null;
  error_message: string | null;
  provider_message_id: string | null;
  sender: string | null;
};

/**
 * Only what the email CSV shows (no provider_request, whose HTML a `->>` would read for every
 * row, no cost document to parse), with the shown status (`error`: failed before the mail server
 * took it) and the sender's name (`first last`, else the email) computed by the database.
 */
const EMAIL_CSV_COLUMNS = sql`s.id, ${TIMESTAMP_TEXT('s.created_at')} as created_at,
  ${TIMESTAMP_TEXT('s.updated_at')} as updated_at, s.recipient, s.subject, s.template_name,
  case when s.status = 'failed' and s.provider_message_id is null then 'error' else s.status end as status,
  s.error_code, s.error_message, s.provider_message_id,
  case when u.id is not null then coalesce(
    nullif(btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''), E' \t\r\n'), ''), u.email)
  end as sender`;

/** The filtered emails for their CSV, newest first, in batches of `batch` (as streamLogs). */
export async function* streamEmailCsvRows(
  db: Db,
  scope: InboxScope,
  filter: SendLogFilter,
  batch = 1000,
): AsyncGenerator<EmailCsvRow[]> {
  yield* streamSelected<EmailCsvRow>(db, EMAIL_CSV_COLUMNS, logWhere('email', scope, filter), batch);
}

async function* streamSelected<T>(db: Db, columns: SQL, where: SQL, batch: number): AsyncGenerator<T[]> {
  const select = sql`select ${columns} from sends s ${LOG_JOINS} where ${where}`;
  const client = (db as unknown as { $client: unknown }).$client;
  if (isPool(client)) {
    const { sql: text, params } = new PgDialect().sqlToQuery(sql`${select} ${NEWEST_FIRST}`);
    const conn = await client.connect();
    let ok = false;
    try {
      await conn.query('begin transaction isolation level repeatable read read only');
      await conn.query(`declare send_logs no scroll cursor for ${text}`, params);
      for (;;) {
        const { rows } = await conn.query<T>(`fetch ${batch} from send_logs`);
        if (rows.length > 0) yield rows;
        if (rows.length < batch) break;
      }
      await conn.query('commit');
      ok = true;
    } finally {
      // A reader that stopped early (client gone) leaves the transaction: roll it back.
      if (!ok) await conn.query('rollback').catch(() => undefined);
      conn.release();
    }
    return;
  }
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const page: (T & { id: string; cursor_at: string })[] = await rowsOf<
      T & { id: string; cursor_at: string }
    >(
      db,
      sql`select ${columns}, s.created_at::text as cursor_at from sends s ${LOG_JOINS}
        where ${where} ${after ? sql`and (s.created_at, s.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
        ${NEWEST_FIRST} limit ${batch}`,
    );
    if (page.length > 0) yield page;
    if (page.length < batch) break;
    const last: { id: string; cursor_at: string } = page.at(-1)!;
    after = { at: last.cursor_at, id: last.id };
  }
}

type PoolLike = {
  connect(): Promise<{
    query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
    release(): void;
  }>;
};

function isPool(client: unknown): client is PoolLike {
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof (client as { connect?: unknown }).connect === 'function' &&
    typeof (client as { totalCount?: unknown }).totalCount === 'number'
  );
}

/** Sends the provider accepted in [from, to), by pricing category (lower case; null when not priced). */
export async function usageByCategory(
  db: Db,
  businessId: number,
  channel: SendChannel,
  from: Date,
  to: Date,
) {
  const rows = await rowsOf<{
    category: string | null;
    messages: number | string;
    billable: number | string;
  }>(
    db,
    sql`select lower(cost->>'category') as category, count(*)::int as messages,
        count(*) filter (where (cost->>'billable')::boolean)::int as billable
      from sends
      where business_id = ${businessId} and channel = ${channel} and provider_message_id is not null
        and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
      group by 1`,
  );
  return rows.map((r) => ({
    category: r.category,
    messages: Number(r.messages),
    billable: Number(r.billable),
  }));
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

// ---- Many sends at once (broadcasts) ----

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

// ---- Email metrics ----

/** Statuses of an email the mail server accepted. */
const EMAIL_DELIVERED = SEND_OUTCOME_STATUSES.email.delivered;
const EMAIL_SENT = [...EMAIL_DELIVERED, 'bounced'];

/** `s.status in (…)` over a fixed list of statuses (never empty: an empty list matches nothing). */
function statusIn(statuses: readonly string[]): SQL {
  if (statuses.length === 0) return sql`false`;
  return sql`s.status in (${sql.join(
    statuses.map((st) => sql`${st}`),
    sql`, `,
  )})`;
}

export type EmailMetricsDayRow = {
  date: string;
  sent: number;
  delivered: number;
  opened: number;
  opened_human: number;
  clicked: number;
  clicked_human: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
};

/**
 * A business's email sends created in [from, to], counted per UTC day of creation: one statement
 * over the sends (their index on business, channel, created_at) and their opens, clicks and
 * unsubscribes (by send id). A send counts once per measure however often it was opened; a click
 * is also an open; machine hits count in the totals, not in the `_human` ones.
 */
export async function emailMetricsByDay(
  db: Queryable,
  businessId: number,
  filter: { from: Date; to: Date; templateId?: number; agentId?: string; timeZone?: string },
): Promise<EmailMetricsDayRow[]> {
  const tz = filter.timeZone ?? 'UTC';
  const where: SQL[] = [
    sql`s.business_id = ${businessId}`,
    sql`s.channel = 'email'`,
    sql`s.created_at >= ${filter.from.toISOString()}::timestamptz`,
    sql`s.created_at <= ${filter.to.toISOString()}::timestamptz`,
  ];
  if (filter.templateId !== undefined) where.push(sql`s.template_id = ${filter.templateId}`);
  // An agent's sends carry its run's id (cause_id), not the agent's.
  if (filter.agentId !== undefined)
    where.push(sql`s.cause = 'agent' and s.cause_id in (select r.id::text from agent_runs r
      where r.business_id = ${businessId} and r.agent_id::text = ${filter.agentId})`);
  const rows = await rowsOf<Record<keyof EmailMetricsDayRow, string | number>>(
    db,
    sql`with s as (
        select s.id, s.status, to_char(s.created_at at time zone ${tz}, 'YYYY-MM-DD') as day
        from sends s where ${sql.join(where, sql` and `)}
      ), e as (
        select e.send_id,
          bool_or(e.type in ('opened', 'clicked')) as opened,
          bool_or(e.type in ('opened', 'clicked') and not coalesce((e.payload->>'machine')::boolean, false)) as opened_human,
          bool_or(e.type = 'clicked') as clicked,
          bool_or(e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)) as clicked_human,
          bool_or(e.type = 'unsubscribed') as unsubscribed
        from send_events e join s on s.id = e.send_id
        where e.type in ('opened', 'clicked', 'unsubscribed')
        group by e.send_id
      )
      select s.day as date,
        count(*) filter (where ${statusIn(EMAIL_SENT)})::int as sent,
        count(*) filter (where ${statusIn(EMAIL_DELIVERED)})::int as delivered,
        count(*) filter (where e.opened)::int as opened,
        count(*) filter (where e.opened_human)::int as opened_human,
        count(*) filter (where e.clicked)::int as clicked,
        count(*) filter (where e.clicked_human)::int as clicked_human,
        count(*) filter (where s.status = 'bounced')::int as bounced,
        count(*) filter (where s.status = 'complained')::int as complained,
        count(*) filter (where e.unsubscribed)::int as unsubscribed
      from s left join e on e.send_id = s.id
      group by s.day order by s.day`,
  );
  return rows.map((r) => ({
    date: String(r.date),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    opened: Number(r.opened),
    opened_human: Number(r.opened_human),
    clicked: Number(r.clicked),
    clicked_human: Number(r.clicked_human),
    bounced: Number(r.bounced),
    complained: Number(r.complained),
    unsubscribed: Number(r.unsubscribed),
  }));
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

// ---- A campaign's results (modules/campaigns): its broadcasts' sends and their events ----

export type CampaignSendTotals = {
  sent: number;
  delivered: number;
  opened: number;
  opened_machine: number;
  clicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  replied: number;
  failed: number;
};

/**
 * What happened to the sends of some broadcasts (a campaign's), per broadcast: the same rows and
 * events the send log shows. A send counts once per figure however many events it has; opens by
 * machines (`payload.machine`) count apart and only when no person opened; clicks are people's.
 */
export async function campaignTotals(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  causeIds: string[],
): Promise<(CampaignSendTotals & { cause_id: string })[]> {
  if (causeIds.length === 0) return [];
  const outcome = SEND_OUTCOME_STATUSES[channel];
  const rows = await rowsOf<Record<string, string | number>>(
    db,
    sql`with s as (
        select s.id, s.status, s.cause_id from sends s
        where s.business_id = ${businessId} and s.cause = 'broadcast'
          and s.cause_id in (${sql.join(
            causeIds.map((c) => sql`${c}`),
            sql`, `,
          )})
      ), e as (
        select e.send_id,
          bool_or(e.type in ('opened', 'clicked') and not coalesce((e.payload->>'machine')::boolean, false)) as opened,
          bool_or(e.type = 'opened' and coalesce((e.payload->>'machine')::boolean, false)) as opened_machine,
          bool_or(e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)) as clicked,
          bool_or(e.type = 'unsubscribed') as unsubscribed,
          bool_or(e.type = 'complained') as complained,
          bool_or(e.type = 'replied') as replied
        from send_events e join s on s.id = e.send_id
        group by e.send_id
      )
      select s.cause_id,
        count(*) filter (where s.status not in ('queued', 'sending', 'suppressed', 'cancelled', 'failed'))::int as sent,
        count(*) filter (where ${statusIn(outcome.delivered)})::int as delivered,
        count(*) filter (where e.opened)::int as opened,
        count(*) filter (where e.opened_machine and not coalesce(e.opened, false))::int as opened_machine,
        count(*) filter (where e.clicked)::int as clicked,
        count(*) filter (where s.status = 'bounced')::int as bounced,
        count(*) filter (where s.status = 'complained' or e.complained)::int as complained,
        count(*) filter (where e.unsubscribed)::int as unsubscribed,
        count(*) filter (where e.replied)::int as replied,
        count(*) filter (where s.status in ('failed', 'undelivered'))::int as failed
      from s left join e on e.send_id = s.id
      group by s.cause_id`,
  );
  return rows.map((r) => ({
    cause_id: String(r.cause_id),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    opened: Number(r.opened),
    opened_machine: Number(r.opened_machine),
    clicked: Number(r.clicked),
    bounced: Number(r.bounced),
    complained: Number(r.complained),
    unsubscribed: Number(r.unsubscribed),
    replied: Number(r.replied),
    failed: Number(r.failed),
  }));
}

/** People's clicks on each link of some broadcasts' sends: clicks, and sends that clicked it. */
export async function campaignLinks(
  db: Queryable,
  businessId: number,
  causeIds: string[],
): Promise<{ url: string; clicks: number; unique_clickers: number }[]> {
  if (causeIds.length === 0) return [];
  const rows = await rowsOf<{ url: string; clicks: number; unique_clickers: number }>(
    db,
    sql`select e.payload->>'url' as url, count(*)::int as clicks, count(distinct e.send_id)::int as unique_clickers
      from send_events e join sends s on s.id = e.send_id
      where s.business_id = ${businessId} and s.cause = 'broadcast'
        and s.cause_id in (${sql.join(
          causeIds.map((c) => sql`${c}`),
          sql`, `,
        )})
        and e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)
        and e.payload ? 'url'
      group by 1 order by 2 desc, 1 limit 500`,
  );
  return rows.map((r) => ({
    url: r.url,
    clicks: Number(r.clicks),
    unique_clickers: Number(r.unique_clickers),
  }));
}

/** Per hour: sends recorded, people's opens and clicks (events) of some broadcasts' sends. */
export async function campaignSeries(
  db: Queryable,
  businessId: number,
  causeIds: string[],
): Promise<{ at: string; sent: number; opened: number; clicked: number }[]> {
  if (causeIds.length === 0) return [];
  const rows = await rowsOf<{ at: Date | string; sent: number; opened: number; clicked: number }>(
    db,
    sql`with s as (
        select s.id, s.created_at from sends s
        where s.business_id = ${businessId} and s.cause = 'broadcast'
          and s.cause_id in (${sql.join(
            causeIds.map((c) => sql`${c}`),
            sql`, `,
          )})
          and s.status not in ('suppressed', 'cancelled')
      ), h as (
        select date_trunc('hour', s.created_at) as at, 1 as sent, 0 as opened, 0 as clicked from s
        union all
        select date_trunc('hour', coalesce(e.occurred_at, e.received_at)),
          0, (e.type = 'opened')::int, (e.type = 'clicked')::int
        from send_events e join s on s.id = e.send_id
        where e.type in ('opened', 'clicked') and not coalesce((e.payload->>'machine')::boolean, false)
      )
      select at, sum(sent)::int as sent, sum(opened)::int as opened, sum(clicked)::int as clicked
      from h group by at order by at limit 2000`,
  );
  return rows.map((r) => ({
    at: new Date(r.at).toISOString(),
    sent: Number(r.sent),
    opened: Number(r.opened),
    clicked: Number(r.clicked),
  }));
}

/** Sends recorded under some broadcasts for these customers: each one's send id and status. */
export async function campaignSendsOf(
  db: Queryable,
  businessId: number,
  keys: string[],
): Promise<{ idempotency_key: string; id: string; status: string; recipient: string }[]> {
  if (keys.length === 0) return [];
  return rowsOf(
    db,
    sql`select idempotency_key, id::text, status, recipient from sends
      where business_id = ${businessId} and idempotency_key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )})`,
  );
}

/** A send the customer got: recorded and passed on, not held back, failed or bounced. */
const RECEIVED_EXCLUDED = [
  'queued',
  'sending',
  'suppressed',
  'cancelled',
  'failed',
  'bounced',
  'undelivered',
];

/**
 * The segment builder's campaign behaviour (directory): the customer (its id in `customerId`) got a
 * send of one of the business's campaigns (`campaignId`, else any) — and, for `opened`/`clicked`,
 * a person (not a machine) opened or clicked it (a click is an open too, as the report counts).
 * `since` bounds the send (received) or the event; `also` adds a condition on the send's time (a
 * reply after it). Every table is kept to the business, so another business's sends never match.
 */
export function campaignBehaviourCondition(
  businessId: number,
  customerId: SQL,
  q: {
    event: 'received' | 'opened' | 'clicked';
    campaignId?: string;
    since?: SQL;
    also?: (sentAt: SQL) => SQL;
  },
): SQL {
  const ofCampaign = sql`select b.id::text from ${broadcasts} b where b.business_id = ${businessId} and ${
    q.campaignId ? sql`b.campaign_id = ${q.campaignId}::uuid` : sql`b.campaign_id is not null`
  }`;
  const send = sql`bs.business_id = ${businessId} and bs.customer_id = ${customerId} and bs.cause = 'broadcast'
    and bs.cause_id in (${ofCampaign})
    and bs.status not in (${sql.join(
      RECEIVED_EXCLUDED.map((s) => sql`${s}`),
      sql`, `,
    )})`;
  const also = q.also ? sql` and ${q.also(sql`bs.created_at`)}` : sql``;
  if (q.event === 'received')
    return sql`exists (select 1 from ${sends} bs where ${send}${
      q.since ? sql` and bs.created_at >= ${q.since}` : sql``
    }${also})`;
  const types = q.event === 'opened' ? sql`be.type in ('opened', 'clicked')` : sql`be.type = 'clicked'`;
  return sql`exists (select 1 from ${sends} bs join ${sendEvents} be on be.send_id = bs.id
    where ${send} and be.business_id = ${businessId} and ${types}
      and not coalesce((be.payload->>'machine')::boolean, false)${
        q.since ? sql` and coalesce(be.occurred_at, be.received_at) >= ${q.since}` : sql``
      }${also})`;
}
