// The only code that touches `consent_events`: the proof of opt-ins, made by the people themselves
// (forms, confirmation links) or claimed by the business with its own proof (imports).
import { and, eq, sql } from 'drizzle-orm';
import { consentEvents } from '../../db/schema';
import type { Queryable } from '../../db/client';

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

/**
 * One `imported` event per customer for the same consent on one channel, from one import and
 * proof: a batch in one statement (the ids as an array parameter, however many), each with the
 * address the consent is about.
 */
export async function insertImportedConsentEvents(
  db: Queryable,
  record: {
    businessId: number;
    customerIds: number[];
    channel: ConsentEventRow['channel'];
    status: ConsentEventRow['status'];
    proof: string;
    importId: string;
  },
): Promise<void> {
  if (record.customerIds.length === 0) return;
  const address = record.channel === 'email' ? sql`c.email` : sql`c.phone`;
  await db.execute(sql`insert into consent_events
      (business_id, customer_id, channel, address, status, source, method, reference, proof)
    select ${record.businessId}, c.id, ${record.channel}, ${address}, ${record.status}, 'import',
      'imported', ${`import:${record.importId}`}, ${record.proof}
    from customers c
    where c.business_id = ${record.businessId}
      and c.id = any(${sql.param(record.customerIds)}::bigint[])
      and ${address} is not null`);
}
