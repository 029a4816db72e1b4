// The visitor directory owns `customers`: every read and write of the table is here. Other modules
// reach it through directory.service.ts (functions take a transaction handle where callers need one).
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TSegmentFilter } from '@titan/contracts';
import type { Db } from '../../db/client';
import type { Queryable } from '../auth/auth.repository';
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

/** A fragment of the name, email or phone (LIKE's wildcards taken literally). */
function fragment(search: string): SQL {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    ilike(customers.name, pattern),
    ilike(customers.email, pattern),
    ilike(customers.phone, pattern),
  )!;
}

function searchCondition(scope: InboxScope, search: string | undefined): SQL {
  const base = visibleCustomers(scope);
  if (!search) return base;
  return and(base, fragment(search))!;
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

// ---- For other modules (through directory.service.ts) ----

export async function findCustomerById(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findCustomerByExternalId(
  db: Queryable,
  businessId: number,
  externalId: string,
): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.externalId, externalId)))
    .limit(1);
  return row ?? null;
}

/** The external id a customer is reached at (`wa:<digits>` for WhatsApp contacts), if any. */
export async function findCustomerExternalId(
  db: Queryable,
  businessId: number,
  customerId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ externalId: customers.externalId })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, customerId)))
    .limit(1);
  return row?.externalId ?? null;
}

/** Names and emails of a business's customers, for message senders. */
export async function findCustomerNames(db: Queryable, businessId: number, customerIds: number[]) {
  if (customerIds.length === 0) return [];
  return db
    .select({ id: customers.id, name: customers.name, email: customers.email })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, customerIds)));
}

export async function insertCustomer(
  db: Queryable,
  values: typeof customers.$inferInsert,
): Promise<CustomerRow> {
  const [row] = await db.insert(customers).values(values).returning();
  return row!;
}

/** A visitor the embedding site vouched for: found by its external id, its details merged in. */
export async function upsertVerifiedCustomer(
  db: Queryable,
  values: typeof customers.$inferInsert & { externalId: string },
): Promise<CustomerRow> {
  const [row] = await db
    .insert(customers)
    .values(values)
    .onConflictDoUpdate({
      target: [customers.businessId, customers.externalId],
      set: {
        name: sql`coalesce(excluded.name, ${customers.name})`,
        email: sql`coalesce(excluded.email, ${customers.email})`,
        phone: sql`coalesce(excluded.phone, ${customers.phone})`,
        fields: sql`${customers.fields} || excluded.fields`,
        lastSeenAt: new Date(),
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export type ContactValues = {
  businessId: number;
  externalId: string;
  name: string | null;
  phone: string | null;
};

/**
 * Each contact as a customer, in one statement (set-based, inside the caller's transaction), as
 * `upsertVerifiedCustomer` does one: a new name or phone replaces the stored one, a missing one
 * keeps it. Answers the customer ids.
 */
export async function upsertContacts(
  db: Queryable,
  contacts: ContactValues[],
): Promise<{ id: number; businessId: number; externalId: string }[]> {
  if (contacts.length === 0) return [];
  const recordset = contacts.map((k) => ({
    business_id: k.businessId,
    external_id: k.externalId,
    name: k.name,
    phone: k.phone,
  }));
  const result = await db.execute(
    sql`insert into customers as c (business_id, external_id, name, phone)
      select business_id, external_id, name, phone
      from jsonb_to_recordset(${JSON.stringify(recordset)}::jsonb)
        as v(business_id bigint, external_id text, name text, phone text)
      order by business_id, external_id
      on conflict (business_id, external_id) do update set
        name = coalesce(excluded.name, c.name),
        phone = coalesce(excluded.phone, c.phone),
        last_seen_at = now(),
        updated_at = now()
      returning c.id, c.business_id, c.external_id`,
  );
  // Both drivers answer { rows }; the generic PgDatabase type cannot say so.
  const rows = (
    result as unknown as {
      rows: { id: string | number; business_id: string | number; external_id: string }[];
    }
  ).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    businessId: Number(r.business_id),
    externalId: r.external_id,
  }));
}

// ---- Segments: a saved filter over the directory (customer-lists module) ----

/** A business's customers meeting every condition of a segment's filter. */
function segmentCondition(businessId: number, filter: TSegmentFilter): SQL {
  const where: SQL[] = [eq(customers.businessId, businessId)];
  if (filter.search) where.push(fragment(filter.search));
  if (filter.has_email !== undefined)
    where.push(
      filter.has_email
        ? sql`coalesce(${customers.email}, '') <> ''`
        : sql`coalesce(${customers.email}, '') = ''`,
    );
  if (filter.has_phone !== undefined)
    where.push(
      filter.has_phone
        ? sql`coalesce(${customers.phone}, '') <> ''`
        : sql`coalesce(${customers.phone}, '') = ''`,
    );
  if (filter.channel)
    where.push(
      sql`exists (select 1 from ${conversations} where ${conversations.initiatorId} = ${customers.id}
        and ${conversations.businessId} = ${businessId} and ${conversations.channel} = ${filter.channel})`,
    );
  if (filter.created_at__gte) where.push(gte(customers.createdAt, new Date(filter.created_at__gte)));
  if (filter.created_at__lte) where.push(lte(customers.createdAt, new Date(filter.created_at__lte)));
  if (filter.last_seen_at__gte) where.push(gte(customers.lastSeenAt, new Date(filter.last_seen_at__gte)));
  if (filter.last_seen_at__lte) where.push(lte(customers.lastSeenAt, new Date(filter.last_seen_at__lte)));
  for (const [key, value] of Object.entries(filter.fields ?? {}))
    where.push(sql`${customers.fields} ->> ${key} = ${String(value)}`);
  return and(...where)!;
}

export async function countSegment(
  db: Queryable,
  businessId: number,
  filter: TSegmentFilter,
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(customers).where(segmentCondition(businessId, filter));
  return Number(row?.n ?? 0);
}

/** A page of a segment's customers in id order, after `afterId` (keyset: stable while it grows). */
export async function segmentCustomers(
  db: Queryable,
  businessId: number,
  filter: TSegmentFilter,
  afterId: number,
  limit: number,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(and(segmentCondition(businessId, filter), gt(customers.id, afterId)))
    .orderBy(asc(customers.id))
    .limit(limit);
}

/** A page of a segment for the directory's list shape (newest first), with its count. */
export async function listSegment(
  db: Queryable,
  businessId: number,
  filter: TSegmentFilter,
  limit: number,
  offset: number,
) {
  const where = segmentCondition(businessId, filter);
  const scope: InboxScope = { businessId, groupIds: null };
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

/** Customers of a business by id, in the directory's list shape (for a static list's page). */
export async function findCustomersForList(db: Queryable, businessId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const scope: InboxScope = { businessId, groupIds: null };
  return db
    .select({ customer: customers, conversationCount: conversationCount(scope) })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, ids)));
}

/** Of the given ids, those that are customers of the business. */
export async function existingCustomerIds(
  db: Queryable,
  businessId: number,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, ids)));
  return rows.map((r) => r.id);
}

/** Customers of a business by id, whole rows (for sends). */
export async function findCustomersByIds(
  db: Queryable,
  businessId: number,
  ids: number[],
): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, ids)))
    .orderBy(asc(customers.id));
}
