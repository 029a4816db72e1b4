// The only code that touches conversations, messages, wa_messages and change_log.
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TConversationFilter } from '@titan/contracts';
import type { Db } from '../../db/client';
import {
  changeLog,
  chatGroupMembers,
  chatGroups,
  conversationCounts,
  conversationDayCounts,
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
  const created = Boolean(filter.created_at__gte || filter.created_at__lte);
  if (created) {
    const [ids, total] = await Promise.all([
      pageIdsByCreatedMonth(db, scope, filter, where, limit, offset),
      countConversations(db, scope, filter, where),
    ]);
    if (ids.length === 0) return { rows: [], count: total };
    const rows = await db
      .select(enrichedColumns)
      .from(conversations)
      .leftJoin(customers, eq(customers.id, conversations.initiatorId))
      .leftJoin(chatGroups, eq(chatGroups.id, conversations.assignedChatGroupId))
      .where(inArray(conversations.id, ids))
      .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id));
    return { rows, count: total };
  }
  // The page's ids come from the conversations indexes alone; only those rows are joined.
  const page = db.$with('page').as(
    db
      .select({ id: conversations.id })
      .from(conversations)
      .where(where)
      .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id))
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
 * A page of a created_at range in last-message order. Conversations of any age can have the
 * newest messages, so neither index order serves it: walking last-message order discards rows of
 * the wrong age, reading the created range sorts all of it. Instead, for each month of created_at
 * in the range take the month's top `offset + limit` from conversations_created_month_idx
 * (index-only), and order those few. Months span the bounds, or the business's oldest / newest
 * conversation where a bound is open.
 */
async function pageIdsByCreatedMonth(
  db: Db,
  scope: InboxScope,
  filter: TConversationFilter,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<number[]> {
  const edge = (fn: 'min' | 'max') =>
    sql
      .raw(`(select ${fn}(created_at) from conversations where business_id = `)
      .append(sql`${scope.businessId})`);
  const from = filter.created_at__gte
    ? sql`${filter.created_at__gte.toISOString()}::timestamptz`
    : edge('min');
  const to = filter.created_at__lte ? sql`${filter.created_at__lte.toISOString()}::timestamptz` : edge('max');
  const rows = await db.execute(sql`
    select c.id from generate_series(
      date_trunc('month', ${from} at time zone 'UTC'),
      date_trunc('month', ${to} at time zone 'UTC'),
      interval '1 month') as m(month)
    cross join lateral (
      select ${conversations.id} as id, ${conversations.lastMessageAt} as last_message_at
      from ${conversations}
      where ${where} and date_trunc('month', ${conversations.createdAt} at time zone 'UTC') = m.month
      order by ${conversations.lastMessageAt} desc nulls last, ${conversations.id} desc
      limit ${offset + limit}
    ) as c
    order by c.last_message_at desc nulls last, c.id desc
    limit ${limit} offset ${offset}`);
  // node-postgres and PGlite both answer { rows }.
  return (rows as unknown as { rows: { id: string | number }[] }).rows.map((r) => Number(r.id));
}

/**
 * The count without reading the matching rows. Without a date range: a sum over
 * conversation_counts (at most 16 rows). With a range on one of created_at / last_message_at: a
 * sum over conversation_day_counts for the whole days inside it, plus the rows of its edge days
 * counted through the index. Group-limited viewers and ranges on both columns count the rows.
 */
async function countConversations(
  db: Db,
  scope: InboxScope,
  filter: TConversationFilter,
  where: SQL | undefined,
): Promise<number> {
  const created = Boolean(filter.created_at__gte || filter.created_at__lte);
  const lastMessage = Boolean(filter.last_message_at__gte || filter.last_message_at__lte);
  if (scope.groupIds !== null || (created && lastMessage)) return countRows(db, where);
  if (!created && !lastMessage) {
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${conversationCounts.n}), 0)` })
      .from(conversationCounts)
      .where(
        and(
          eq(conversationCounts.businessId, scope.businessId),
          ...bucketConditions(conversationCounts, filter),
        ),
      );
    return Number(row?.n ?? 0);
  }
  const axis = created ? 'c' : 'l';
  const column = created ? conversations.createdAt : conversations.lastMessageAt;
  const lo = created ? filter.created_at__gte : filter.last_message_at__gte;
  const hi = created ? filter.created_at__lte : filter.last_message_at__lte;
  if (lo && hi && lo > hi) return 0;
  const loDay = lo ? utcDay(lo) : null;
  const hiDay = hi ? utcDay(hi) : null;
  // Within one day the range is small: count its rows.
  if (loDay && hiDay && loDay.getTime() === hiDay.getTime()) return countRows(db, where);

  const dims = and(
    ...filterConditions(scope, {
      ...filter,
      created_at__gte: undefined,
      created_at__lte: undefined,
      last_message_at__gte: undefined,
      last_message_at__lte: undefined,
    }),
  );
  const parts: Promise<number>[] = [];
  const days: SQL[] = [
    eq(conversationDayCounts.businessId, scope.businessId),
    eq(conversationDayCounts.axis, axis),
  ];
  if (loDay) days.push(sql`${conversationDayCounts.day} > ${isoDay(loDay)}`);
  if (hiDay) days.push(sql`${conversationDayCounts.day} < ${isoDay(hiDay)}`);
  parts.push(
    db
      .select({ n: sql<string>`coalesce(sum(${conversationDayCounts.n}), 0)` })
      .from(conversationDayCounts)
      .where(and(...days, ...bucketConditions(conversationDayCounts, filter)))
      .then(([row]) => Number(row?.n ?? 0)),
  );
  // The edge days: from the bound to the end of its day, and from the start of its day to the bound.
  if (lo && loDay) parts.push(countRows(db, and(dims, gte(column, lo), lt(column, addDays(loDay, 1)))));
  if (hi && hiDay) parts.push(countRows(db, and(dims, gte(column, hiDay), lte(column, hi))));
  const counts = await Promise.all(parts);
  return counts.reduce((a, b) => a + b, 0);
}

async function countRows(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(conversations).where(where);
  return Number(row?.n ?? 0);
}

/** The status / read / replied / channel filters on a bucket table. */
function bucketConditions(
  table: typeof conversationCounts | typeof conversationDayCounts,
  filter: TConversationFilter,
): SQL[] {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(table.status, filter.status));
  if (filter.is_read !== undefined) where.push(eq(table.isRead, filter.is_read));
  if (filter.business_replied !== undefined) where.push(eq(table.businessReplied, filter.business_replied));
  if (filter.channel__in) where.push(inArray(table.channel, filter.channel__in));
  return where;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

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
