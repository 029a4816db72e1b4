// The only code that touches chat_groups, chat_group_members and chat_group_assignment.
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { chatGroupAssignment, chatGroupMembers, chatGroups, memberships, users } from '../../db/schema';

export type ChatGroupRow = typeof chatGroups.$inferSelect;

export async function listGroups(db: Db, businessId: number): Promise<ChatGroupRow[]> {
  return db
    .select()
    .from(chatGroups)
    .where(eq(chatGroups.businessId, businessId))
    .orderBy(asc(chatGroups.name), asc(chatGroups.id));
}

export async function findGroup(db: Queryable, businessId: number, id: number): Promise<ChatGroupRow | null> {
  const [row] = await db
    .select()
    .from(chatGroups)
    .where(and(eq(chatGroups.businessId, businessId), eq(chatGroups.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findGroupBySlug(
  db: Db,
  businessId: number,
  slug: string,
): Promise<ChatGroupRow | null> {
  const [row] = await db
    .select()
    .from(chatGroups)
    .where(and(eq(chatGroups.businessId, businessId), eq(chatGroups.slug, slug)))
    .limit(1);
  return row ?? null;
}

export async function insertGroup(db: Db, values: typeof chatGroups.$inferInsert): Promise<ChatGroupRow> {
  const [row] = await db.insert(chatGroups).values(values).returning();
  return row!;
}

export async function updateGroup(
  db: Db,
  businessId: number,
  id: number,
  patch: Partial<typeof chatGroups.$inferInsert>,
): Promise<ChatGroupRow | null> {
  const [row] = await db
    .update(chatGroups)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(chatGroups.businessId, businessId), eq(chatGroups.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteGroup(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(chatGroups)
    .where(and(eq(chatGroups.businessId, businessId), eq(chatGroups.id, id)))
    .returning({ id: chatGroups.id });
  return rows.length === 1;
}

const memberColumns = {
  user: { pk: users.id, first_name: users.firstName, last_name: users.lastName, email: users.email },
  role: memberships.role,
  addedAt: chatGroupMembers.createdAt,
};

export async function listGroupUsers(db: Db, businessId: number, groupId: number) {
  return db
    .select(memberColumns)
    .from(chatGroupMembers)
    .innerJoin(users, eq(users.id, chatGroupMembers.userId))
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.businessId, businessId)))
    .where(and(eq(chatGroupMembers.businessId, businessId), eq(chatGroupMembers.groupId, groupId)))
    .orderBy(asc(chatGroupMembers.createdAt));
}

export async function findGroupUser(db: Db, businessId: number, groupId: number, userId: number) {
  const [row] = await db
    .select(memberColumns)
    .from(chatGroupMembers)
    .innerJoin(users, eq(users.id, chatGroupMembers.userId))
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.businessId, businessId)))
    .where(
      and(
        eq(chatGroupMembers.businessId, businessId),
        eq(chatGroupMembers.groupId, groupId),
        eq(chatGroupMembers.userId, userId),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertGroupUser(db: Db, businessId: number, groupId: number, userId: number) {
  await db.insert(chatGroupMembers).values({ businessId, groupId, userId }).onConflictDoNothing();
}

export async function deleteGroupUser(
  db: Db,
  businessId: number,
  groupId: number,
  userId: number,
): Promise<boolean> {
  const rows = await db
    .delete(chatGroupMembers)
    .where(
      and(
        eq(chatGroupMembers.businessId, businessId),
        eq(chatGroupMembers.groupId, groupId),
        eq(chatGroupMembers.userId, userId),
      ),
    )
    .returning({ id: chatGroupMembers.id });
  return rows.length === 1;
}

export type AssignmentRow = typeof chatGroupAssignment.$inferSelect;

/** A group's auto-assignment settings and round-robin cursor; null when never set (off). */
export async function findAssignment(db: Queryable, groupId: number): Promise<AssignmentRow | null> {
  const [row] = await db
    .select()
    .from(chatGroupAssignment)
    .where(eq(chatGroupAssignment.chatGroupId, groupId))
    .limit(1);
  return row ?? null;
}

/**
 * What one auto-assignment claim reads of its group, in one statement: the assignment settings, the
 * group's business hours and its AI responder settings (null: no assignment row).
 */
export async function findAssignmentRules(
  db: Queryable,
  groupId: number,
): Promise<
  | (AssignmentRow & {
      businessHours: ChatGroupRow['businessHours'];
      aiResponder: ChatGroupRow['aiResponder'];
    })
  | null
> {
  const [row] = await db
    .select({
      assignment: chatGroupAssignment,
      businessHours: chatGroups.businessHours,
      aiResponder: chatGroups.aiResponder,
    })
    .from(chatGroupAssignment)
    .innerJoin(chatGroups, eq(chatGroups.id, chatGroupAssignment.chatGroupId))
    .where(eq(chatGroupAssignment.chatGroupId, groupId))
    .limit(1);
  return row ? { ...row.assignment, businessHours: row.businessHours, aiResponder: row.aiResponder } : null;
}

export async function findAssignments(db: Queryable, businessId: number): Promise<AssignmentRow[]> {
  return db.select().from(chatGroupAssignment).where(eq(chatGroupAssignment.businessId, businessId));
}

export async function saveAssignment(
  db: Queryable,
  businessId: number,
  groupId: number,
  settings: { mode: AssignmentRow['mode']; capacity: number },
): Promise<void> {
  await db
    .insert(chatGroupAssignment)
    .values({ chatGroupId: groupId, businessId, ...settings })
    .onConflictDoUpdate({
      target: chatGroupAssignment.chatGroupId,
      set: { ...settings, updatedAt: new Date() },
    });
}

/** Round robin: the member the group assigned last. */
export async function moveAssignmentCursor(db: Queryable, groupId: number, userId: number): Promise<void> {
  await db
    .update(chatGroupAssignment)
    .set({ lastUserId: userId })
    .where(eq(chatGroupAssignment.chatGroupId, groupId));
}

/** A group's AI first-responder settings as stored (null: never set), with its business. */
export async function findAiResponder(
  db: Queryable,
  groupId: number,
): Promise<{ businessId: number; aiResponder: ChatGroupRow['aiResponder'] } | null> {
  const [row] = await db
    .select({ businessId: chatGroups.businessId, aiResponder: chatGroups.aiResponder })
    .from(chatGroups)
    .where(eq(chatGroups.id, groupId))
    .limit(1);
  return row ?? null;
}
