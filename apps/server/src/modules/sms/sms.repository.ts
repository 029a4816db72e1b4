// The only code that touches `sms_accounts` and `sms_inbound_messages`.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { smsAccounts, smsInboundMessages } from '../../db/schema';

export type SmsAccountRow = typeof smsAccounts.$inferSelect;
export type SmsInboundRow = typeof smsInboundMessages.$inferSelect;

export async function findAccountByBusiness(
  db: Queryable,
  businessId: number,
): Promise<SmsAccountRow | null> {
  const [row] = await db.select().from(smsAccounts).where(eq(smsAccounts.businessId, businessId)).limit(1);
  return row ?? null;
}

export async function findAccountBySid(db: Queryable, accountSid: string): Promise<SmsAccountRow | null> {
  const [row] = await db.select().from(smsAccounts).where(eq(smsAccounts.accountSid, accountSid)).limit(1);
  return row ?? null;
}

export async function upsertAccount(
  db: Queryable,
  values: Omit<typeof smsAccounts.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
): Promise<SmsAccountRow> {
  const [row] = await db
    .insert(smsAccounts)
    .values(values)
    .onConflictDoUpdate({
      target: smsAccounts.businessId,
      set: {
        accountSid: values.accountSid,
        authTokenSealed: values.authTokenSealed,
        apiKeySid: values.apiKeySid ?? null,
        apiKeySecretSealed: values.apiKeySecretSealed ?? null,
        fromNumber: values.fromNumber ?? null,
        messagingServiceSid: values.messagingServiceSid ?? null,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

/** Keeps an inbound text once per message SID; null when Twilio delivered it before. */
export async function insertInbound(
  db: Queryable,
  values: typeof smsInboundMessages.$inferInsert,
): Promise<SmsInboundRow | null> {
  const [row] = await db.insert(smsInboundMessages).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function listInbound(
  db: Db,
  businessId: number,
  filter: { customerId?: number },
  limit: number,
  offset: number,
): Promise<{ rows: SmsInboundRow[]; count: number }> {
  const where = and(
    eq(smsInboundMessages.businessId, businessId),
    filter.customerId !== undefined ? eq(smsInboundMessages.customerId, filter.customerId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(smsInboundMessages)
      .where(where)
      .orderBy(desc(smsInboundMessages.receivedAt), desc(smsInboundMessages.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(smsInboundMessages)
      .where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Erase and export (GDPR): the texts a customer sent (by customer or from their number). */
const customerInboundWhere = (businessId: number, customerId: number, phone: string | null) =>
  and(
    eq(smsInboundMessages.businessId, businessId),
    phone
      ? sql`(${smsInboundMessages.customerId} = ${customerId} or ${smsInboundMessages.fromNumber} = ${phone})`
      : eq(smsInboundMessages.customerId, customerId),
  );

export async function customerInbound(
  db: Queryable,
  businessId: number,
  customerId: number,
  phone: string | null,
) {
  return db
    .select()
    .from(smsInboundMessages)
    .where(customerInboundWhere(businessId, customerId, phone));
}

export async function deleteCustomerInbound(
  db: Queryable,
  businessId: number,
  customerId: number,
  phone: string | null,
): Promise<void> {
  await db.delete(smsInboundMessages).where(customerInboundWhere(businessId, customerId, phone));
}
