// The only code that touches mcp_servers and oauth_connect_states.
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mcpServers, oauthConnectStates } from '../../db/schema';

export type { CachedTool, McpOauthState } from '../../db/schema';
export type McpServerRow = typeof mcpServers.$inferSelect;
export type NewMcpServer = typeof mcpServers.$inferInsert;
export type ConnectStateRow = typeof oauthConnectStates.$inferSelect;

export async function listServers(db: Db, businessId: number): Promise<McpServerRow[]> {
  return db
    .select()
    .from(mcpServers)
    .where(eq(mcpServers.businessId, businessId))
    .orderBy(asc(mcpServers.id));
}

export async function findServer(db: Db, businessId: number, id: number): Promise<McpServerRow | null> {
  const [row] = await db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.businessId, businessId), eq(mcpServers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function insertServer(db: Db, values: NewMcpServer): Promise<McpServerRow> {
  const [row] = await db.insert(mcpServers).values(values).returning();
  return row!;
}

export async function updateServer(
  db: Db,
  businessId: number,
  id: number,
  set: Partial<NewMcpServer>,
): Promise<McpServerRow | null> {
  const [row] = await db
    .update(mcpServers)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(mcpServers.businessId, businessId), eq(mcpServers.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteServer(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(mcpServers)
    .where(and(eq(mcpServers.businessId, businessId), eq(mcpServers.id, id)))
    .returning({ id: mcpServers.id });
  return rows.length > 0;
}

/**
 * Takes the refresh lease of a server for `ms` when nobody holds it (or theirs ran out): the one
 * process that gets the row back refreshes; the others wait and read what it stored.
 */
export async function claimRefreshLease(
  db: Db,
  businessId: number,
  id: number,
  ms: number,
): Promise<McpServerRow | null> {
  const [row] = await db
    .update(mcpServers)
    .set({ refreshLeaseUntil: sql`now() + ${`${ms} milliseconds`}::interval` })
    .where(
      and(
        eq(mcpServers.businessId, businessId),
        eq(mcpServers.id, id),
        or(isNull(mcpServers.refreshLeaseUntil), lt(mcpServers.refreshLeaseUntil, sql`now()`)),
      ),
    )
    .returning();
  return row ?? null;
}

export async function insertConnectState(
  db: Db,
  values: typeof oauthConnectStates.$inferInsert,
): Promise<void> {
  await db.delete(oauthConnectStates).where(lt(oauthConnectStates.expiresAt, sql`now()`));
  await db.insert(oauthConnectStates).values(values);
}

/** Takes a state once: only for the business and user it was made for, only before it expires. */
export async function consumeConnectState(
  db: Db,
  where: { stateHash: string; businessId: number; userId: number; kind: 'mcp' | 'plugin' },
): Promise<ConnectStateRow | null> {
  const [row] = await db
    .delete(oauthConnectStates)
    .where(
      and(
        eq(oauthConnectStates.stateHash, where.stateHash),
        eq(oauthConnectStates.businessId, where.businessId),
        eq(oauthConnectStates.userId, where.userId),
        eq(oauthConnectStates.kind, where.kind),
      ),
    )
    .returning();
  return row && row.expiresAt.getTime() > Date.now() ? row : null;
}
