// The inbox's search SQL (issue 29): one statement finds what matches — customers by name, email
// or phone (trigram index customers_search_trgm_idx, ILIKE '%text%'), messages and notes by their
// words (full text, 'simple' configuration, GIN indexes messages_search_idx and
// wa_messages_search_idx; each word matches as a prefix) — within what the viewer may see and the
// list's filters, and answers the count and one page, the page's matches highlighted by
// ts_headline. Reads only: conversations.repository.ts stays the only writer of these tables.
import { and, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { searchTerms, type TConversation, type TConversationFilter } from '@titan/contracts';
import type { Queryable } from '../../../db/client';
import { conversations, customers, messages, messageSearchVector, waMessages } from '../../../db/schema';
import { scopeConditions, type InboxScope } from '../conversations.repository';
import { conversationJsonOf } from '../list';

/** Marks ts_headline puts around a match: private-use characters, removed from the text first. */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

/** The search's words as a tsquery: every word, each as a prefix (`refund:* & ana:*`). */
export function tsQueryText(q: string): string {
  // Terms are letters and digits only, so nothing in them is tsquery syntax.
  return searchTerms(q)
    .map((t) => `${t}:*`)
    .join(' & ');
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The customer-field patterns: the text as typed, and for a phone number its digits alone. */
function customerPatterns(q: string): string[] {
  const text = q.trim();
  const patterns = [`%${escapeLike(text)}%`];
  const digits = text.replace(/\D/g, '');
  if (/^[\d\s+().-]+$/.test(text) && digits.length >= 3 && digits !== text) patterns.push(`%${digits}%`);
  return patterns;
}

/** The list's filters on `conversations` (the SQL twin of list/list.repository.ts listConditions). */
function filterConditions(filter: TConversationFilter): SQL[] {
  const c = conversations;
  const where: SQL[] = [];
  if (filter.status) where.push(eq(c.status, filter.status));
  if (filter.is_read !== undefined) where.push(eq(c.isRead, filter.is_read));
  if (filter.business_replied !== undefined) where.push(eq(c.businessReplied, filter.business_replied));
  if (filter.channel__in?.length) where.push(inArray(c.channel, filter.channel__in));
  if (filter.created_at__gte) where.push(gte(c.createdAt, filter.created_at__gte));
  if (filter.created_at__lte) where.push(lte(c.createdAt, filter.created_at__lte));
  if (filter.last_message_at__gte) where.push(gte(c.lastMessageAt, filter.last_message_at__gte));
  if (filter.last_message_at__lte) where.push(lte(c.lastMessageAt, filter.last_message_at__lte));
  if (filter.assignee === 'none') where.push(isNull(c.assigneeId));
  else if (typeof filter.assignee === 'number') where.push(eq(c.assigneeId, filter.assignee));
  if (filter.assigned_chat_group === 'none') where.push(isNull(c.assignedChatGroupId));
  else if (typeof filter.assigned_chat_group === 'number')
    where.push(eq(c.assignedChatGroupId, filter.assigned_chat_group));
  return where;
}

/**
 * Every match as (kind, conversation_id, msg_id, wa_id, at): 'c' a conversation of a matching
 * customer (at: its last message), 'm' / 'w' a matching message or note (at: when written).
 * A message's business is its conversation's: when the viewer sees the whole business and no
 * filter applies, messages are searched alone — joined to `conversations` for nothing, the planner
 * (which cannot tell how many rows a prefix matches) would hash all of the business's
 * conversations for a word in a few messages.
 */
function hits(scope: InboxScope, filter: TConversationFilter, q: string): SQL {
  const narrowed = scope.groupIds !== null || filterConditions(filter).length > 0;
  const conds = and(...scopeConditions(scope), ...filterConditions(filter));
  const tsq = sql`to_tsquery('simple', ${tsQueryText(q)})`;
  const fields = sql`(coalesce(${customers.name}, '') || ' ' || coalesce(${customers.email}, '') || ' ' || coalesce(${customers.phone}, ''))`;
  const customerMatch = sql.join(
    customerPatterns(q).map((p) => sql`${fields} ilike ${p}`),
    sql` or `,
  );
  const ofConversations = (table: typeof messages | typeof waMessages) =>
    !narrowed
      ? sql`from ${table} where`
      : sql`from ${table} join ${conversations} on ${conversations.id} = ${table.conversationId} where ${conds} and`;
  return sql`select 'c'::text as kind, ${conversations.id} as conversation_id, null::bigint as msg_id,
      null::text as wa_id, ${conversations.lastMessageAt} as at
    from ${customers} join ${conversations} on ${conversations.initiatorId} = ${customers.id}
    where ${customers.businessId} = ${scope.businessId} and (${customerMatch}) and ${conds}
  union all
  select 'm', ${messages.conversationId}, ${messages.id}, null, ${messages.createdAt}
    ${ofConversations(messages)} ${messages.businessId} = ${scope.businessId} and ${messages.messageType} <> 'activity'
      and ${messageSearchVector(messages.content)} @@ ${tsq}
  union all
  select 'w', ${waMessages.conversationId}, null, ${waMessages.id}, ${waMessages.createdAt}
    ${ofConversations(waMessages)} ${waMessages.businessId} = ${scope.businessId} and ${waMessages.messageType} <> 'activity'
      and to_tsvector('simple', ${waMessages.content}) @@ ${tsq}`;
}

const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=30, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`;

/** GET /api/msg/search/: the count of matches and one page of them, newest first, highlighted. */
export function searchStatement(
  scope: InboxScope,
  filter: TConversationFilter,
  q: string,
  limit: number,
  offset: number,
): SQL {
  const tsq = sql`to_tsquery('simple', ${tsQueryText(q)})`;
  const text = sql`translate(coalesce(m.content, w.content), ${MARK_START + MARK_END}, '')`;
  return sql`with hits as (${hits(scope, filter, q)}),
    page as (select * from hits order by at desc nulls last, conversation_id desc, msg_id desc nulls last,
      wa_id desc nulls last limit ${limit} offset ${offset})
    select (select count(*) from hits)::int as total, page.kind, page.conversation_id, page.msg_id::text as msg_id,
      page.wa_id, coalesce(m.content, w.content) as content,
      coalesce(m.message_type, w.message_type) as message_type,
      coalesce(m.sender_type, w.sender_type) as sender_type,
      to_char(coalesce(m.created_at, w.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      case when page.kind = 'c' then null else ts_headline('simple', ${text}, ${tsq}, ${HEADLINE_OPTIONS}) end as headline,
      cu.name as customer_name, cu.email as customer_email, cu.phone as customer_phone,
      ${conversationJsonOf(sql`page.conversation_id`)} as conversation
    from (select 1) as one
    left join page on true
    left join ${conversations} cc on page.kind = 'c' and cc.id = page.conversation_id
    left join ${customers} cu on cu.id = cc.initiator_id
    left join ${messages} m on m.id = page.msg_id
    left join ${waMessages} w on w.business_id = ${scope.businessId} and w.id = page.wa_id
    order by page.at desc nulls last, page.conversation_id desc, page.msg_id desc nulls last, page.wa_id desc nulls last`;
}

/** `q=` on the conversation list: the conversations with a match, by their newest match. */
export function searchConversationsStatement(
  scope: InboxScope,
  filter: TConversationFilter,
  q: string,
  limit: number,
  offset: number,
): SQL {
  return sql`with hits as (${hits(scope, filter, q)}),
    matched as (select conversation_id, max(at) as at from hits group by conversation_id)
    select (select count(*) from matched)::int as total, page.conversation_id
    from (select 1) as one
    left join (select * from matched order by at desc nulls last, conversation_id desc
      limit ${limit} offset ${offset}) as page on true
    order by page.at desc nulls last, page.conversation_id desc`;
}

export type SearchRow = {
  total: number;
  kind: 'c' | 'm' | 'w' | null;
  conversation_id: string | number | null;
  msg_id: string | null;
  wa_id: string | null;
  content: string | null;
  message_type: 'text' | 'file' | 'note' | null;
  sender_type: 'customer' | 'staff' | 'agent' | 'system' | null;
  created_at: string | null;
  headline: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  /** The match's conversation as the API writes it (as the list does); null on the empty row. */
  conversation: TConversation | null;
};

/**
 * Settings the search's statement runs under, each `set local` in the search's own transaction
 * (bench/README.md "inbox-search"; the benchmark's raw SQL runs the same, exported by index.ts):
 * - no parallel workers: the planner cannot tell how many rows a prefix (`word:*`) matches and
 *   estimates a large share of the table for any, so it plans a parallel scan; starting the
 *   workers costs more than the whole search of a rare word (~700 ms against ~40 ms on 2 busy
 *   cores at 10,000,000 messages; a customer's name: 101 ms against 3 ms at 1,000,000);
 * - work_mem 32 MB: the count reads every match's heap page through a bitmap, which at the default
 *   4 MB goes lossy for a common word at 10,000,000 messages, and each row of a lossy page is
 *   parsed again (at 1,000,000 messages with 400 kB, the same proportion: 6–10 s against 0.17 s).
 *   Taken only by what needs it: the bitmap of a common word's matches.
 */
export const SEARCH_SETTINGS: readonly string[] = [
  'set local max_parallel_workers_per_gather = 0',
  "set local work_mem = '32MB'",
];

export async function runSearch<T>(db: Queryable, statement: SQL): Promise<T[]> {
  return db.transaction(async (tx) => {
    for (const setting of SEARCH_SETTINGS) await tx.execute(sql.raw(setting));
    return ((await tx.execute(statement)) as unknown as { rows: T[] }).rows;
  });
}

/** A statement's text and values as PostgreSQL receives them (the benchmark runs them raw). */
export function statementText(statement: SQL): { text: string; values: unknown[] } {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  return { text, values: params };
}
