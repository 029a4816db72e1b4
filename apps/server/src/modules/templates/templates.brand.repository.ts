// The only code that touches email_brands and email_blocks (issue 31): a business's brand for mail
// and the blocks its staff saved from the visual editor.
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailBlocks, emailBrands } from '../../db/schema';
import { sqlStateOf } from '../../platform/db-errors';

export type BrandRow = typeof emailBrands.$inferSelect;
export type BlockRow = typeof emailBlocks.$inferSelect;
export type BrandValues = Omit<BrandRow, 'businessId' | 'updatedAt'>;

export class BlockNameTakenError extends Error {}

export async function findBrand(db: Db, businessId: number): Promise<BrandRow | null> {
  const [row] = await db.select().from(emailBrands).where(eq(emailBrands.businessId, businessId)).limit(1);
  return row ?? null;
}

/** The business's brand, written whole: the first save inserts it, later ones replace it. */
export async function upsertBrand(db: Db, businessId: number, values: BrandValues): Promise<BrandRow> {
  const updatedAt = new Date();
  const [row] = await db
    .insert(emailBrands)
    .values({ businessId, ...values, updatedAt })
    .onConflictDoUpdate({ target: emailBrands.businessId, set: { ...values, updatedAt } })
    .returning();
  return row!;
}

/**
 * The logo and primary colour alone (the preference centre's look, `PUT /api/consent/page/`): a
 * business with no brand yet gets one made of `defaults` and these two; one with a brand keeps the
 * rest of it.
 */
export async function upsertBrandLook(
  db: Db,
  businessId: number,
  look: { logoUrl?: string | null; primaryColor?: string },
  defaults: BrandValues,
): Promise<BrandRow> {
  const updatedAt = new Date();
  const [row] = await db
    .insert(emailBrands)
    .values({ businessId, ...defaults, ...look, updatedAt })
    .onConflictDoUpdate({ target: emailBrands.businessId, set: { ...look, updatedAt } })
    .returning();
  return row!;
}

/** By name, as the editor's Blocks panel lists them. */
export async function listBlocks(db: Db, businessId: number): Promise<BlockRow[]> {
  return db
    .select()
    .from(emailBlocks)
    .where(eq(emailBlocks.businessId, businessId))
    .orderBy(asc(emailBlocks.name), asc(emailBlocks.id));
}

export async function countBlocks(db: Db, businessId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emailBlocks)
    .where(eq(emailBlocks.businessId, businessId));
  return row?.n ?? 0;
}

export async function insertBlock(
  db: Db,
  businessId: number,
  values: { name: string; content: string; createdBy: number | null },
): Promise<BlockRow> {
  try {
    const [row] = await db
      .insert(emailBlocks)
      .values({ businessId, ...values })
      .returning();
    return row!;
  } catch (err) {
    if (sqlStateOf(err) === '23505') throw new BlockNameTakenError();
    throw err;
  }
}

export async function deleteBlock(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(emailBlocks)
    .where(and(eq(emailBlocks.businessId, businessId), eq(emailBlocks.id, id)))
    .returning({ id: emailBlocks.id });
  return rows.length > 0;
}
