// The only code that touches businesses and memberships.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { businesses, chatGroups, customRoles, memberships, users } from '../../db/schema';

export type BusinessRow = typeof businesses.$inferSelect;
export type MembershipRole = (typeof memberships.$inferSelect)['role'];

export async function insertBusiness(
  db: Queryable,
  values: typeof businesses.$inferInsert,
): Promise<BusinessRow> {
  const [row] = await db.insert(businesses).values(values).returning();
  return row!;
}

export async function findBusinessById(db: Queryable, id: number): Promise<BusinessRow | null> {
  const [row] = await db.select().from(businesses).where(eq(businesses.id, id)).limit(1);
  return row ?? null;
}

export async function findBusinessByCode(db: Queryable, code: string): Promise<BusinessRow | null> {
  const [row] = await db.select().from(businesses).where(eq(businesses.uniqueCode, code)).limit(1);
  return row ?? null;
}

export async function updateBusiness(
  db: Queryable,
  id: number,
  patch: Partial<typeof businesses.$inferInsert>,
): Promise<BusinessRow | null> {
  const [row] = await db
    .update(businesses)
    .set({ ...patch, updatedOn: new Date() })
    .where(eq(businesses.id, id))
    .returning();
  return row ?? null;
}

/** The caller's membership in the business with this code, or null (unknown code or not a member). */
export async function findMembershipByCode(db: Db, userId: number, code: string) {
  const [row] = await db
    .select({
      businessId: businesses.id,
      uniqueCode: businesses.uniqueCode,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      customPermissions: customRoles.permissions,
      scopeGroupIds: customRoles.chatGroupIds,
    })
    .from(businesses)
    .innerJoin(memberships, and(eq(memberships.businessId, businesses.id), eq(memberships.userId, userId)))
    .leftJoin(customRoles, eq(customRoles.id, memberships.customRoleId))
    .where(eq(businesses.uniqueCode, code))
    .limit(1);
  return row ?? null;
}

export async function insertMembership(db: Queryable, values: typeof memberships.$inferInsert) {
  const [row] = await db.insert(memberships).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findMembership(db: Queryable, businessId: number, userId: number) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function findMember(db: Queryable, businessId: number, membershipId: number) {
  const [row] = await db
    .select({
      id: memberships.id,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      joinedAt: memberships.joinedAt,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.businessId, businessId), eq(memberships.id, membershipId)))
    .limit(1);
  return row ?? null;
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

export async function listMembers(db: Queryable, businessId: number): Promise<MemberRow[]> {
  return db
    .select({
      id: memberships.id,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      joinedAt: memberships.joinedAt,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.businessId, businessId))
    .orderBy(memberships.joinedAt, memberships.id);
}

export async function setMemberRole(
  db: Queryable,
  businessId: number,
  membershipId: number,
  role: MembershipRole,
  customRoleId: number | null = null,
) {
  await db
    .update(memberships)
    .set({ role, customRoleId })
    .where(and(eq(memberships.businessId, businessId), eq(memberships.id, membershipId)));
}

export async function deleteMember(db: Queryable, businessId: number, membershipId: number) {
  await db
    .delete(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.id, membershipId)));
}

/** Locks the business's owner rows so two demotions cannot both pass the last-owner check. */
export async function countOwnersForUpdate(db: Queryable, businessId: number): Promise<number> {
  await db.execute(
    sql`select id from ${memberships} where ${memberships.businessId} = ${businessId} and ${memberships.role} = 'owner' for update`,
  );
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.role, 'owner')));
  return Number(row?.n ?? 0);
}

export async function findMembershipRole(
  db: Db,
  businessId: number,
  userId: number,
): Promise<MembershipRole | null> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}

/** `subscription_status`, as Chargebee's webhooks report it (billing keeps it). */
export async function setSubscriptionStatus(
  db: Queryable,
  businessId: number,
  status: string,
): Promise<void> {
  await db.update(businesses).set({ subscriptionStatus: status }).where(eq(businesses.id, businessId));
}

// Custom roles (issue 34): the business's own sets of permissions, optionally scoped to chat groups.
export type CustomRoleRow = typeof customRoles.$inferSelect;

export async function listCustomRoles(db: Queryable, businessId: number): Promise<CustomRoleRow[]> {
  return db
    .select()
    .from(customRoles)
    .where(eq(customRoles.businessId, businessId))
    .orderBy(asc(sql`lower(${customRoles.name})`), asc(customRoles.id));
}

export async function findCustomRole(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<CustomRoleRow | null> {
  const [row] = await db
    .select()
    .from(customRoles)
    .where(and(eq(customRoles.businessId, businessId), eq(customRoles.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertCustomRole(
  db: Queryable,
  values: typeof customRoles.$inferInsert,
): Promise<CustomRoleRow> {
  const [row] = await db.insert(customRoles).values(values).returning();
  return row!;
}

export async function updateCustomRole(
  db: Queryable,
  businessId: number,
  id: number,
  patch: Pick<typeof customRoles.$inferInsert, 'name' | 'permissions' | 'chatGroupIds'>,
): Promise<CustomRoleRow | null> {
  const [row] = await db
    .update(customRoles)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(customRoles.businessId, businessId), eq(customRoles.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteCustomRole(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(customRoles)
    .where(and(eq(customRoles.businessId, businessId), eq(customRoles.id, id)))
    .returning({ id: customRoles.id });
  return rows.length === 1;
}

/** How many of `ids` are this business's chat groups. */
export async function countOwnChatGroups(db: Queryable, businessId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(chatGroups)
    .where(and(eq(chatGroups.businessId, businessId), inArray(chatGroups.id, ids)));
  return Number(row?.n ?? 0);
}

/** Members holding this custom role (their cached answers are dropped after it changes). */
export async function memberUserIdsWithRole(db: Queryable, businessId: number, roleId: number) {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.customRoleId, roleId)));
  return rows.map((r) => r.userId);
}

/** A member's role, custom role, its permissions and scope in a business, or null (realtime checks). */
export async function findMembershipAccess(db: Queryable, businessId: number, userId: number) {
  const [row] = await db
    .select({
      businessId: memberships.businessId,
      uniqueCode: businesses.uniqueCode,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      customPermissions: customRoles.permissions,
      scopeGroupIds: customRoles.chatGroupIds,
    })
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .leftJoin(customRoles, eq(customRoles.id, memberships.customRoleId))
    .where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}
