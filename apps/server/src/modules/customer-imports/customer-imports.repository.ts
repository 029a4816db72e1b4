// The only code that touches `customer_imports` and `customer_import_errors`.
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { customerImportErrors, customerImports } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type ImportRow = typeof customerImports.$inferSelect;
export type NewImport = typeof customerImports.$inferInsert;

export async function insertImport(db: Queryable, values: NewImport): Promise<ImportRow> {
  const [row] = await db.insert(customerImports).values(values).returning();
  return row!;
}

export async function findImport(db: Queryable, businessId: number, id: string): Promise<ImportRow | null> {
  const [row] = await db
    .select()
    .from(customerImports)
    .where(and(eq(customerImports.businessId, businessId), eq(customerImports.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findImportById(db: Queryable, id: string): Promise<ImportRow | null> {
  const [row] = await db.select().from(customerImports).where(eq(customerImports.id, id)).limit(1);
  return row ?? null;
}

/** Takes an unfinished import for running (a resumed one too), with its encoding settled. */
export async function startRunning(
  db: Queryable,
  id: string,
  values: { encoding: string; totalRows: number | null },
): Promise<ImportRow | null> {
  const [row] = await db
    .update(customerImports)
    .set({ status: 'running', encoding: values.encoding, totalRows: values.totalRows, updatedAt: new Date() })
    .where(and(eq(customerImports.id, id), sql`${customerImports.status} in ('queued', 'running')`))
    .returning();
  return row ?? null;
}

/** A batch done: its counts added and the rows handled so far, in the batch's transaction. */
export async function advance(
  db: Queryable,
  id: string,
  batch: { processed: number; inserted: number; updated: number; skipped: number; failed: number },
): Promise<void> {
  await db
    .update(customerImports)
    .set({
      processedRows: sql`${customerImports.processedRows} + ${batch.processed}`,
      inserted: sql`${customerImports.inserted} + ${batch.inserted}`,
      updated: sql`${customerImports.updated} + ${batch.updated}`,
      skipped: sql`${customerImports.skipped} + ${batch.skipped}`,
      failed: sql`${customerImports.failed} + ${batch.failed}`,
      updatedAt: new Date(),
    })
    .where(eq(customerImports.id, id));
}

export async function finish(
  db: Queryable,
  id: string,
  values: { status: 'done' | 'failed'; error?: string | null; totalRows?: number },
): Promise<void> {
  await db
    .update(customerImports)
    .set({
      status: values.status,
      error: values.error ?? null,
      ...(values.totalRows !== undefined ? { totalRows: values.totalRows } : {}),
      finishedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(customerImports.id, id));
}

export async function insertErrors(
  db: Queryable,
  importId: string,
  errors: { rowNumber: number; reason: string; values: string[] }[],
): Promise<void> {
  if (errors.length === 0) return;
  await db.insert(customerImportErrors).values(errors.map((e) => ({ importId, ...e })));
}

/** A page of an import's refused rows, in file order, after `afterId`. */
export async function errorsAfter(db: Queryable, importId: string, afterId: number, limit: number) {
  return db
    .select()
    .from(customerImportErrors)
    .where(and(eq(customerImportErrors.importId, importId), gt(customerImportErrors.id, afterId)))
    .orderBy(asc(customerImportErrors.id))
    .limit(limit);
}

/** A business's import errors whose row holds any of `values` (a customer's erasure). */
export async function deleteErrorsNaming(db: Queryable, businessId: number, values: string[]): Promise<void> {
  const needles = values.filter((v) => v.length >= 3).map((v) => v.toLowerCase());
  if (needles.length === 0) return;
  await db.delete(customerImportErrors).where(
    and(
      sql`${customerImportErrors.importId} in (select id from customer_imports where business_id = ${businessId})`,
      sql`exists (select 1 from unnest(${sql.param(needles)}::text[]) n(v)
          where strpos(lower(${customerImportErrors.values}::text), n.v) > 0)`,
    ),
  );
}
