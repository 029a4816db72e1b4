// The only code that touches plugin_connections.
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pluginConnections } from '../../db/schema';

export type PluginConnectionRow = typeof pluginConnections.$inferSelect;
export type NewPluginConnection = typeof pluginConnections.$inferInsert;

export async function listConnections(db: Db, businessId: number): Promise<PluginConnectionRow[]> {
  return db
    .select()
    .from(pluginConnections)
    .where(eq(pluginConnections.businessId, businessId))
    .orderBy(asc(pluginConnections.id));
}

export async function findConnection(
  db: Db,
  businessId: number,
  id: number,
): Promise<PluginConnectionRow | null> {
  const [row] = await db
    .select()
    .from(pluginConnections)
    .where(and(eq(pluginConnections.businessId, businessId), eq(pluginConnections.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertConnection(db: Db, values: NewPluginConnection): Promise<PluginConnectionRow> {
  const [row] = await db.insert(pluginConnections).values(values).returning();
  return row!;
}

export async function updateConnection(
  db: Db,
  businessId: number,
  id: number,
  set: Partial<NewPluginConnection>,
): Promise<PluginConnectionRow | null> {
  const [row] = await db
    .update(pluginConnections)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(pluginConnections.businessId, businessId), eq(pluginConnections.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteConnection(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(pluginConnections)
    .where(and(eq(pluginConnections.businessId, businessId), eq(pluginConnections.id, id)))
    .returning({ id: pluginConnections.id });
  return rows.length > 0;
}

/** The refresh lease (see mcp-servers.repository claimRefreshLease). */
export async function claimRefreshLease(
  db: Db,
  businessId: number,
  id: number,
  ms: number,
): Promise<PluginConnectionRow | null> {
  const [row] = await db
    .update(pluginConnections)
    .set({ refreshLeaseUntil: sql`now() + ${`${ms} milliseconds`}::interval` })
    .where(
      and(
        eq(pluginConnections.businessId, businessId),
        eq(pluginConnections.id, id),
        or(isNull(pluginConnections.refreshLeaseUntil), lt(pluginConnections.refreshLeaseUntil, sql`now()`)),
      ),
    )
    .returning();
  return row ?? null;
}
