// The only code that touches `email_batches` (bulk sends; their sends carry the batch id as cause_id).
import { and, eq } from 'drizzle-orm';
import { emailBatches } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type EmailBatchRow = typeof emailBatches.$inferSelect;

export async function insertBatch(
  db: Queryable,
  values: { businessId: number; total: number; createdBy: number | null },
): Promise<EmailBatchRow> {
  const [row] = await db.insert(emailBatches).values(values).returning();
  return row!;
}

export async function findBatch(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<EmailBatchRow | null> {
  const [row] = await db
    .select()
    .from(emailBatches)
    .where(and(eq(emailBatches.businessId, businessId), eq(emailBatches.id, id)))
    .limit(1);
  return row ?? null;
}
