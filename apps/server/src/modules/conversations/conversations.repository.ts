// The only code that touches conversations, messages and wa_messages (the list's SQL: list/).
import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import {
  chatGroupMembers,
  chatGroups,
  conversations,
  customers,
  memberships,
  messages,
  users,
  waMessages,
} from '../../db/schema';

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

const enrichedColumns = {
  conversation: conversations,
  initiator: { id: customers.id, name: customers.name, email: customers.email },
  group: groupColumns,
};

export type ConversationGroupRow = Omit<typeof chatGroups.$inferSelect, 'businessId' | 'updatedAt'>;

export type EnrichedConversationRow = {
  conversation: ConversationRow;
  initiator: { id: number; name: string | null; email: string | null } | null;
  group: ConversationGroupRow | null;
};

/**
 * What one viewer may see: a whole business, or (agents) the conversations of their chat groups
 * plus those assigned to no group.
 */
export type InboxScope = { businessId: number; groupIds: number[] | null };

/** The conditions on `conversations` that keep a statement to what the scope's viewer may see. */
export function scopeConditions(scope: InboxScope): SQL[] {
  const where: SQL[] = [eq(conversations.businessId, scope.businessId)];
  if (scope.groupIds !== null) {
    where.push(
      scope.groupIds.length > 0
        ? or(
            isNull(conversations.assignedChatGroupId),
            inArray(conversations.assignedChatGroupId, scope.groupIds),
          )!
        : isNull(conversations.assignedChatGroupId),
    );
  }
  return where;
}

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
export type MessageArrival = { businessId: number; conversationId: number; at: Date };

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
): Promise<void> {
  if (arrivals.length === 0) return;
  const state =
    direction === 'inbound'
      ? sql`status = 'active', is_read = false, business_replied = false`
      : sql`is_read = true, business_replied = true`;
  const values = JSON.stringify(
    arrivals.map((a) => ({ business_id: a.businessId, id: a.conversationId, at: a.at.toISOString() })),
  );
  await db.execute(sql`update conversations c set ${state},
      last_message_at = greatest(c.last_message_at, v.at),
      updated_at = now()
    from (select business_id, id, max(at) as at
      from jsonb_to_recordset(${values}::jsonb) as r(business_id bigint, id bigint, at timestamptz)
      group by business_id, id) v
    where c.id = v.id and c.business_id = v.business_id`);
}

export async function insertConversation(db: Queryable, values: typeof conversations.$inferInsert) {
  const [row] = await db.insert(conversations).values(values).returning();
  return row!;
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

/** The newest `limit` messages before `beforeId` (exclusive), newest first. */
export async function listMessages(db: Db, conversationId: number, limit: number, beforeId?: number) {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), beforeId ? lt(messages.id, beforeId) : undefined))
    .orderBy(desc(messages.id))
    .limit(limit);
}

export async function listWaMessages(db: Db, conversationId: number, limit: number, beforePosition?: number) {
  return db
    .select()
    .from(waMessages)
    .where(
      and(
        eq(waMessages.conversationId, conversationId),
        beforePosition ? lt(waMessages.position, beforePosition) : undefined,
      ),
    )
    .orderBy(desc(waMessages.position))
    .limit(limit);
}

export async function findMessage(db: Queryable, id: number): Promise<MessageRow | null> {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row ?? null;
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
export async function findStaffSenders(db: Db, businessId: number, userIds: number[]) {
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
export async function findUserGroupIds(db: Db, businessId: number, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: chatGroupMembers.groupId })
    .from(chatGroupMembers)
    .where(and(eq(chatGroupMembers.businessId, businessId), eq(chatGroupMembers.userId, userId)));
  return rows.map((r) => r.id);
}

/** The newest conversation of a customer on a channel (WhatsApp threads continue in it). */
export async function findLatestConversationOf(
  db: Queryable,
  businessId: number,
  channel: 'whatsapp' | 'titan_message',
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
 * The dashboard's conversations (GET /api/metrics/engage/): opened per UTC day in a range, those
 * still unanswered (active, never replied to), and the median time to the first staff or agent
 * reply (own-channel and WhatsApp messages), in seconds.
 */
export async function conversationMetrics(
  db: Queryable,
  businessId: number,
  range: { from: Date; to: Date },
): Promise<{
  days: { date: string; opened: number; unanswered: number }[];
  medianFirstResponseSeconds: number | null;
  answered: number;
}> {
  const within = sql`c.business_id = ${businessId} and c.created_at >= ${range.from.toISOString()}::timestamptz
    and c.created_at <= ${range.to.toISOString()}::timestamptz`;
  const days = (await db.execute(
    sql`select to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD') as date, count(*)::int as opened,
        count(*) filter (where c.status = 'active' and not c.business_replied)::int as unanswered
      from conversations c where ${within} group by 1 order by 1`,
  )) as unknown as { rows: { date: string; opened: number; unanswered: number }[] };
  const median = (await db.execute(
    sql`with firsts as (
        select c.created_at, least(
          (select min(m.created_at) from messages m where m.conversation_id = c.id and m.sender_type in ('staff', 'agent')),
          (select min(w.created_at) from wa_messages w where w.conversation_id = c.id and w.sender_type in ('staff', 'agent'))
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
