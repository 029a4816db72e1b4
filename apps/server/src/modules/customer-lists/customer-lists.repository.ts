// The only code that touches `customer_lists` and `customer_list_members`.
import { and, asc, count, desc, eq, gt, ilike, inArray, type SQL } from 'drizzle-orm';
import type { TSegmentFilter } from '@titan/contracts';
import { campaigns, customerListMembers, customerLists } from '../../db/schema';
import { sqlStateOf } from '../../platform/db-errors';
import type { Queryable } from '../../db/client';

export type CustomerListRow = typeof customerLists.$inferSelect;

export async function listLists(
  db: Queryable,
  businessId: number,
  search: string | undefined,
  limit: number,
  offset: number,
) {
  const where = and(
    eq(customerLists.businessId, businessId),
    search ? ilike(customerLists.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(customerLists)
      .where(where)
      .orderBy(desc(customerLists.createdAt), desc(customerLists.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(customerLists).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findList(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<CustomerListRow | null> {
  const [row] = await db
    .select()
    .from(customerLists)
    .where(and(eq(customerLists.businessId, businessId), eq(customerLists.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertList(
  db: Queryable,
  values: {
    businessId: number;
    name: string;
    description: string;
    kind: 'static' | 'segment';
    doubleOptIn: boolean;
    filter: TSegmentFilter | null;
  },
): Promise<CustomerListRow> {
  const [row] = await db.insert(customerLists).values(values).returning();
  return row!;
}

export async function updateList(
  db: Queryable,
  businessId: number,
  id: number,
  patch: { name?: string; description?: string; doubleOptIn?: boolean; filter?: TSegmentFilter },
): Promise<CustomerListRow | null> {
  const [row] = await db
    .update(customerLists)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(customerLists.businessId, businessId), eq(customerLists.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteList(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(customerLists)
    .where(and(eq(customerLists.businessId, businessId), eq(customerLists.id, id)))
    .returning({ id: customerLists.id });
  return rows.length === 1;
}

/** Member counts of static lists, by list id. */
export async function countMembers(db: Queryable, listIds: number[]): Promise<Map<number, number>> {
  if (listIds.length === 0) return new Map();
  const rows = await db
    .select({ listId: customerListMembers.listId, n: count() })
    .from(customerListMembers)
    .where(inArray(customerListMembers.listId, listIds))
    .groupBy(customerListMembers.listId);
  return new Map(rows.map((r) => [r.listId, Number(r.n)]));
}

/** Adds members (already known to be the business's customers); answers those who were new. */
export async function addMembers(db: Queryable, listId: number, customerIds: number[]): Promise<number[]> {
  if (customerIds.length === 0) return [];
  const rows = await db
    .insert(customerListMembers)
    .values(customerIds.map((customerId) => ({ listId, customerId })))
    .onConflictDoNothing()
    .returning({ id: customerListMembers.customerId });
  return rows.map((r) => r.id);
}

/** Removes members; answers those who were members. */
export async function removeMembers(db: Queryable, listId: number, customerIds: number[]): Promise<number[]> {
  if (customerIds.length === 0) return [];
  const rows = await db
    .delete(customerListMembers)
    .where(and(eq(customerListMembers.listId, listId), inArray(customerListMembers.customerId, customerIds)))
    .returning({ id: customerListMembers.customerId });
  return rows.map((r) => r.id);
}

/**
 * A page of a static list's member ids, newest first, and how many there are, among the members
 * `visible` keeps (the directory's rule for the viewer, on the member's customer id).
 */
export async function memberPage(
  db: Queryable,
  listId: number,
  visible: (customerId: typeof customerListMembers.customerId) => SQL | undefined,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; count: number }> {
  const where = and(eq(customerListMembers.listId, listId), visible(customerListMembers.customerId));
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: customerListMembers.customerId })
      .from(customerListMembers)
      .where(where)
      .orderBy(desc(customerListMembers.addedAt), desc(customerListMembers.customerId))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(customerListMembers).where(where),
  ]);
  return { ids: rows.map((r) => r.id), count: Number(total?.n ?? 0) };
}

/** Member ids in id order after `afterId` (keyset, for walking a whole list). */
export async function memberIdsAfter(
  db: Queryable,
  listId: number,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: customerListMembers.customerId })
    .from(customerListMembers)
    .where(and(eq(customerListMembers.listId, listId), gt(customerListMembers.customerId, afterId)))
    .orderBy(asc(customerListMembers.customerId))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The name is another list's of the business (the unique index on lower(name)). */
export const isNameTaken = (err: unknown) => sqlStateOf(err) === '23505';

/** The business's static lists holding a customer, by name. */
export async function listsOfCustomer(db: Queryable, businessId: number, customerId: number) {
  return db
    .select({ id: customerLists.id, name: customerLists.name })
    .from(customerListMembers)
    .innerJoin(customerLists, eq(customerLists.id, customerListMembers.listId))
    .where(and(eq(customerListMembers.customerId, customerId), eq(customerLists.businessId, businessId)))
    .orderBy(asc(customerLists.name), asc(customerLists.id));
}

/** Of these list ids, those that are the business's static lists. */
/**
 * Which of `ids` are campaigns of the business: a read of the campaigns table (never written
 * here), because the campaigns module builds on customer lists and cannot be imported back.
 */
export async function campaignIdsAmong(db: Queryable, businessId: number, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.businessId, businessId), inArray(campaigns.id, ids)));
  return rows.map((r) => r.id);
}

export async function staticListIdsAmong(
  db: Queryable,
  businessId: number,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: customerLists.id })
    .from(customerLists)
    .where(
      and(
        eq(customerLists.businessId, businessId),
        eq(customerLists.kind, 'static'),
        inArray(customerLists.id, ids),
      ),
    );
  return rows.map((r) => r.id);
}
