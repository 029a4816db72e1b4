// The sending side's reads of wa_messages: the 24-hour window and read receipts.
// Each WhatsApp sub-folder has its repository; together they are the only code writing the WhatsApp
// tables (docs/design/database.md). Conversations are written through the conversations module's face.
import { and, desc, eq, inArray, max } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { conversations, waMessages } from '../../../db/schema';

/** When the customer last wrote in a conversation: the start of the 24-hour window. */
export async function findLastCustomerMessageAt(db: Queryable, conversationId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(waMessages.createdAt) })
    .from(waMessages)
    .where(and(eq(waMessages.conversationId, conversationId), eq(waMessages.senderType, 'customer')))
    .limit(1);
  return row?.at ?? null;
}

/** The customer's newest message in a conversation, the one a read receipt names. */
export async function findNewestCustomerWamid(
  db: Queryable,
  businessId: number,
  conversationId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ id: waMessages.id })
    .from(waMessages)
    .where(
      and(
        eq(waMessages.businessId, businessId),
        eq(waMessages.conversationId, conversationId),
        eq(waMessages.senderType, 'customer'),
      ),
    )
    .orderBy(desc(waMessages.createdAt), desc(waMessages.position))
    .limit(1);
  return row?.id ?? null;
}

// Customers belong to the visitor directory: the sending side reads them through its service.
export { findCustomerByExternalId, findCustomerExternalId } from '../../directory';

/**
 * Per customer, their WhatsApp conversation whose customer wrote last, and when (the 24-hour
 * window of agents' sends). Customers who never wrote on WhatsApp are absent.
 */
export async function lastCustomerMessagesOf(
  db: Queryable,
  businessId: number,
  customerIds: number[],
): Promise<Map<number, { conversationId: number; at: Date }>> {
  const out = new Map<number, { conversationId: number; at: Date }>();
  if (customerIds.length === 0) return out;
  const rows = await db
    .select({
      customerId: conversations.initiatorId,
      conversationId: conversations.id,
      at: max(waMessages.createdAt),
    })
    .from(conversations)
    .innerJoin(
      waMessages,
      and(eq(waMessages.conversationId, conversations.id), eq(waMessages.senderType, 'customer')),
    )
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.channel, 'whatsapp'),
        inArray(conversations.initiatorId, customerIds),
      ),
    )
    .groupBy(conversations.initiatorId, conversations.id);
  for (const r of rows) {
    if (r.customerId === null || !r.at) continue;
    const at = new Date(r.at);
    const seen = out.get(r.customerId);
    if (!seen || seen.at < at) out.set(r.customerId, { conversationId: r.conversationId, at });
  }
  return out;
}
