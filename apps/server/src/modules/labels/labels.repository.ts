// The only code that writes labels, conversation_labels and customer_labels. Other modules read a
// row's labels through the SQL fragments below (one subquery in their own statement).
import { and, asc, eq, getTableName, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TLabelRef } from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { conversationLabels, customerLabels, labels } from '../../db/schema';

export type LabelRow = typeof labels.$inferSelect;

export async function listLabels(db: Queryable, businessId: number): Promise<LabelRow[]> {
  return db
    .select()
    .from(labels)
    .where(eq(labels.businessId, businessId))
    .orderBy(asc(sql`lower(${labels.name})`), asc(labels.id));
}

export async function findLabel(db: Queryable, businessId: number, id: number): Promise<LabelRow | null> {
  const [row] = await db
    .select()
    .from(labels)
    .where(and(eq(labels.businessId, businessId), eq(labels.id, id)))
    .limit(1);
  return row ?? null;
}

/** The business's labels among `ids` (any other business's are simply not found). */
export async function findLabels(db: Queryable, businessId: number, ids: number[]): Promise<LabelRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(labels)
    .where(and(eq(labels.businessId, businessId), inArray(labels.id, ids)))
    .orderBy(asc(sql`lower(${labels.name})`), asc(labels.id));
}

/** A label of the business whose name equals `name` but for case (not `exceptId`). */
export async function findLabelByName(
  db: Queryable,
  businessId: number,
  name: string,
  exceptId?: number,
): Promise<LabelRow | null> {
  const [row] = await db
    .select()
    .from(labels)
    .where(
      and(
        eq(labels.businessId, businessId),
        sql`lower(${labels.name}) = lower(${name})`,
        ...(exceptId !== undefined ? [sql`${labels.id} <> ${exceptId}`] : []),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertLabel(
  db: Queryable,
  values: { businessId: number; name: string; color: string },
): Promise<LabelRow> {
  const [row] = await db.insert(labels).values(values).returning();
  return row!;
}

export async function updateLabel(
  db: Queryable,
  businessId: number,
  id: number,
  patch: { name?: string; color?: string },
): Promise<LabelRow | null> {
  const [row] = await db
    .update(labels)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(labels.businessId, businessId), eq(labels.id, id)))
    .returning();
  return row ?? null;
}

/** Removes the label; it leaves every conversation and customer it was on (rows cascade). */
export async function deleteLabel(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(labels)
    .where(and(eq(labels.businessId, businessId), eq(labels.id, id)))
    .returning({ id: labels.id });
  return rows.length === 1;
}

/** The conversations that carry a label (so their rows can be announced as changed). */
export async function conversationsWithLabel(db: Queryable, labelId: number): Promise<number[]> {
  const rows = await db
    .select({ id: conversationLabels.conversationId })
    .from(conversationLabels)
    .where(eq(conversationLabels.labelId, labelId));
  return rows.map((r) => r.id);
}

// ---- The labels on conversations and customers ----

type Target = 'conversation' | 'customer';
const link = (target: Target) => (target === 'conversation' ? conversationLabels : customerLabels);
const ownerColumn = (target: Target) =>
  target === 'conversation' ? conversationLabels.conversationId : customerLabels.customerId;

/** The label ids each of these conversations (or customers) carries now. */
export async function labelIdsOf(
  db: Queryable,
  target: Target,
  ownerIds: number[],
): Promise<Map<number, number[]>> {
  const table = link(target);
  const owner = ownerColumn(target);
  const rows =
    ownerIds.length === 0
      ? []
      : await db.select({ owner, labelId: table.labelId }).from(table).where(inArray(owner, ownerIds));
  const map = new Map<number, number[]>(ownerIds.map((id) => [id, []]));
  for (const r of rows) map.get(r.owner)?.push(r.labelId);
  return map;
}

export async function addLabels(
  db: Queryable,
  target: Target,
  pairs: { ownerId: number; labelId: number }[],
): Promise<void> {
  if (pairs.length === 0) return;
  if (target === 'conversation') {
    await db
      .insert(conversationLabels)
      .values(pairs.map((p) => ({ conversationId: p.ownerId, labelId: p.labelId })))
      .onConflictDoNothing();
  } else {
    await db
      .insert(customerLabels)
      .values(pairs.map((p) => ({ customerId: p.ownerId, labelId: p.labelId })))
      .onConflictDoNothing();
  }
}

export async function removeLabels(
  db: Queryable,
  target: Target,
  ownerId: number,
  labelIds: number[],
): Promise<void> {
  if (labelIds.length === 0) return;
  const table = link(target);
  await db.delete(table).where(and(eq(ownerColumn(target), ownerId), inArray(table.labelId, labelIds)));
}

// ---- Fragments for other modules' reads ----

const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * The labels of the row whose id is `ownerId` (a column of the outer statement), as a JSON array
 * of `{id, name, color}` ordered by name: one subquery in the caller's statement.
 */
export function labelsJson(target: Target, ownerId: AnyPgColumn): SQL<TLabelRef[]> {
  const table = target === 'conversation' ? 'conversation_labels' : 'customer_labels';
  const column = target === 'conversation' ? 'conversation_id' : 'customer_id';
  return sql<
    TLabelRef[]
  >`coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) order by lower(l.name), l.id)
    from ${sql.identifier(table)} x join ${labels} l on l.id = x.label_id
    where x.${sql.identifier(column)} = ${qualified(ownerId)}), '[]'::json)`;
}

/** The row (id in `ownerId`) carries every label of `labelIds` (SQL values or placeholders). */
export function hasEveryLabel(
  target: Target,
  ownerId: AnyPgColumn,
  labelIds: (SQL | Placeholder | number)[],
): SQL[] {
  const table = target === 'conversation' ? 'conversation_labels' : 'customer_labels';
  const column = target === 'conversation' ? 'conversation_id' : 'customer_id';
  return labelIds.map(
    (id) =>
      sql`exists (select 1 from ${sql.identifier(table)} x where x.${sql.identifier(column)} = ${qualified(ownerId)} and x.label_id = ${id})`,
  );
}
