// The only code that writes kb_imports and kb_import_items.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { kbImportItems, kbImports } from '../../db/schema';

export type ImportRow = typeof kbImports.$inferSelect;
export type ImportItemRow = typeof kbImportItems.$inferSelect;
export type ImportCounts = { total: number; processed: number; imported: number; failed: number };

export async function insertImport(
  db: Queryable,
  row: Omit<typeof kbImports.$inferInsert, 'id'>,
  items: { kind: 'url' | 'file'; source: string; fileKey?: string | null }[],
): Promise<ImportRow> {
  const [created] = await db.insert(kbImports).values(row).returning();
  await insertItems(db, created!.id, 0, items);
  return created!;
}

export async function insertItems(
  db: Queryable,
  importId: number,
  from: number,
  items: { kind: 'url' | 'file'; source: string; fileKey?: string | null }[],
): Promise<void> {
  if (items.length === 0) return;
  await db.insert(kbImportItems).values(
    items.map((item, i) => ({
      importId,
      position: from + i,
      kind: item.kind,
      source: item.source,
      fileKey: item.fileKey ?? null,
    })),
  );
}

export async function findImport(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<ImportRow | undefined> {
  const [row] = await db
    .select()
    .from(kbImports)
    .where(and(eq(kbImports.businessId, businessId), eq(kbImports.id, id)));
  return row;
}

export async function findImportById(db: Queryable, id: number): Promise<ImportRow | undefined> {
  const [row] = await db.select().from(kbImports).where(eq(kbImports.id, id));
  return row;
}

export async function listImports(db: Queryable, businessId: number, limit: number): Promise<ImportRow[]> {
  return db
    .select()
    .from(kbImports)
    .where(eq(kbImports.businessId, businessId))
    .orderBy(desc(kbImports.createdAt), desc(kbImports.id))
    .limit(limit);
}

export async function itemsOf(db: Queryable, importId: number): Promise<ImportItemRow[]> {
  return db
    .select()
    .from(kbImportItems)
    .where(eq(kbImportItems.importId, importId))
    .orderBy(asc(kbImportItems.position));
}

/** Item counts per import: all, done (not pending), imported or updated, failed. */
export async function countsOf(db: Queryable, importIds: number[]): Promise<Map<number, ImportCounts>> {
  const counts = new Map<number, ImportCounts>();
  if (importIds.length === 0) return counts;
  const rows = await db
    .select({
      importId: kbImportItems.importId,
      total: sql<number>`count(*)::int`,
      processed: sql<number>`(count(*) filter (where ${kbImportItems.status} <> 'pending'))::int`,
      imported: sql<number>`(count(*) filter (where ${kbImportItems.status} in ('imported', 'updated')))::int`,
      failed: sql<number>`(count(*) filter (where ${kbImportItems.status} = 'failed'))::int`,
    })
    .from(kbImportItems)
    .where(inArray(kbImportItems.importId, importIds))
    .groupBy(kbImportItems.importId);
  for (const r of rows) counts.set(r.importId, r);
  return counts;
}

export async function setImportStatus(
  db: Queryable,
  id: number,
  status: ImportRow['status'],
  error: string | null = null,
): Promise<void> {
  const finished = status === 'done' || status === 'failed';
  await db
    .update(kbImports)
    .set({ status, error, updatedAt: new Date(), ...(finished ? { finishedAt: new Date() } : {}) })
    .where(eq(kbImports.id, id));
}

export async function finishItem(
  db: Queryable,
  itemId: number,
  outcome: {
    status: 'imported' | 'updated' | 'failed';
    articleId?: number | null;
    title?: string | null;
    error?: string | null;
  },
): Promise<void> {
  await db
    .update(kbImportItems)
    .set({
      status: outcome.status,
      articleId: outcome.articleId ?? null,
      title: outcome.title ?? null,
      error: outcome.error ?? null,
      fileKey: null,
    })
    .where(eq(kbImportItems.id, itemId));
}
