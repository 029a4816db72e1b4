// The only code that touches `consent_events`: the proof of opt-ins people made themselves.
import { and, eq } from 'drizzle-orm';
import { consentEvents } from '../../db/schema';
import type { Queryable } from '../auth/auth.repository';

export type ConsentEventRow = typeof consentEvents.$inferSelect;
export type ConsentEventValues = Omit<typeof consentEvents.$inferInsert, 'id' | 'createdAt'>;

export async function insertConsentEvent(db: Queryable, values: ConsentEventValues): Promise<void> {
  await db.insert(consentEvents).values(values);
}

/** The double opt-in already confirmed for this reference and channel, if any. */
export async function findConfirmation(
  db: Queryable,
  businessId: number,
  reference: string,
  channel: ConsentEventRow['channel'],
): Promise<ConsentEventRow | null> {
  const [row] = await db
    .select()
    .from(consentEvents)
    .where(
      and(
        eq(consentEvents.businessId, businessId),
        eq(consentEvents.reference, reference),
        eq(consentEvents.channel, channel),
        eq(consentEvents.method, 'double_opt_in'),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function listConsentEvents(
  db: Queryable,
  businessId: number,
  customerId: number,
): Promise<ConsentEventRow[]> {
  return db
    .select()
    .from(consentEvents)
    .where(and(eq(consentEvents.businessId, businessId), eq(consentEvents.customerId, customerId)))
    .orderBy(consentEvents.createdAt, consentEvents.id);
}
