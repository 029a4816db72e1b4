// The visitor directory owns `customers`: every read and write of the table is in this file and its
// siblings split by caller (directory.consent / .segments / .export / .imports.repository.ts). Other
// modules reach it through directory.service.ts (functions take a transaction handle where callers need
// one). The exported helpers below without a service wrapper (visibleCustomers, fragment, listColumns,
// containing) are for those siblings only.
import { and, count, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { DIRECTORY_COUNT_CAP, type TLabelRef } from '@titan/contracts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../../db/client';
import { conversations, customers } from '../../db/schema';
import { type InboxScope, scopeConditions } from '../../platform/conversation-conditions.repository';
import { hasEveryLabel, labelsJson } from '../labels';

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
export function visibleCustomers(scope: InboxScope): SQL {
  const base = eq(customers.businessId, scope.businessId);
  if (scope.groupIds === null) return base;
  return and(base, sql`exists (select 1 from ${conversations} where ${visibleConversations(scope)})`)!;
}

/**
 * The same rule as a condition on another table's customer id (list members, an agent run's
 * deliveries and steps), for statements already kept to the business; undefined when the viewer
 * sees the whole business. Every read of customers outside the directory goes through this.
 */
export function visibleCustomerIds(scope: InboxScope, customerId: AnyPgColumn): SQL | undefined {
  if (scope.groupIds === null) return undefined;
  return sql`${customerId} in (select ${customers.id} from ${customers} where ${visibleCustomers(scope)})`;
}

/**
 * Name, email and phone as one text: the expression the trigram index `customers_search_trgm_idx`
 * (migration 0032) is built on, so a search must use exactly this.
 */
const searchable = sql`(coalesce(${customers.name}, '') || ' ' || coalesce(${customers.email}, '') || ' ' || coalesce(${customers.phone}, ''))`;

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A fragment of the name, email or phone, case-insensitively; a fragment that looks like a phone
 * number ("415 555-01") also finds the digits as stored ("+1415555012…").
 */
export function fragment(search: string): SQL {
  const matches = [ilike(searchable, containing(search))];
  const digits = search.replace(/\D/g, '');
  if (/^[\d\s()+.-]+$/.test(search) && digits.length >= 3 && digits !== search)
    matches.push(ilike(searchable, containing(digits)));
  return matches.length === 1 ? matches[0]! : or(...matches)!;
}

function searchCondition(scope: InboxScope, search: string | undefined, labelIds: number[] = []): SQL {
  const base = and(visibleCustomers(scope), ...hasEveryLabel('customer', customers.id, labelIds))!;
  if (!search) return base;
  return and(base, fragment(search))!;
}

/** A search counts exactly up to this many matches (see listCustomers). */
export const COUNT_CAP = DIRECTORY_COUNT_CAP;

export const listColumns = (scope: InboxScope) => ({
  customer: customers,
  conversationCount: conversationCount(scope),
  labels: labelsJson('customer', customers.id),
});

type ListedCustomer = { customer: CustomerRow; conversationCount: number; labels: TLabelRef[] };
export type CustomerPage = { rows: ListedCustomer[]; count: number; capped: boolean; hasMore: boolean };

/**
 * A page of the directory, newest first, and how many match — fast at a million customers. The
 * count stops at COUNT_CAP + 1 rows (`capped`: there are more): counting a million rows, or every
 * match of a common fragment, is the slow part of a page (~50–150 ms at 1M), and "1,000+" says
 * what a person needs. Without a search the page walks the (business, created_at) index; with one,
 * the trigram index `customers_search_trgm_idx` serves fragments of 3+ characters. The planner
 * chooses between its bitmap (rare fragments) and the created_at walk that stops at the page's end
 * (common ones) from the index expression's statistics, kept at 1,000 (migration 0032) so a fragment
 * as common as 0.1% is seen as such. `hasMore`: a row follows the page.
 */
export async function listCustomers(
  db: Db,
  scope: InboxScope,
  search: string | undefined,
  limit: number,
  offset: number,
  /** `label=`: customers carrying every one of these labels. */
  labelIds: number[] = [],
): Promise<CustomerPage> {
  const where = searchCondition(scope, search, labelIds);
  const [rows, [total]] = await Promise.all([
    db
      .select(listColumns(scope))
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit + 1)
      .offset(offset),
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(customers)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('m'),
    ),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    rows: rows.slice(0, limit),
    count: Math.min(n, COUNT_CAP),
    capped: n > COUNT_CAP,
    hasMore: rows.length > limit,
  };
}

export async function findCustomer(db: Db, scope: InboxScope, id: number) {
  const [row] = await db
    .select(listColumns(scope))
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

export async function deleteCustomer(db: Queryable, businessId: number, id: number): Promise<boolean> {
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
): Promise<CustomerRow & { created: boolean }> {
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
    // A row the insert made has no deleting transaction id: created, not merged into.
    .returning({ ...getTableColumns(customers), created: sql<boolean>`(xmax = 0)` });
  return row!;
}

export type ContactValues = {
  businessId: number;
  externalId: string;
  name: string | null;
  phone: string | null;
};

/**
 * Each contact as a customer, set-based inside the caller's transaction, as
 * `upsertVerifiedCustomer` does one: a new name or phone replaces the stored one, a missing one
 * keeps it. A contact new to the business first claims the oldest customer already holding its
 * number (E.164) under no other identity — someone who typed it into the widget, a form or an
 * import — so the number's person stays one customer. Answers the customer ids.
 */
export async function upsertContacts(
  db: Queryable,
  contacts: ContactValues[],
): Promise<{ id: number; businessId: number; externalId: string; created: boolean }[]> {
  if (contacts.length === 0) return [];
  const recordset = contacts.map((k) => ({
    business_id: k.businessId,
    external_id: k.externalId,
    name: k.name,
    phone: k.phone,
  }));
  const values = JSON.stringify(recordset);
  await db.execute(
    sql`update customers c set external_id = v.external_id
      from jsonb_to_recordset(${values}::jsonb) as v(business_id bigint, external_id text, name text, phone text)
      where v.phone is not null
        and c.id = (select min(o.id) from customers o
          where o.business_id = v.business_id and o.phone = v.phone and o.external_id is null)
        and not exists (select 1 from customers k
          where k.business_id = v.business_id and k.external_id = v.external_id)`,
  );
  const result = await db.execute(
    sql`insert into customers as c (business_id, external_id, name, phone)
      select business_id, external_id, name, phone
      from jsonb_to_recordset(${values}::jsonb)
        as v(business_id bigint, external_id text, name text, phone text)
      order by business_id, external_id
      on conflict (business_id, external_id) do update set
        name = coalesce(excluded.name, c.name),
        phone = coalesce(excluded.phone, c.phone),
        last_seen_at = now(),
        updated_at = now()
      returning c.id, c.business_id, c.external_id, (c.xmax = 0) as created`,
  );
  // Both drivers answer { rows }; the generic PgDatabase type cannot say so.
  const rows = (
    result as unknown as {
      rows: { id: string | number; business_id: string | number; external_id: string; created: boolean }[];
    }
  ).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    businessId: Number(r.business_id),
    externalId: r.external_id,
    created: r.created === true,
  }));
}

/** The business's customers with this phone number (E.164 as stored), oldest first. */
export async function findCustomersByPhone(
  db: Queryable,
  businessId: number,
  phone: string,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.phone, phone)))
    .orderBy(customers.id)
    .limit(10);
}

/** The customers of a business with this email address (any case), oldest first. */
export async function findCustomersByEmail(
  db: Queryable,
  businessId: number,
  email: string,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), sql`lower(${customers.email}) = ${email.toLowerCase()}`))
    .orderBy(customers.id)
    .limit(10);
}
