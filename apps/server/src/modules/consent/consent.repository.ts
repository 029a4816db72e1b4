// The only code that touches `consent_events`, `consent_topics` and `consent_topic_optouts`: the
// proof of opt-ins, made by the people themselves
// (forms, confirmation links) or claimed by the business with its own proof (imports).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { consentEvents, consentTopicOptouts, consentTopics } from '../../db/schema';
import { sqlStateOf } from '../../platform/db-errors';
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

/** The latest confirmation asked of this address on a channel (the words shown, kept as proof). */
export async function findPendingRequest(
  db: Queryable,
  businessId: number,
  channel: ConsentEventRow['channel'],
  address: string,
): Promise<ConsentEventRow | null> {
  const [row] = await db
    .select()
    .from(consentEvents)
    .where(
      and(
        eq(consentEvents.businessId, businessId),
        eq(consentEvents.channel, channel),
        eq(consentEvents.address, address),
        eq(consentEvents.method, 'confirmation_sent'),
      ),
    )
    .orderBy(sql`${consentEvents.createdAt} desc`, sql`${consentEvents.id} desc`)
    .limit(1);
  return row ?? null;
}

// ---- Topics ----

export type TopicRow = typeof consentTopics.$inferSelect;

export async function listTopics(db: Queryable, businessId: number): Promise<TopicRow[]> {
  return db
    .select()
    .from(consentTopics)
    .where(eq(consentTopics.businessId, businessId))
    .orderBy(asc(sql`lower(${consentTopics.name})`), asc(consentTopics.id));
}

export async function findTopic(db: Queryable, businessId: number, id: number): Promise<TopicRow | null> {
  const [row] = await db
    .select()
    .from(consentTopics)
    .where(and(eq(consentTopics.businessId, businessId), eq(consentTopics.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertTopic(
  db: Queryable,
  values: { businessId: number; name: string; description: string },
): Promise<TopicRow> {
  const [row] = await db.insert(consentTopics).values(values).returning();
  return row!;
}

export async function updateTopic(
  db: Queryable,
  businessId: number,
  id: number,
  patch: { name?: string; description?: string },
): Promise<TopicRow | null> {
  const [row] = await db
    .update(consentTopics)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(consentTopics.businessId, businessId), eq(consentTopics.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteTopic(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(consentTopics)
    .where(and(eq(consentTopics.businessId, businessId), eq(consentTopics.id, id)))
    .returning({ id: consentTopics.id });
  return rows.length === 1;
}

export const isTopicNameTaken = (err: unknown) => sqlStateOf(err) === '23505';

/** Of these customers, the topic ids each left. */
export async function optoutsOf(
  db: Queryable,
  businessId: number,
  customerIds: number[],
): Promise<{ topicId: number; customerId: number }[]> {
  if (customerIds.length === 0) return [];
  return db
    .select({ topicId: consentTopicOptouts.topicId, customerId: consentTopicOptouts.customerId })
    .from(consentTopicOptouts)
    .where(
      and(
        eq(consentTopicOptouts.businessId, businessId),
        inArray(consentTopicOptouts.customerId, customerIds),
      ),
    );
}

/** Of these customers, those who left the topic. */
export async function customersOutOf(
  db: Queryable,
  topicId: number,
  customerIds: number[],
): Promise<number[]> {
  if (customerIds.length === 0) return [];
  const rows = await db
    .select({ id: consentTopicOptouts.customerId })
    .from(consentTopicOptouts)
    .where(
      and(
        eq(consentTopicOptouts.topicId, topicId),
        sql`${consentTopicOptouts.customerId} = any(${sql.param(customerIds)}::bigint[])`,
      ),
    );
  return rows.map((r) => r.id);
}

export async function addOptouts(
  db: Queryable,
  businessId: number,
  topicIds: number[],
  customerIds: number[],
): Promise<void> {
  const values = topicIds.flatMap((topicId) =>
    customerIds.map((customerId) => ({ businessId, topicId, customerId })),
  );
  if (values.length === 0) return;
  await db.insert(consentTopicOptouts).values(values).onConflictDoNothing();
}

export async function removeOptouts(
  db: Queryable,
  businessId: number,
  topicIds: number[],
  customerIds: number[],
): Promise<void> {
  if (topicIds.length === 0 || customerIds.length === 0) return;
  await db
    .delete(consentTopicOptouts)
    .where(
      and(
        eq(consentTopicOptouts.businessId, businessId),
        inArray(consentTopicOptouts.topicId, topicIds),
        inArray(consentTopicOptouts.customerId, customerIds),
      ),
    );
}

// ---- A customer's export and erase ----

/** The consent history of a customer is erased with them: no address or IP stays. */
export async function deleteCustomerConsentEvents(
  db: Queryable,
  businessId: number,
  customerId: number,
  addresses: string[],
): Promise<void> {
  await db
    .delete(consentEvents)
    .where(
      and(
        eq(consentEvents.businessId, businessId),
        addresses.length > 0
          ? sql`(${consentEvents.customerId} = ${customerId} or ${consentEvents.address} = any(${sql.param(addresses)}::text[]))`
          : eq(consentEvents.customerId, customerId),
      ),
    );
}

/** Of these topic ids, those that are the business's. */
export async function topicIdsAmong(db: Queryable, businessId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: consentTopics.id })
    .from(consentTopics)
    .where(and(eq(consentTopics.businessId, businessId), inArray(consentTopics.id, ids)));
  return rows.map((r) => r.id);
}
