// The only code that touches `qr_forms` and `qr_form_submissions`.
import { and, count, eq } from 'drizzle-orm';
import { qrFormSubmissions, qrForms } from '../../db/schema';
import type { Queryable } from '../../db/client';
import { advisoryLock } from '../../db/sql';

export type QrFormRow = typeof qrForms.$inferSelect;
export type QrFormValues = Omit<typeof qrForms.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export async function findForm(db: Queryable, businessId: number): Promise<QrFormRow | null> {
  const [row] = await db.select().from(qrForms).where(eq(qrForms.businessId, businessId)).limit(1);
  return row ?? null;
}

export async function findFormBySlug(
  db: Queryable,
  businessId: number,
  slug: string,
): Promise<QrFormRow | null> {
  const [row] = await db
    .select()
    .from(qrForms)
    .where(and(eq(qrForms.businessId, businessId), eq(qrForms.slug, slug)))
    .limit(1);
  return row ?? null;
}

/** Creates the business's form or replaces it (one per business). */
export async function saveForm(db: Queryable, values: QrFormValues): Promise<QrFormRow> {
  const { businessId: _business, ...changes } = values;
  const [row] = await db
    .insert(qrForms)
    .values(values)
    .onConflictDoUpdate({ target: qrForms.businessId, set: { ...changes, updatedAt: new Date() } })
    .returning();
  return row!;
}

export async function countSubmissions(db: Queryable, formId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(qrFormSubmissions)
    .where(eq(qrFormSubmissions.formId, formId));
  return Number(row?.n ?? 0);
}

export async function insertSubmission(
  db: Queryable,
  values: typeof qrFormSubmissions.$inferInsert,
): Promise<number> {
  const [row] = await db.insert(qrFormSubmissions).values(values).returning({ id: qrFormSubmissions.id });
  return row!.id;
}

/**
 * Serialises a business's submissions until the transaction ends, so that two naming the same
 * person (a double tap on Send) find one customer instead of making two. One lock per business:
 * a submission's transaction takes milliseconds, far below any rate a form sees.
 */
export async function lockBusinessSubmissions(tx: Queryable, businessId: number): Promise<void> {
  await advisoryLock(tx, `qr-form:${businessId}`);
}

/** Export and erase (GDPR): a customer's form submissions (the consent each showed and gave). */
export async function customerSubmissions(db: Queryable, businessId: number, customerId: number) {
  return db
    .select()
    .from(qrFormSubmissions)
    .where(and(eq(qrFormSubmissions.businessId, businessId), eq(qrFormSubmissions.customerId, customerId)));
}

export async function deleteCustomerSubmissions(db: Queryable, businessId: number, customerId: number) {
  await db
    .delete(qrFormSubmissions)
    .where(and(eq(qrFormSubmissions.businessId, businessId), eq(qrFormSubmissions.customerId, customerId)));
}
