// WhatsApp media: files sent and received, stored once per business.
// Each WhatsApp sub-folder has its repository; together they are the only code writing the WhatsApp
// tables (docs/design/database.md). Conversations are written through the conversations module's face.
import { and, eq, exists, isNull, notExists, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { conversations, whatsappMedia, waMessageMediaId, waMessages } from '../../../db/schema';
import { type InboxScope, scopeConditions } from '../../../platform/inbox-scope';

export type WhatsappMediaRow = typeof whatsappMedia.$inferSelect;

export async function insertMedia(db: Queryable, values: typeof whatsappMedia.$inferInsert) {
  const [row] = await db.insert(whatsappMedia).values(values).returning();
  return row!;
}

/** A customer's media, recorded once per business however often Meta redelivers the message. */
export async function insertInboundMedia(db: Queryable, values: typeof whatsappMedia.$inferInsert) {
  await db
    .insert(whatsappMedia)
    .values(values)
    .onConflictDoNothing({ target: [whatsappMedia.businessId, whatsappMedia.id] });
}

/** The businesses holding a media id (a fetch queued before media were keyed by business). */
export async function findMediaBusinesses(db: Queryable, id: string): Promise<number[]> {
  const rows = await db
    .select({ businessId: whatsappMedia.businessId })
    .from(whatsappMedia)
    .where(eq(whatsappMedia.id, id))
    .limit(2);
  return rows.map((r) => r.businessId);
}

export async function findBusinessMedia(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<WhatsappMediaRow | null> {
  const [row] = await db
    .select()
    .from(whatsappMedia)
    .where(and(eq(whatsappMedia.businessId, businessId), eq(whatsappMedia.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * A media of the scope's business that its viewer may see. A whole-business scope (owners, admins,
 * API keys) sees them all. An agent sees a media held by a message of a conversation they may see;
 * and, of the files uploaded to send, their own uploads and those no message holds yet (the file
 * in a composer, before its send). One statement, through wa_messages_media_idx.
 */
export async function findVisibleMedia(
  db: Queryable,
  scope: InboxScope,
  userId: number | null,
  id: string,
): Promise<WhatsappMediaRow | null> {
  if (scope.groupIds === null) return findBusinessMedia(db, scope.businessId, id);
  const holds = and(
    sql`${waMessageMediaId(waMessages.metaData)} = ${id}`,
    eq(waMessages.businessId, scope.businessId),
  );
  const heldInScope = db
    .select({ one: sql`1` })
    .from(waMessages)
    .innerJoin(conversations, eq(conversations.id, waMessages.conversationId))
    .where(and(holds, ...scopeConditions(scope)));
  const heldAnywhere = db
    .select({ one: sql`1` })
    .from(waMessages)
    .where(holds);
  const [row] = await db
    .select()
    .from(whatsappMedia)
    .where(
      and(
        eq(whatsappMedia.businessId, scope.businessId),
        eq(whatsappMedia.id, id),
        or(
          exists(heldInScope),
          and(
            eq(whatsappMedia.direction, 'outbound'),
            or(userId === null ? undefined : eq(whatsappMedia.uploadedBy, userId), notExists(heldAnywhere)),
          ),
        ),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function countMediaAttempt(db: Queryable, businessId: number, id: string) {
  await db
    .update(whatsappMedia)
    .set({ attempts: sql`${whatsappMedia.attempts} + 1` })
    .where(and(eq(whatsappMedia.businessId, businessId), eq(whatsappMedia.id, id)));
}

export async function recordMediaError(db: Queryable, businessId: number, id: string, message: string) {
  await db
    .update(whatsappMedia)
    .set({ lastError: message.slice(0, 1000) })
    .where(and(eq(whatsappMedia.businessId, businessId), eq(whatsappMedia.id, id)));
}

/** Sets where the bytes are kept; false when another fetch stored them first. */
export async function markMediaStored(
  db: Queryable,
  businessId: number,
  id: string,
  values: { storageKey: string; mimeType: string; fileSize: number },
): Promise<boolean> {
  const rows = await db
    .update(whatsappMedia)
    .set({ ...values, storedAt: new Date(), lastError: null })
    .where(
      and(
        eq(whatsappMedia.businessId, businessId),
        eq(whatsappMedia.id, id),
        isNull(whatsappMedia.storageKey),
      ),
    )
    .returning({ id: whatsappMedia.id });
  return rows.length === 1;
}
