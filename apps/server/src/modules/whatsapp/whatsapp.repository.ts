// The only code that touches the WhatsApp tables.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { whatsappAccounts, whatsappStatusEvents, whatsappWebhookEvents, waMessages } from '../../db/schema';
import type { Queryable } from '../auth/auth.repository';

export type WhatsappAccountRow = typeof whatsappAccounts.$inferSelect;

export async function findAccountByBusiness(db: Db, businessId: number): Promise<WhatsappAccountRow | null> {
  const [row] = await db
    .select()
    .from(whatsappAccounts)
    .where(eq(whatsappAccounts.businessId, businessId))
    .limit(1);
  return row ?? null;
}

export async function findAccountByPhoneNumberId(
  db: Db,
  phoneNumberId: string,
): Promise<WhatsappAccountRow | null> {
  const [row] = await db
    .select()
    .from(whatsappAccounts)
    .where(eq(whatsappAccounts.phoneNumberId, phoneNumberId))
    .limit(1);
  return row ?? null;
}

export async function findAccountsByVerifyToken(db: Db, token: string): Promise<WhatsappAccountRow[]> {
  return db.select().from(whatsappAccounts).where(eq(whatsappAccounts.verifyToken, token)).limit(2);
}

export async function findAccountById(db: Queryable, id: number): Promise<WhatsappAccountRow | null> {
  const [row] = await db.select().from(whatsappAccounts).where(eq(whatsappAccounts.id, id)).limit(1);
  return row ?? null;
}

export async function upsertAccount(
  db: Db,
  values: typeof whatsappAccounts.$inferInsert,
): Promise<WhatsappAccountRow> {
  const [row] = await db
    .insert(whatsappAccounts)
    .values(values)
    .onConflictDoUpdate({
      target: whatsappAccounts.businessId,
      set: {
        phoneNumberId: values.phoneNumberId,
        wabaId: values.wabaId,
        displayPhoneNumber: values.displayPhoneNumber,
        verifyToken: values.verifyToken,
        accessTokenSealed: values.accessTokenSealed,
        appSecretSealed: values.appSecretSealed,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function insertWebhookEvent(
  db: Db,
  accountId: number,
  payload: Record<string, unknown>,
): Promise<number> {
  const [row] = await db
    .insert(whatsappWebhookEvents)
    .values({ accountId, payload })
    .returning({ id: whatsappWebhookEvents.id });
  return row!.id;
}

export async function findWebhookEvent(db: Db, id: number) {
  const [row] = await db
    .select()
    .from(whatsappWebhookEvents)
    .where(eq(whatsappWebhookEvents.id, id))
    .limit(1);
  return row ?? null;
}

export async function markWebhookEventProcessed(db: Queryable, id: number) {
  await db
    .update(whatsappWebhookEvents)
    .set({ processedAt: new Date() })
    .where(eq(whatsappWebhookEvents.id, id));
}

export async function insertStatusEvent(db: Queryable, values: typeof whatsappStatusEvents.$inferInsert) {
  await db.insert(whatsappStatusEvents).values(values).onConflictDoNothing();
}

const RANK = sql`(case status when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)`;

/**
 * Applies the strongest known status to a stored message: accepted < sent < delivered < read,
 * failed terminal; an older report never lowers it.
 */
export async function applyBestStatus(db: Queryable, messageId: string) {
  await db.execute(sql`
    update wa_messages m set status = best.status,
      meta_data = case when best.status = 'failed'
        then m.meta_data || jsonb_build_object('errors', best.payload->'errors') else m.meta_data end
    from (
      select status, payload from whatsapp_status_events
      where message_id = ${messageId}
      order by ${RANK} desc limit 1
    ) best
    where m.id = ${messageId}
      and (m.status is distinct from best.status)
      and coalesce(m.status, '') <> 'failed'
      and (case best.status when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)
        > (case coalesce(m.status, '') when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)`);
}

export async function insertInboundMessage(
  db: Queryable,
  values: typeof waMessages.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(waMessages)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: waMessages.id });
  return rows.length === 1;
}
