// The logs query, one for every channel, with its CSV export. Part of the send spine's repository.
import { and, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { conversations, type SendChannel } from '../../db/schema';
import { SEND_OUTCOME_STATUSES, type TSendOutcome } from '@titan/contracts';
import { type InboxScope, scopeConditions } from '../../platform/inbox-scope';
import { rowsOf } from '../../db/sql';
import { type SendRow, findSend } from './sends.repository';
import { statusIn } from './sends.metrics.repository';

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
