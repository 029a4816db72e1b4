// The only code that touches api_keys.
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { apiKeys, customRoles } from '../../db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Queryable, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

export async function listActiveApiKeys(db: Db, businessId: number): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.businessId, businessId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function revokeApiKey(db: Queryable, businessId: number, id: number): Promise<ApiKeyRow | null> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.businessId, businessId), isNull(apiKeys.revokedAt)))
    .returning();
  return rows[0] ?? null;
}

/** A key and, when it holds a custom role, that role's permissions and chat group scope. */
export async function findApiKeyByHash(db: Db, keyHash: string) {
  const [row] = await db
    .select({
      key: apiKeys,
      customPermissions: customRoles.permissions,
      scopeGroupIds: customRoles.chatGroupIds,
    })
    .from(apiKeys)
    .leftJoin(customRoles, eq(customRoles.id, apiKeys.customRoleId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row ?? null;
}

/** Records use at most once a minute per key, so authenticating is not a write per request. */
export async function touchApiKey(db: Db, id: number, everyMs = 60_000): Promise<void> {
  const minuteAgo = new Date(Date.now() - everyMs);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, minuteAgo))));
}
