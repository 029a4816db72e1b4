// The only code that touches mcp_servers and oauth_connect_states.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { connectionRows } from '../../db/connection-rows';
import { mcpServers, oauthConnectStates } from '../../db/schema';

export type { CachedTool, McpOauthState } from '../../db/schema';
export type McpServerRow = typeof mcpServers.$inferSelect;
export type NewMcpServer = typeof mcpServers.$inferInsert;
export type ConnectStateRow = typeof oauthConnectStates.$inferSelect;

// Listed, found, added, changed, removed and refreshed under a lease as plugin connections are.
export const {
  list: listServers,
  find: findServer,
  insert: insertServer,
  update: updateServer,
  remove: deleteServer,
  leased: leasedServer,
} = connectionRows(mcpServers);

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
