// The visitor directory's reads and writes of customers.
import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers } from '../../db/schema';

export type CustomerRow = typeof customers.$inferSelect;

// Qualified by hand: inside the subquery an unqualified "id" would bind to conversations.id.
const conversationCount = sql<number>`(select count(*)::int from conversations c where c.initiator_id = "customers"."id")`;

function searchCondition(businessId: number, search: string | undefined): SQL {
  const base = eq(customers.businessId, businessId);
  if (!search) return base;
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(
    base,
    or(ilike(customers.name, pattern), ilike(customers.email, pattern), ilike(customers.phone, pattern)),
  )!;
}

export async function listCustomers(
  db: Db,
  businessId: number,
  search: string | undefined,
  limit: number,
  offset: number,
) {
  const where = searchCondition(businessId, search);
  const [rows, [total]] = await Promise.all([
    db
      .select({ customer: customers, conversationCount })
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findCustomer(db: Db, businessId: number, id: number) {
  const [row] = await db
    .select({ customer: customers, conversationCount })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function updateCustomer(
  db: Db,
  businessId: number,
  id: number,
  patch: Partial<typeof customers.$inferInsert>,
) {
  const rows = await db
    .update(customers)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return rows.length === 1;
}

/** Revokes every visitor token issued to the customer so far (see visitor-tokens.ts). */
export async function bumpVisitorTokenVersion(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(customers)
    .set({ visitorTokenVersion: sql`${customers.visitorTokenVersion} + 1`, updatedAt: new Date() })
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return rows.length === 1;
}

export async function deleteCustomer(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return rows.length === 1;
}
