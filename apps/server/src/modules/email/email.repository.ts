// The only code that touches `email_batches` (bulk sends; their sends carry the batch id as cause_id)
// and `email_inboxes` (a business's inbox addresses, issue 30).
import { and, desc, eq } from 'drizzle-orm';
import { emailBatches, emailInboxes } from '../../db/schema';
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

export type EmailInboxRow = typeof emailInboxes.$inferSelect;

/** An inbox address (lower case) of any business: addresses are unique across businesses. */
export async function findInboxByAddress(db: Queryable, address: string): Promise<EmailInboxRow | null> {
  const [row] = await db.select().from(emailInboxes).where(eq(emailInboxes.address, address)).limit(1);
  return row ?? null;
}

export async function listInboxes(db: Queryable, businessId: number): Promise<EmailInboxRow[]> {
  return db
    .select()
    .from(emailInboxes)
    .where(eq(emailInboxes.businessId, businessId))
    .orderBy(desc(emailInboxes.id));
}

export async function findInbox(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<EmailInboxRow | null> {
  const [row] = await db
    .select()
    .from(emailInboxes)
    .where(and(eq(emailInboxes.businessId, businessId), eq(emailInboxes.id, id)))
    .limit(1);
  return row ?? null;
}

/** Inserts an inbox; null when the address is taken (by this business or another). */
export async function insertInbox(
  db: Queryable,
  values: typeof emailInboxes.$inferInsert,
): Promise<EmailInboxRow | null> {
  const [row] = await db.insert(emailInboxes).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function deleteInbox(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(emailInboxes)
    .where(and(eq(emailInboxes.businessId, businessId), eq(emailInboxes.id, id)))
    .returning({ id: emailInboxes.id });
  return rows.length === 1;
}

/** Does a domain of the business receive replies through Titan (it has an inbox address)? */
export async function domainHasInbox(db: Queryable, businessId: number, domainId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: emailInboxes.id })
    .from(emailInboxes)
    .where(and(eq(emailInboxes.businessId, businessId), eq(emailInboxes.domainId, domainId)))
    .limit(1);
  return row !== undefined;
}
