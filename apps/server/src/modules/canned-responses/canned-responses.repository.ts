// The only code that reads and writes canned_responses.
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { cannedResponses } from '../../db/schema';

export type CannedRow = typeof cannedResponses.$inferSelect;
export type CannedValues = Pick<
  typeof cannedResponses.$inferInsert,
  'shortCode' | 'content' | 'attachmentKey' | 'attachmentName' | 'attachmentMimeType' | 'attachmentSize'
>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The business's canned responses by short code; `search` matches a code's start or the text. */
export async function listCanned(db: Queryable, businessId: number, search?: string): Promise<CannedRow[]> {
  const term = search ? escapeLike(search) : null;
  return db
    .select()
    .from(cannedResponses)
    .where(
      and(
        eq(cannedResponses.businessId, businessId),
        term
          ? or(ilike(cannedResponses.shortCode, `${term}%`), ilike(cannedResponses.content, `%${term}%`))
          : undefined,
      ),
    )
    .orderBy(
      // A code starting with the search first, then by code.
      ...(term ? [sql`${cannedResponses.shortCode} not ilike ${`${term}%`}`] : []),
      asc(cannedResponses.shortCode),
    )
    .limit(500);
}

export async function findCanned(db: Queryable, businessId: number, id: number): Promise<CannedRow | null> {
  const [row] = await db
    .select()
    .from(cannedResponses)
    .where(and(eq(cannedResponses.businessId, businessId), eq(cannedResponses.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findCannedByCode(
  db: Queryable,
  businessId: number,
  shortCode: string,
): Promise<CannedRow | null> {
  const [row] = await db
    .select()
    .from(cannedResponses)
    .where(and(eq(cannedResponses.businessId, businessId), eq(cannedResponses.shortCode, shortCode)))
    .limit(1);
  return row ?? null;
}

export async function insertCanned(
  db: Queryable,
  values: CannedValues & { businessId: number; createdBy: number | null },
): Promise<CannedRow> {
  const [row] = await db.insert(cannedResponses).values(values).returning();
  return row!;
}

export async function updateCanned(
  db: Queryable,
  businessId: number,
  id: number,
  patch: Partial<CannedValues>,
): Promise<CannedRow | null> {
  const [row] = await db
    .update(cannedResponses)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(cannedResponses.businessId, businessId), eq(cannedResponses.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteCanned(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(cannedResponses)
    .where(and(eq(cannedResponses.businessId, businessId), eq(cannedResponses.id, id)))
    .returning({ id: cannedResponses.id });
  return rows.length === 1;
}
