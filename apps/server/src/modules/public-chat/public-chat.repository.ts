// Public chat reads: the visitor's own conversations (customer records: the directory's service).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations } from '../../db/schema';

type ConversationRow = typeof conversations.$inferSelect;

export async function listCustomerConversationIds(
  db: Db,
  businessId: number,
  customerId: number,
  channel: ConversationRow['channel'],
  limit: number,
) {
  const rows = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.initiatorId, customerId),
        eq(conversations.channel, channel),
      ),
    )
    .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id))
    .limit(limit);
  return rows.map((r) => r.id);
}
