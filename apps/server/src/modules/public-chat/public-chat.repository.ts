// Public chat reads: the visitor's own customer record and conversations.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations, customers } from '../../db/schema';

export type CustomerRow = typeof customers.$inferSelect;
type ConversationRow = typeof conversations.$inferSelect;

export async function findCustomer(db: Db, businessId: number, id: number): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findCustomerByExternalId(db: Db, businessId: number, externalId: string) {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.externalId, externalId)))
    .limit(1);
  return row ?? null;
}

export async function upsertVerifiedCustomer(
  db: Db,
  values: typeof customers.$inferInsert & { externalId: string },
) {
  const [row] = await db
    .insert(customers)
    .values(values)
    .onConflictDoUpdate({
      target: [customers.businessId, customers.externalId],
      set: {
        name: sql`coalesce(excluded.name, ${customers.name})`,
        email: sql`coalesce(excluded.email, ${customers.email})`,
        phone: sql`coalesce(excluded.phone, ${customers.phone})`,
        fields: sql`${customers.fields} || excluded.fields`,
        lastSeenAt: new Date(),
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function insertCustomer(db: Db, values: typeof customers.$inferInsert): Promise<CustomerRow> {
  const [row] = await db.insert(customers).values(values).returning();
  return row!;
}

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
