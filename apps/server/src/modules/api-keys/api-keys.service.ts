// API keys: shown once at creation, stored as SHA-256 with a short prefix for recognition.
import type { TApiKey, TCreateApiKeyRequest, TCreatedApiKey, TRole } from '@titan/contracts';
import type { Db } from '../../db/client';
import { recordAuditIn, type AuditContext } from '../audit';
import type { BusinessContext } from '../../platform/request-context';
import { assertMayGrantRole, resolveRoleRef } from '../business';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import * as repo from './api-keys.repository';

const KEY_PREFIX = 'titan_';
const PREFIX_LENGTH = 14;

function toApiKey(row: repo.ApiKeyRow): TApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    role: row.customRoleId ?? row.role ?? null,
  };
}

export async function createApiKey(
  db: Db,
  actor: BusinessContext,
  audit: AuditContext,
  userId: number | null,
  input: TCreateApiKeyRequest,
): Promise<TCreatedApiKey> {
  const businessId = actor.id;
  // A key never holds more than its maker: a built-in or custom role within the caller's permissions.
  const ref = input.role ?? null;
  const grant = ref === null ? null : await resolveRoleRef(db, businessId, ref, 'role');
  if (grant) assertMayGrantRole(actor, grant.permissions, 'role');
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= new Date()) {
    throw AppError.fields({ expires_at: ['The expiry must be in the future.'] });
  }
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await db.transaction(async (tx) => {
    const inserted = await repo.insertApiKey(tx, {
      businessId,
      name: input.name,
      prefix: key.slice(0, PREFIX_LENGTH),
      keyHash: sha256(key),
      createdBy: userId,
      expiresAt,
      role: grant && grant.customRoleId === null ? (grant.role as TRole) : null,
      customRoleId: grant?.customRoleId ?? null,
    });
    const shown = toApiKey(inserted);
    await recordAuditIn(tx, audit, {
      action: 'api_key.created',
      objectType: 'api_key',
      objectId: inserted.id,
      before: null,
      after: { name: shown.name, prefix: shown.prefix, expires_at: shown.expires_at, role: shown.role },
    });
    return inserted;
  });
  return { ...toApiKey(row), key };
}

export async function findApiKeys(db: Db, businessId: number): Promise<TApiKey[]> {
  return (await repo.listActiveApiKeys(db, businessId)).map(toApiKey);
}

export async function revokeApiKey(db: Db, audit: AuditContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const revoked = await repo.revokeApiKey(tx, audit.businessId, id);
    if (!revoked) throw AppError.notFound();
    const shown = toApiKey(revoked);
    await recordAuditIn(tx, audit, {
      action: 'api_key.deleted',
      objectType: 'api_key',
      objectId: id,
      before: { name: shown.name, prefix: shown.prefix, expires_at: shown.expires_at, role: shown.role },
      after: null,
    });
  });
}

const TOUCH_EVERY_MS = 60_000;

/** The business an API key acts in, or null for an unknown, revoked or expired key. */
export async function authenticateApiKey(
  db: Db,
  key: string,
): Promise<{
  keyId: number;
  businessId: number;
  role: TRole | null;
  customRoleId: number | null;
  customPermissions: string[] | null;
  scopeGroupIds: number[] | null;
} | null> {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const found = await repo.findApiKeyByHash(db, sha256(key));
  const row = found?.key;
  if (!found || !row || row.revokedAt || (row.expiresAt && row.expiresAt <= new Date())) return null;
  // Use is recorded at most once a minute (touchApiKey): the row just read says whether it is due,
  // so a key used within the minute costs no second statement.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS)
    await repo.touchApiKey(db, row.id, TOUCH_EVERY_MS);
  return {
    keyId: row.id,
    businessId: row.businessId,
    role: row.role,
    customRoleId: row.customRoleId,
    customPermissions: row.customRoleId === null ? null : (found.customPermissions ?? []),
    scopeGroupIds: row.customRoleId === null ? null : found.scopeGroupIds,
  };
}
