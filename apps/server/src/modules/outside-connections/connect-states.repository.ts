// The only code that touches oauth_connect_states: the single-use states of OAuth connect attempts,
// for MCP servers and plugin connections alike.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { oauthConnectStates } from '../../db/schema';

export type ConnectStateRow = typeof oauthConnectStates.$inferSelect;

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
