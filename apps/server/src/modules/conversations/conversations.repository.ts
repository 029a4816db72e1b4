// The only code that writes conversations, messages and wa_messages (the list's SQL: list/).
// WhatsApp stores its messages and their statuses through the module's face, set-based
// (docs/design/database.md).
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableName, inArray, lt, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  LAST_MESSAGE_PREVIEW_MAX,
  type TConversation,
  type TConversationSla,
  type TLabelRef,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { recordset, rowsOf } from '../../db/sql';
import {
  chatGroups,
  conversationLabels,
  conversations,
  customers,
  memberships,
  messages,
  users,
  waMessages,
} from '../../db/schema';
import {
  findUserGroupIds,
  type InboxScope,
  scopeConditions,
} from '../../platform/conversation-conditions.repository';
import { labelsJson } from '../labels';
import { conversationSlaJson } from './sla';

export { findUserGroupIds, type InboxScope, scopeConditions };

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type WaMessageRow = typeof waMessages.$inferSelect;

/**
 * The chat group columns a conversation carries: the full public record (spec section 3). Chat
 * groups hold no sealed fields; business_id and updated_at are not part of the record.
 */
const groupColumns = {
  id: chatGroups.id,
  name: chatGroups.name,
  slug: chatGroups.slug,
  greeting: chatGroups.greeting,
  color: chatGroups.color,
  launcherPosition: chatGroups.launcherPosition,
  visitorForm: chatGroups.visitorForm,
  allowedOrigins: chatGroups.allowedOrigins,
  createdAt: chatGroups.createdAt,
};

const qualifiedColumn = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * The conversation's newest customer or team message as the list's preview (TConversation
 * last_message_preview): notes and activity lines never count. One backward probe of the
 * conversation's message index (messages by id, wa_messages by position) per row.
 */
export function lastMessagePreviewJson(
  id: AnyPgColumn,
  channel: AnyPgColumn,
): SQL<TConversation['last_message_preview']> {
  const preview = (table: string, order: string) =>
    sql`(select json_build_object('sender_type', m.sender_type, 'message_type', m.message_type,
      'content', left(m.content, ${sql.raw(String(LAST_MESSAGE_PREVIEW_MAX))}))
      from ${sql.identifier(table)} m
      where m.conversation_id = ${qualifiedColumn(id)} and m.message_type in ('text', 'file')
      order by m.${sql.identifier(order)} desc limit 1)`;
  return sql`case when ${qualifiedColumn(channel)} = 'whatsapp' then ${preview('wa_messages', 'position')}
    else ${preview('messages', 'id')} end`;
}

const enrichedColumns = {
  conversation: conversations,
  initiator: { id: customers.id, name: customers.name, email: customers.email },
  group: groupColumns,
  assignee: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
  labels: labelsJson('conversation', conversations.id),
  lastMessagePreview: lastMessagePreviewJson(conversations.id, conversations.channel),
  sla: conversationSlaJson(),
};

export type AssigneeRow = { id: number; firstName: string; lastName: string; email: string };

export type ConversationGroupRow = Pick<typeof chatGroups.$inferSelect, keyof typeof groupColumns>;

export type EnrichedConversationRow = {
  conversation: ConversationRow;
  initiator: { id: number; name: string | null; email: string | null } | null;
  group: ConversationGroupRow | null;
  assignee: AssigneeRow | null;
  labels: TLabelRef[];
  lastMessagePreview: TConversation['last_message_preview'];
  sla: TConversationSla;
};

export async function findConversation(
  db: Queryable,
  scope: InboxScope,
  id: number,
): Promise<EnrichedConversationRow | null> {
  const [row] = await db
    .select(enrichedColumns)
    .from(conversations)
    .leftJoin(customers, eq(customers.id, conversations.initiatorId))
    .leftJoin(chatGroups, eq(chatGroups.id, conversations.assignedChatGroupId))
    .leftJoin(users, eq(users.id, conversations.assigneeId))
    .where(and(...scopeConditions(scope), eq(conversations.id, id)))
    .limit(1);
  return row ?? null;
}

/** For the change feed: a conversation by id alone; the caller checks the business. */
export async function findConversationById(
  db: Queryable,
  id: number,
): Promise<EnrichedConversationRow | null> {
  const [row] = await db
    .select(enrichedColumns)
    .from(conversations)
    .leftJoin(customers, eq(customers.id, conversations.initiatorId))
    .leftJoin(chatGroups, eq(chatGroups.id, conversations.assignedChatGroupId))
    .leftJoin(users, eq(users.id, conversations.assigneeId))
    .where(eq(conversations.id, id))
    .limit(1);
  return row ?? null;
}

export async function updateConversation(
  db: Queryable,
  businessId: number,
  id: number,
  patch: Partial<typeof conversations.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(conversations.businessId, businessId), eq(conversations.id, id)))
    .returning({ id: conversations.id });
  return rows.length === 1;
}

/** A message's mark on its conversation: the conversation and when the message was written. */
export type MessageArrival = {
  businessId: number;
  conversationId: number;
  at: Date;
  /** Email: whether the mail scored as spam; the conversation takes its latest mail's mark. */
  spam?: boolean;
};

/**
 * What new messages do to their conversations, one statement for the whole set (a conversation
 * named twice takes its latest time). Inbound: open again, unread, awaiting a reply. Outbound:
 * replied and read. Either way last_message_at moves forward, never back (a late redelivery keeps
 * the newer time).
 */
export async function applyMessageArrivals(
  db: Queryable,
  direction: 'inbound' | 'outbound',
  arrivals: MessageArrival[],
): Promise<{ answered: AnsweredConversation[]; reopened: ReopenedConversation[] }> {
  if (arrivals.length === 0) return { answered: [], reopened: [] };
  // Inbound: the customer waits for an answer since their first message after the business last
  // answered (a resolved conversation written to again starts afresh). Outbound: answered.
  const state =
    direction === 'inbound'
      ? // A snoozed conversation wakes when the customer writes.
        sql`status = 'active', snoozed_until = null, is_read = false, business_replied = false,
          awaiting_reply_since = case when c.status = 'resolved' or c.awaiting_reply_since is null
            then v.first_at else least(c.awaiting_reply_since, v.first_at) end`
      : sql`is_read = true, business_replied = true, awaiting_reply_since = null`;
  const values = JSON.stringify(
    arrivals.map((a) => ({
      business_id: a.businessId,
      id: a.conversationId,
      at: a.at.toISOString(),
      spam: a.spam ?? null,
    })),
  );
  // SET reads the row being updated (its latest version); `o`, the row as this statement's snapshot
  // saw it, tells the outbound side whom it answered (two replies racing may both say so: a wait
  // ends once whatever the number of events).
  const rows = await rowsOf<{
    id: string | number;
    business_id: string | number;
    initiator_id: string | number | null;
    channel: ConversationRow['channel'];
    waited_since: string | Date | null;
    was_status: ConversationRow['status'];
    at: string | Date;
  }>(
    db,
    sql`update conversations c set ${state},
      last_message_at = greatest(c.last_message_at, v.at),
      spam = coalesce(v.spam, c.spam),
      updated_at = now()
    from (select business_id, id, max(at) as at, min(at) as first_at,
        (array_agg(spam order by at desc) filter (where spam is not null))[1] as spam
      from jsonb_to_recordset(${values}::jsonb) as r(business_id bigint, id bigint, at timestamptz, spam boolean)
      group by business_id, id) v, conversations o
    where c.id = v.id and c.business_id = v.business_id and o.id = c.id
    returning c.id, c.business_id, c.initiator_id, c.channel, o.awaiting_reply_since as waited_since,
      o.status as was_status, v.at`,
  );
  if (direction === 'inbound')
    return {
      answered: [],
      // A resolved conversation the customer wrote to again is open again.
      reopened: rows
        .filter((r) => r.was_status === 'resolved' && r.initiator_id !== null)
        .map((r) => ({
          businessId: Number(r.business_id),
          conversationId: Number(r.id),
          customerId: Number(r.initiator_id),
          channel: r.channel,
          at: new Date(r.at),
        })),
    };
  const answered = rows
    .filter((r) => r.waited_since !== null && r.initiator_id !== null)
    .map((r) => ({
      businessId: Number(r.business_id),
      conversationId: Number(r.id),
      customerId: Number(r.initiator_id),
      channel: r.channel,
      waitedSince: new Date(r.waited_since!),
      at: new Date(r.at),
    }));
  return { answered, reopened: [] };
}

/** A resolved conversation its customer wrote to again. */
export type ReopenedConversation = Omit<AnsweredConversation, 'waitedSince'>;

/** A conversation whose customer was waiting for an answer and just got one. */
export type AnsweredConversation = {
  businessId: number;
  conversationId: number;
  customerId: number;
  channel: ConversationRow['channel'];
  waitedSince: Date;
  at: Date;
};

/**
 * A page (id order, after `afterId`) of the business's active conversations whose customer has
 * waited for an answer since `from` or later and no later than `cutoff`.
 */
export async function findAwaitingReply(
  db: Queryable,
  input: { businessId: number; from: Date; cutoff: Date; afterId: number; limit: number },
): Promise<{ id: number; customerId: number; channel: ConversationRow['channel']; waitingSince: Date }[]> {
  const rows = await rowsOf<{
    id: string | number;
    initiator_id: string | number;
    channel: ConversationRow['channel'];
    awaiting_reply_since: string | Date;
  }>(
    db,
    sql`select id, initiator_id, channel, awaiting_reply_since from conversations
      where business_id = ${input.businessId} and awaiting_reply_since is not null
        and awaiting_reply_since >= ${input.from} and awaiting_reply_since <= ${input.cutoff}
        and status = 'active' and initiator_id is not null and id > ${input.afterId}
      order by id limit ${input.limit}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    customerId: Number(r.initiator_id),
    channel: r.channel,
    waitingSince: new Date(r.awaiting_reply_since),
  }));
}

export async function insertConversation(db: Queryable, values: typeof conversations.$inferInsert) {
  const [row] = await db.insert(conversations).values(values).returning();
  return row!;
}

/**
 * Each customer's newest conversation on a channel (where their thread continues), by customer id,
 * for a whole set of customers in one statement.
 */
export async function findLatestConversationsOf(
  db: Queryable,
  channel: ConversationRow['channel'],
  customers: { businessId: number; customerId: number }[],
): Promise<Map<number, number>> {
  if (customers.length === 0) return new Map();
  const rows = await rowsOf<{ initiator_id: string | number; id: string | number }>(
    db,
    sql`select distinct on (c.initiator_id) c.initiator_id, c.id
      from jsonb_to_recordset(${recordset(
        customers.map((k) => ({ business_id: k.businessId, customer_id: k.customerId })),
      )}) as k(business_id bigint, customer_id bigint)
      join conversations c
        on c.initiator_id = k.customer_id and c.business_id = k.business_id and c.channel = ${channel}
      order by c.initiator_id, c.id desc`,
  );
  return new Map(rows.map((r) => [Number(r.initiator_id), Number(r.id)]));
}

/**
 * New conversations customers opened by writing, in one statement, written in their final state
 * (active, unread, not replied, last message set). Answers their ids by customer id.
 */
export async function insertOpenedConversations(
  db: Queryable,
  channel: ConversationRow['channel'],
  values: { businessId: number; initiatorId: number; title: string; lastMessageAt: Date }[],
): Promise<Map<number, number>> {
  if (values.length === 0) return new Map();
  const rows = await rowsOf<{ initiator_id: string | number; id: string | number }>(
    db,
    sql`insert into conversations
        (business_id, channel, initiator_id, title, status, is_read, business_replied, last_message_at,
         awaiting_reply_since)
      select business_id, ${channel}, initiator_id, title, 'active', false, false, last_message_at, last_message_at
      from jsonb_to_recordset(${recordset(
        values.map((v) => ({
          business_id: v.businessId,
          initiator_id: v.initiatorId,
          title: v.title,
          last_message_at: v.lastMessageAt.toISOString(),
        })),
      )}) as v(business_id bigint, initiator_id bigint, title text, last_message_at timestamptz)
      order by initiator_id
      returning id, initiator_id`,
  );
  return new Map(rows.map((r) => [Number(r.initiator_id), Number(r.id)]));
}

/**
 * Undoes a conversation opened for a first message that its provider refused: deleted only while
 * it holds no WhatsApp message. Answers whether it was deleted.
 */
export async function deleteConversationIfEmpty(
  db: Queryable,
  businessId: number,
  conversationId: number,
): Promise<boolean> {
  const deleted = await db
    .delete(conversations)
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.id, conversationId),
        sql`not exists (select 1 from wa_messages m where m.conversation_id = ${conversations.id})`,
      ),
    )
    .returning({ id: conversations.id });
  return deleted.length === 1;
}

export async function insertMessage(
  db: Queryable,
  values: typeof messages.$inferInsert,
): Promise<MessageRow> {
  const [row] = await db.insert(messages).values(values).returning();
  return row!;
}

export async function insertWaMessage(
  db: Queryable,
  values: typeof waMessages.$inferInsert,
): Promise<WaMessageRow> {
  const [row] = await db.insert(waMessages).values(values).returning();
  return row!;
}

/** A WhatsApp message stored once: false when its business already holds the wamid. */
export async function insertWaMessageOnce(
  db: Queryable,
  values: typeof waMessages.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(waMessages)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: waMessages.id });
  return rows.length === 1;
}

export type InboundWaMessageValues = {
  id: string;
  businessId: number;
  conversationId: number;
  content: string;
  /** 'file' for the media kinds (image, video, audio, document, sticker). */
  messageType: 'text' | 'file';
  senderId: number;
  metaData: Record<string, unknown>;
  timestamp: number | null;
  createdAt: Date;
};

/**
 * Customers' WhatsApp messages in delivery order, in one statement; a wamid its business already
 * stored is skipped. Answers those stored, by business and wamid.
 */
export async function insertInboundWaMessages(
  db: Queryable,
  values: InboundWaMessageValues[],
): Promise<{ businessId: number; id: string }[]> {
  if (values.length === 0) return [];
  const rows = await rowsOf<{ business_id: string | number; id: string }>(
    db,
    sql`insert into wa_messages
        (id, business_id, conversation_id, content, message_type, sender_type, sender_id, meta_data, timestamp,
         created_at)
      select id, business_id, conversation_id, content, message_type, 'customer', sender_id, meta_data, ts,
        created_at
      from jsonb_to_recordset(${recordset(
        values.map((v, n) => ({
          n,
          id: v.id,
          business_id: v.businessId,
          conversation_id: v.conversationId,
          content: v.content,
          message_type: v.messageType,
          sender_id: v.senderId,
          meta_data: v.metaData,
          ts: v.timestamp,
          created_at: v.createdAt.toISOString(),
        })),
      )}) as v(n int, id text, business_id bigint, conversation_id bigint, content text, message_type text,
               sender_id bigint, meta_data jsonb, ts integer, created_at timestamptz)
      order by n
      on conflict (business_id, id) do nothing
      returning business_id, id`,
  );
  return rows.map((r) => ({ businessId: Number(r.business_id), id: r.id }));
}

const RANK = (status: SQL) =>
  sql`(case ${status} when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)`;

/**
 * The strongest status each (business, wamid) was reported, onto that business's WhatsApp message:
 * accepted < sent < delivered < read, failed terminal (its errors kept); never lowered. One
 * statement for the whole set, rows locked in (business, wamid) order.
 */
export async function applyWaMessageStatuses(
  db: Queryable,
  best: { businessId: number; messageId: string; status: string; payload: Record<string, unknown> }[],
): Promise<void> {
  if (best.length === 0) return;
  const values = recordset(
    [...best]
      .sort(
        (a, b) =>
          a.businessId - b.businessId || (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0),
      )
      .map((b) => ({ business_id: b.businessId, id: b.messageId, status: b.status, payload: b.payload })),
  );
  await db.execute(sql`select 1 from wa_messages m
    join jsonb_to_recordset(${values}) as b(business_id bigint, id text) on m.business_id = b.business_id and m.id = b.id
    order by m.business_id, m.id for update of m`);
  await db.execute(sql`
    update wa_messages m set status = b.status,
      meta_data = case when b.status = 'failed'
        then m.meta_data || jsonb_build_object('errors', b.payload->'errors') else m.meta_data end
    from jsonb_to_recordset(${values}) as b(business_id bigint, id text, status text, payload jsonb)
    where m.business_id = b.business_id and m.id = b.id
      and (m.status is distinct from b.status)
      and coalesce(m.status, '') <> 'failed'
      and ${RANK(sql`b.status`)} > ${RANK(sql`coalesce(m.status, '')`)}`);
}

/** Message types staff alone see (notes, activity lines). */
const INTERNAL_TYPES = ['note', 'activity'] as const;

/**
 * The newest `limit` messages before `beforeId` (exclusive), newest first; with `internal` false
 * (a visitor's view) notes and activity lines are left out.
 */
export async function listMessages(
  db: Db,
  conversationId: number,
  limit: number,
  beforeId?: number,
  internal = false,
) {
  return db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        beforeId ? lt(messages.id, beforeId) : undefined,
        internal ? undefined : notInArray(messages.messageType, [...INTERNAL_TYPES]),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit);
}

export async function listWaMessages(
  db: Db,
  conversationId: number,
  limit: number,
  beforePosition?: number,
  internal = false,
) {
  return db
    .select()
    .from(waMessages)
    .where(
      and(
        eq(waMessages.conversationId, conversationId),
        beforePosition ? lt(waMessages.position, beforePosition) : undefined,
        internal ? undefined : notInArray(waMessages.messageType, [...INTERNAL_TYPES]),
      ),
    )
    .orderBy(desc(waMessages.position))
    .limit(limit);
}

/** Several messages by id (missing ids left out). */
export async function findMessagesByIds(db: Queryable, ids: readonly number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(messages)
    .where(sql`${messages.id} = any(${sql.param([...ids])}::bigint[])`);
}

/** Several WhatsApp messages of one business by wamid (missing ones left out). */
export async function findWaMessagesByIds(
  db: Queryable,
  businessId: number,
  ids: readonly string[],
): Promise<WaMessageRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(waMessages)
    .where(and(eq(waMessages.businessId, businessId), inArray(waMessages.id, [...ids])));
}

/** A WhatsApp message by its wamid, which is unique within a business only. */
export async function findWaMessage(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<WaMessageRow | null> {
  const [row] = await db
    .select()
    .from(waMessages)
    .where(and(eq(waMessages.businessId, businessId), eq(waMessages.id, id)))
    .limit(1);
  return row ?? null;
}

/** Marks the customer's messages read when staff read the conversation. */
export async function markCustomerMessagesRead(db: Queryable, conversationId: number) {
  await db
    .update(messages)
    .set({ isRead: true })
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.senderType, 'customer'),
        eq(messages.isRead, false),
      ),
    );
}

/** Staff senders: name, email and their role in the business. */
export async function findStaffSenders(db: Queryable, businessId: number, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: memberships.role,
    })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.businessId, businessId)))
    .where(inArray(users.id, userIds));
}

/** The chat groups a user belongs to in a business. */

/** The newest conversation of a customer on a channel (WhatsApp threads continue in it). */
export async function findLatestConversationOf(
  db: Queryable,
  businessId: number,
  channel: ConversationRow['channel'],
  initiatorId: number,
) {
  const [row] = await db
    .select({
      id: conversations.id,
      status: conversations.status,
      lastMessageAt: conversations.lastMessageAt,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.channel, channel),
        eq(conversations.initiatorId, initiatorId),
      ),
    )
    .orderBy(desc(conversations.id))
    .limit(1);
  return row ?? null;
}

/** A page of the conversations a customer started that the viewer may see, latest activity first. */
export async function listCustomerConversations(
  db: Queryable,
  scope: InboxScope,
  customerId: number,
  limit: number,
  offset: number,
): Promise<{ rows: ConversationRow[]; count: number }> {
  const where = and(eq(conversations.initiatorId, customerId), ...scopeConditions(scope));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(conversations)
      .where(where)
      .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(conversations)
      .where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Customers with an open conversation the business never answered, and those conversations. */
export async function countUnanswered(
  db: Queryable,
  businessId: number,
): Promise<{ conversations: number; customers: number }> {
  const [row] = await db
    .select({
      conversations: sql<number>`count(*)::int`,
      customers: sql<number>`count(distinct ${conversations.initiatorId})::int`,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.status, 'active'),
        eq(conversations.businessReplied, false),
      ),
    );
  return { conversations: row?.conversations ?? 0, customers: row?.customers ?? 0 };
}

/**
 * The dashboard's conversations (GET /api/metrics/engage/): opened per day (in the business's time zone) in a range, those
 * still unanswered (active, never replied to), and the median time to the first staff or agent
 * reply (own-channel and WhatsApp messages), in seconds.
 */
export async function conversationMetrics(
  db: Queryable,
  businessId: number,
  range: { from: Date; to: Date },
  timeZone = 'UTC',
): Promise<{
  days: { date: string; opened: number; unanswered: number }[];
  medianFirstResponseSeconds: number | null;
  answered: number;
}> {
  const within = sql`c.business_id = ${businessId} and c.created_at >= ${range.from.toISOString()}::timestamptz
    and c.created_at <= ${range.to.toISOString()}::timestamptz`;
  const days = (await db.execute(
    sql`select to_char(c.created_at at time zone ${timeZone}, 'YYYY-MM-DD') as date, count(*)::int as opened,
        count(*) filter (where c.status = 'active' and not c.business_replied)::int as unanswered
      from conversations c where ${within} group by 1 order by 1`,
  )) as unknown as { rows: { date: string; opened: number; unanswered: number }[] };
  const median = (await db.execute(
    sql`with firsts as (
        select c.created_at, least(
          (select min(m.created_at) from messages m where m.conversation_id = c.id and m.sender_type in ('staff', 'agent')
            and m.message_type not in ('note', 'activity')),
          (select min(w.created_at) from wa_messages w where w.conversation_id = c.id and w.sender_type in ('staff', 'agent')
            and w.message_type not in ('note', 'activity'))
        ) as replied_at
        from conversations c where ${within}
      )
      select (percentile_cont(0.5) within group (order by extract(epoch from (replied_at - created_at))))::float8 as median,
        count(replied_at)::int as answered
      from firsts where replied_at is not null`,
  )) as unknown as { rows: { median: number | null; answered: number }[] };
  const row = median.rows[0];
  return {
    days: days.rows,
    medianFirstResponseSeconds:
      row?.median === null || row?.median === undefined ? null : Math.round(row.median),
    answered: row?.answered ?? 0,
  };
}

/** Conversations of these ids the scope's viewer may see, locked for an update in this transaction. */
export async function lockVisibleConversations(
  db: Queryable,
  scope: InboxScope,
  ids: number[],
): Promise<ConversationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(conversations)
    .where(and(...scopeConditions(scope), inArray(conversations.id, ids)))
    .orderBy(conversations.id)
    .for('update');
}

/** One change to many conversations of a business; answers the ids it changed. */
export async function updateConversations(
  db: Queryable,
  businessId: number,
  ids: number[],
  patch: Partial<typeof conversations.$inferInsert>,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(conversations)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(conversations.businessId, businessId), inArray(conversations.id, ids)))
    .returning({ id: conversations.id });
  return rows.map((r) => r.id);
}

/** A member of the business (any role): who may be assigned its conversations. */
export async function findMember(
  db: Queryable,
  businessId: number,
  userId: number,
): Promise<(AssigneeRow & { role: 'owner' | 'admin' | 'agent' }) | null> {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * A line staff alone see in a conversation (a note, an activity line), in the table of its
 * channel: WhatsApp conversations keep theirs in wa_messages under an id no wamid can take.
 */
export async function insertInternalMessage(
  db: Queryable,
  conversation: Pick<ConversationRow, 'id' | 'businessId' | 'channel'>,
  values: InternalMessageValues,
): Promise<MessageRow | WaMessageRow> {
  if (conversation.channel === 'whatsapp') return insertWaMessage(db, internalWaRow(conversation, values));
  return insertMessage(db, internalRow(conversation, values));
}

type InternalMessageValues = {
  messageType: 'note' | 'activity';
  senderType: 'staff' | 'system' | 'agent';
  senderId: number | null;
  content: string;
  metaData: Record<string, unknown>;
};

/** An internal line's row: read by staff as written, never sent. */
const internalRow = (
  conversation: Pick<ConversationRow, 'id' | 'businessId'>,
  values: InternalMessageValues,
) => ({
  businessId: conversation.businessId,
  conversationId: conversation.id,
  isRead: true,
  status: null,
  ...values,
});

/** A WhatsApp conversation's internal line: its own id, as Meta gives none. */
const internalWaRow = (
  conversation: Pick<ConversationRow, 'id' | 'businessId'>,
  values: InternalMessageValues,
) => ({ ...internalRow(conversation, values), id: `titan-${values.messageType}-${randomUUID()}` });

/**
 * The views' counts within what the scope may see: all, the caller's, unassigned, per assignee
 * and per chat group (null: no group) in one statement over the conversations index; per label in
 * a second, run beside it.
 */
export async function countViews(
  db: Queryable,
  scope: InboxScope,
  userId: number | null,
  status: 'active' | 'resolved' | 'snoozed' | undefined,
): Promise<{
  all: number;
  mine: number;
  unassigned: number;
  assignees: { id: number; count: number }[];
  groups: { id: number | null; count: number }[];
  labels: { id: number; count: number }[];
}> {
  const where = and(...scopeConditions(scope), status ? eq(conversations.status, status) : undefined);
  const c = conversations;
  const x = conversationLabels;
  const [result, byLabel] = await Promise.all([
    db.execute(sql`select grouping(${c.assigneeId}) as by_group,
      ${c.assigneeId} as assignee, ${c.assignedChatGroupId} as grp, count(*)::int as n
    from ${c} where ${where}
    group by grouping sets ((${c.assigneeId}), (${c.assignedChatGroupId}))`) as unknown as Promise<{
      rows: { by_group: number; assignee: string | number | null; grp: string | number | null; n: number }[];
    }>,
    // Per label, over the same conversations (a conversation with two labels counts under both).
    db.execute(sql`select ${x.labelId} as label, count(*)::int as n
      from ${x} join ${c} on ${c.id} = ${x.conversationId}
      where ${where} group by ${x.labelId}`) as unknown as Promise<{
      rows: { label: string | number; n: number }[];
    }>,
  ]);
  const id = (v: string | number | null) => (v === null ? null : Number(v));
  const counts = {
    all: 0,
    mine: 0,
    unassigned: 0,
    assignees: [] as { id: number; count: number }[],
    groups: [] as { id: number | null; count: number }[],
    labels: byLabel.rows.map((r) => ({ id: Number(r.label), count: Number(r.n) })),
  };
  for (const r of result.rows) {
    const n = Number(r.n);
    if (Number(r.by_group) === 1) {
      counts.groups.push({ id: id(r.grp), count: n });
      continue;
    }
    // The assignee set lists every conversation once: its rows sum to all.
    counts.all += n;
    const assignee = id(r.assignee);
    if (assignee === null) counts.unassigned = n;
    else {
      counts.assignees.push({ id: assignee, count: n });
      if (assignee === userId) counts.mine = n;
    }
  }
  return counts;
}

/**
 * Snoozed conversations whose time has come, woken (status active) and returned, at most `limit`.
 * Claimed with SKIP LOCKED and re-checked in the update: two instances running the wake-up at once
 * wake each conversation once (a conversation the customer woke meanwhile is not touched).
 */
export async function wakeDueSnoozes(db: Queryable, now: Date, limit: number): Promise<ConversationRow[]> {
  const due = db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.status, 'snoozed'), lte(conversations.snoozedUntil, now)))
    .orderBy(conversations.snoozedUntil)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(conversations)
    .set({ status: 'active', snoozedUntil: null, updatedAt: now })
    .where(and(inArray(conversations.id, due), eq(conversations.status, 'snoozed')))
    .returning();
}

/**
 * Conversations by id within what the scope may see (search's page; null: any, for the change
 * feed's listeners), in no particular order.
 */
export async function findConversationsByIds(
  db: Queryable,
  scope: InboxScope | null,
  ids: number[],
): Promise<EnrichedConversationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(enrichedColumns)
    .from(conversations)
    .leftJoin(customers, eq(customers.id, conversations.initiatorId))
    .leftJoin(chatGroups, eq(chatGroups.id, conversations.assignedChatGroupId))
    .leftJoin(users, eq(users.id, conversations.assigneeId))
    .where(
      and(
        ...(scope ? scopeConditions(scope) : []),
        sql`${conversations.id} = any(${sql.param(ids)}::bigint[])`,
      ),
    );
}

/** What a listener of the feed needs of a conversation to tell who hears of it (no labels, SLA…). */
export type ConversationHeadRow = {
  id: number;
  businessId: number;
  title: string;
  assignedChatGroupId: number | null;
  assignee: AssigneeRow | null;
  initiatorName: string | null;
  initiatorId: number | null;
};

/**
 * Conversations by id, their head only (title, group, assignee and initiator with their names): one
 * plain statement where findConversationsByIds also builds each row's labels, preview and SLA.
 */
export async function findConversationHeads(
  db: Queryable,
  ids: readonly number[],
): Promise<ConversationHeadRow[]> {
  if (ids.length === 0) return [];
  const rows = await rowsOf<{
    id: number;
    business_id: number;
    title: string;
    assigned_chat_group_id: number | null;
    assignee_id: number | null;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    initiator_id: number | null;
    initiator_name: string | null;
  }>(
    db,
    sql`select c.id::float8 as id, c.business_id::float8 as business_id, c.title,
        c.assigned_chat_group_id::float8 as assigned_chat_group_id, u.id::float8 as assignee_id,
        u.first_name, u.last_name, u.email, cu.id::float8 as initiator_id, cu.name as initiator_name
      from conversations c
      left join users u on u.id = c.assignee_id
      left join customers cu on cu.id = c.initiator_id
      where c.id = any(${sql.param([...ids])}::bigint[])`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    businessId: Number(r.business_id),
    title: r.title,
    assignedChatGroupId: r.assigned_chat_group_id === null ? null : Number(r.assigned_chat_group_id),
    assignee:
      r.assignee_id === null
        ? null
        : { id: Number(r.assignee_id), firstName: r.first_name!, lastName: r.last_name!, email: r.email! },
    initiatorId: r.initiator_id === null ? null : Number(r.initiator_id),
    initiatorName: r.initiator_name,
  }));
}

/** The staff message of a send (meta_data.send_id) marked failed with the reason. */
export async function markSendMessageFailed(
  db: Queryable,
  businessId: number,
  conversationId: number,
  sendId: string,
  reason: string,
): Promise<void> {
  await db
    .update(messages)
    .set({
      status: 'failed',
      metaData: sql`${messages.metaData} || ${JSON.stringify({ error: reason })}::jsonb`,
    })
    .where(
      and(
        eq(messages.businessId, businessId),
        eq(messages.conversationId, conversationId),
        sql`${messages.metaData} ->> 'send_id' = ${sendId}`,
      ),
    );
}

/** The message that shows a send (its meta_data.send_id), in one conversation of the business. */
export async function findMessageOfSend(
  db: Queryable,
  businessId: number,
  conversationId: number,
  sendId: string,
): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.businessId, businessId),
        eq(messages.conversationId, conversationId),
        sql`${messages.metaData} ->> 'send_id' = ${sendId}`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The email conversation holding a message with one of these Message-IDs (the newest such message's). */
export async function findConversationOfMessageIds(
  db: Queryable,
  businessId: number,
  messageIds: string[],
): Promise<number | null> {
  if (messageIds.length === 0) return null;
  const [row] = await db
    .select({ id: messages.conversationId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(messages.businessId, businessId),
        sql`(${messages.metaData} ->> 'message_id') is not null`,
        inArray(sql`(${messages.metaData} ->> 'message_id')`, messageIds),
        eq(conversations.channel, 'email'),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return row?.id ?? null;
}

/** A customer's email conversation with this title and a message since `since`, newest first. */
export async function findRecentConversationByTitle(
  db: Queryable,
  businessId: number,
  channel: ConversationRow['channel'],
  customerId: number,
  title: string,
  since: Date,
): Promise<number | null> {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.channel, channel),
        eq(conversations.initiatorId, customerId),
        sql`lower(${conversations.title}) = ${title.toLowerCase()}`,
        sql`${conversations.lastMessageAt} >= ${since.toISOString()}`,
      ),
    )
    .orderBy(desc(conversations.id))
    .limit(1);
  return row?.id ?? null;
}

/** The newest messages of a conversation that are not internal (a reply's thread), newest first. */
export async function listThreadMessages(db: Queryable, conversationId: number, limit: number) {
  return db
    .select({ senderType: messages.senderType, metaData: messages.metaData })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), sql`${messages.messageType} in ('text', 'file')`))
    .orderBy(desc(messages.id))
    .limit(limit);
}

/**
 * Erase (GDPR art. 17): the conversations a customer started, with their messages (web and
 * WhatsApp; notifications go with them); answers the stored file keys their messages held.
 */
export async function deleteCustomerConversations(
  db: Queryable,
  businessId: number,
  customerId: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.businessId, businessId), eq(conversations.initiatorId, customerId)));
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  // A file message keeps its stored object's key in meta_data.key.
  const files = await db
    .select({ key: sql<string>`${messages.metaData}->>'key'` })
    .from(messages)
    .where(and(inArray(messages.conversationId, ids), sql`${messages.metaData} ? 'key'`));
  await db.delete(messages).where(inArray(messages.conversationId, ids));
  await db.delete(waMessages).where(inArray(waMessages.conversationId, ids));
  await db.delete(conversations).where(inArray(conversations.id, ids));
  return files.map((r) => r.key).filter(Boolean);
}

/** Export (GDPR art. 15): the conversations a customer started and every message in them. */
export async function customerConversationsWithMessages(
  db: Queryable,
  businessId: number,
  customerId: number,
): Promise<{ conversation: Record<string, unknown>; messages: Record<string, unknown>[] }[]> {
  const rows = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.businessId, businessId), eq(conversations.initiatorId, customerId)))
    .orderBy(asc(conversations.id));
  const out = [];
  for (const c of rows) {
    const [web, wa] = await Promise.all([
      db.select().from(messages).where(eq(messages.conversationId, c.id)).orderBy(asc(messages.id)),
      db
        .select()
        .from(waMessages)
        .where(eq(waMessages.conversationId, c.id))
        .orderBy(asc(waMessages.position)),
    ]);
    out.push({
      conversation: c as Record<string, unknown>,
      messages: [...web, ...wa] as Record<string, unknown>[],
    });
  }
  return out;
}
