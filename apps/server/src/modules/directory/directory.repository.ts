// The visitor directory's reads and writes of customers.
import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations, customers } from '../../db/schema';
import { scopeConditions, type InboxScope } from '../conversations/conversations.repository';

export type CustomerRow = typeof customers.$inferSelect;

/** The customer's conversations the viewer may see (drizzle qualifies every column). */
const visibleConversations = (scope: InboxScope) =>
  and(eq(conversations.initiatorId, customers.id), ...scopeConditions(scope))!;

const conversationCount = (scope: InboxScope) =>
  sql<number>`(select count(*)::int from ${conversations} where ${visibleConversations(scope)})`;

/**
 * The customers a viewer may see: a whole business, or (agents) the people who started a
 * conversation the agent may see — a directory entry shows nothing its inbox would not.
 */
function visibleCustomers(scope: InboxScope): SQL {
  const base = eq(customers.businessId, scope.businessId);
  if (scope.groupIds === null) return base;
  return and(base, sql`exists (select 1 from ${conversations} where ${visibleConversations(scope)})`)!;
}

function searchCondition(scope: InboxScope, search: string | undefined): SQL {
  const base = visibleCustomers(scope);
  if (!search) return base;
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(
    base,
    or(ilike(customers.name, pattern), ilike(customers.email, pattern), ilike(customers.phone, pattern)),
  )!;
}

export async function listCustomers(
  db: Db,
  scope: InboxScope,
  search: string | undefined,
  limit: number,
  offset: number,
) {
  const where = searchCondition(scope, search);
  const [rows, [total]] = await Promise.all([
    db
      .select({ customer: customers, conversationCount: conversationCount(scope) })
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findCustomer(db: Db, scope: InboxScope, id: number) {
  const [row] = await db
    .select({ customer: customers, conversationCount: conversationCount(scope) })
    .from(customers)
    .where(and(visibleCustomers(scope), eq(customers.id, id)))
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
