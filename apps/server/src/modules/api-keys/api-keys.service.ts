// API keys: shown once at creation, stored as SHA-256 with a short prefix for recognition.
import type { TApiKey, TCreateApiKeyRequest, TCreatedApiKey } from '@titan/contracts';
import type { Db } from '../../db/client';
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
  };
}

export async function createApiKey(
  db: Db,
  businessId: number,
  userId: number | null,
  input: TCreateApiKeyRequest,
): Promise<TCreatedApiKey> {
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= new Date()) {
    throw AppError.fields({ expires_at: ['The expiry must be in the future.'] });
  }
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await repo.insertApiKey(db, {
    businessId,
    name: input.name,
    prefix: key.slice(0, PREFIX_LENGTH),
    keyHash: sha256(key),
    createdBy: userId,
    expiresAt,
  });
  return { ...toApiKey(row), key };
}

export async function findApiKeys(db: Db, businessId: number): Promise<TApiKey[]> {
  return (await repo.listActiveApiKeys(db, businessId)).map(toApiKey);
}

export async function revokeApiKey(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.revokeApiKey(db, businessId, id))) throw AppError.notFound();
}

/** The business an API key acts in, or null for an unknown, revoked or expired key. */
export async function authenticateApiKey(
  db: Db,
  key: string,
): Promise<{ keyId: number; businessId: number } | null> {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const row = await repo.findApiKeyByHash(db, sha256(key));
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= new Date())) return null;
  await repo.touchApiKey(db, row.id);
  return { keyId: row.id, businessId: row.businessId };
}
