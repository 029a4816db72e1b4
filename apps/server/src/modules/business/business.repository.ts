// The only code that touches businesses and memberships.
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { businesses, memberships, users } from '../../db/schema';

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
    .select({ businessId: businesses.id, uniqueCode: businesses.uniqueCode, role: memberships.role })
    .from(businesses)
    .innerJoin(memberships, and(eq(memberships.businessId, businesses.id), eq(memberships.userId, userId)))
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
) {
  await db
    .update(memberships)
    .set({ role })
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
