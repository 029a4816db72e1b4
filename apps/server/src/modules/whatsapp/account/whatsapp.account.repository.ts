// WhatsApp accounts: the business's connected number and its credentials (sealed).
// Each WhatsApp sub-folder has its repository; together they are the only code writing the WhatsApp
// tables (docs/design/database.md). Conversations are written through the conversations module's face.
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { whatsappAccounts } from '../../../db/schema';

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
