// The only code that touches stored_files.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { storedFiles } from '../../db/schema';

export type StoredFileRow = typeof storedFiles.$inferSelect;

export async function insertStoredFile(
  db: Db,
  values: typeof storedFiles.$inferInsert,
): Promise<StoredFileRow> {
  const [row] = await db.insert(storedFiles).values(values).returning();
  return row!;
}

export async function findStoredFile(db: Db, key: string): Promise<StoredFileRow | null> {
  const [row] = await db.select().from(storedFiles).where(eq(storedFiles.key, key)).limit(1);
  return row ?? null;
}

export async function findBusinessFile(
  db: Db,
  businessId: number,
  key: string,
): Promise<StoredFileRow | null> {
  const [row] = await db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.key, key), eq(storedFiles.businessId, businessId)))
    .limit(1);
  return row ?? null;
}
