// The only code that touches conversations, messages, wa_messages and change_log.
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TConversationFilter } from '@titan/contracts';
import type { Db } from '../../db/client';
import {
  changeLog,
  chatGroupMembers,
  chatGroups,
  conversationCounts,
  conversations,
  customers,
  memberships,
  messages,
  users,
  waMessages,
} from '../../db/schema';
import type { Queryable } from '../auth/auth.repository';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type WaMessageRow = typeof waMessages.$inferSelect;

const enrichedColumns = {
  conversation: conversations,
  initiator: { id: customers.id, name: customers.name, email: customers.email },
  group: { id: chatGroups.id, name: chatGroups.name, slug: chatGroups.slug },
};

export type EnrichedConversationRow = {
  conversation: ConversationRow;
  initiator: { id: number; name: string | null; email: string | null } | null;
  group: { id: number; name: string; slug: string } | null;
};

/**
 * What one viewer may see: a whole business, or (agents) the conversations of their chat groups
 * plus those assigned to no group.
 */
export type InboxScope = { businessId: number; groupIds: number[] | null };

function scopeConditions(scope: InboxScope): SQL[] {
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

function filterConditions(scope: InboxScope, filter: TConversationFilter): SQL[] {
  const where: SQL[] = scopeConditions(scope);
  if (filter.status) where.push(eq(conversations.status, filter.status));
  if (filter.is_read !== undefined) where.push(eq(conversations.isRead, filter.is_read));
  if (filter.business_replied !== undefined)
    where.push(eq(conversations.businessReplied, filter.business_replied));
  if (filter.created_at__gte) where.push(gte(conversations.createdAt, filter.created_at__gte));
  if (filter.created_at__lte) where.push(lte(conversations.createdAt, filter.created_at__lte));
  if (filter.last_message_at__gte) where.push(gte(conversations.lastMessageAt, filter.last_message_at__gte));
  if (filter.last_message_at__lte) where.push(lte(conversations.lastMessageAt, filter.last_message_at__lte));
  if (filter.channel__in) where.push(inArray(conversations.channel, filter.channel__in));
  return where;
}

export async function listConversations(
  db: Db,
  scope: InboxScope,
  filter: TConversationFilter,
  limit: number,
  offset: number,
): Promise<{ rows: EnrichedConversationRow[]; count: number }> {
  const where = and(...filterConditions(scope, filter));
  // With an upper bound on created_at the matches are old conversations, which sit at the far end
  // of the last-message index: walking it discards most rows (2.3 s at 1M). Ordering by an
  // expression that index cannot serve makes the planner read the created_at range from its
  // covering index and sort just the top of it (0.4 s). A lower bound alone keeps the walk: recent
  // conversations are at the front of the index, so it finds them at once.
  const createdRange =
    Boolean(filter.created_at__lte) && !filter.last_message_at__gte && !filter.last_message_at__lte;
  const pageOrder = createdRange
    ? sql`(${conversations.lastMessageAt} + interval '0 seconds') desc nulls last`
    : sql`${conversations.lastMessageAt} desc nulls last`;
  // The page's ids come from the conversations indexes alone; only those rows are joined.
  const page = db
    .$with('page')
    .as(
      db
        .select({ id: conversations.id })
        .from(conversations)
        .where(where)
        .orderBy(pageOrder, desc(conversations.id))
        .limit(limit)
        .offset(offset),
    );
  const [rows, total] = await Promise.all([
    db
      .with(page)
      .select(enrichedColumns)
      .from(page)
      .innerJoin(conversations, eq(conversations.id, page.id))
      .leftJoin(customers, eq(customers.id, conversations.initiatorId))
      .leftJoin(chatGroups, eq(chatGroups.id, conversations.assignedChatGroupId))
      .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id)),
    countConversations(db, scope, filter, where),
  ]);
  return { rows, count: total };
}

/**
 * Without a date range the count is a sum over conversation_counts (at most 16 rows); a date
 * range needs the rows themselves, counted through the created_at / last_message_at indexes.
 */
async function countConversations(
  db: Db,
  scope: InboxScope,
  filter: TConversationFilter,
  where: SQL | undefined,
): Promise<number> {
  const dated =
    filter.created_at__gte ||
    filter.created_at__lte ||
    filter.last_message_at__gte ||
    filter.last_message_at__lte;
  // Buckets count whole businesses: a date range or a group-limited viewer counts the rows.
  if (dated || scope.groupIds !== null) {
    const [row] = await db.select({ n: count() }).from(conversations).where(where);
    return Number(row?.n ?? 0);
  }
  const buckets: SQL[] = [eq(conversationCounts.businessId, scope.businessId)];
  if (filter.status) buckets.push(eq(conversationCounts.status, filter.status));
  if (filter.is_read !== undefined) buckets.push(eq(conversationCounts.isRead, filter.is_read));
  if (filter.business_replied !== undefined)
    buckets.push(eq(conversationCounts.businessReplied, filter.business_replied));
  if (filter.channel__in) buckets.push(inArray(conversationCounts.channel, filter.channel__in));
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${conversationCounts.n}), 0)` })
    .from(conversationCounts)
    .where(and(...buckets));
  return Number(row?.n ?? 0);
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

export async function findWaMessage(db: Queryable, id: string): Promise<WaMessageRow | null> {
  const [row] = await db.select().from(waMessages).where(eq(waMessages.id, id)).limit(1);
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

export async function latestSeq(db: Db, businessId: number): Promise<number> {
  const [row] = await db
    .select({ seq: sql<number>`coalesce(max(${changeLog.seq}), 0)` })
    .from(changeLog)
    .where(eq(changeLog.businessId, businessId));
  return Number(row?.seq ?? 0);
}

export async function oldestSeq(db: Db): Promise<number> {
  const [row] = await db.select({ seq: sql<number>`coalesce(min(${changeLog.seq}), 0)` }).from(changeLog);
  return Number(row?.seq ?? 0);
}

/** Changes of a business after `afterSeq`, oldest first, for resuming a subscription. */
export async function changesAfter(db: Db, businessId: number, afterSeq: number, limit: number) {
  return db
    .select()
    .from(changeLog)
    .where(and(eq(changeLog.businessId, businessId), gt(changeLog.seq, afterSeq)))
    .orderBy(changeLog.seq)
    .limit(limit);
}

export async function pruneChangeLog(db: Db, olderThan: Date): Promise<void> {
  await db.delete(changeLog).where(lt(changeLog.createdAt, olderThan));
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

export async function findCustomerSenders(db: Db, businessId: number, customerIds: number[]) {
  if (customerIds.length === 0) return [];
  return db
    .select({ id: customers.id, name: customers.name, email: customers.email })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, customerIds)));
}

export async function insertCustomer(db: Queryable, values: typeof customers.$inferInsert) {
  const [row] = await db.insert(customers).values(values).returning();
  return row!;
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
