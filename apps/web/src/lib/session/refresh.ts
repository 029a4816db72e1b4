// Keeps a usable access token (spec section 4): when the cookie's token is missing or its JWT has
// expired, one refresh runs and every request waiting meanwhile shares it. Tabs share the cookies, and
// refresh tokens rotate (reusing one revokes the session), so refreshes are serialised across tabs
// with the Web Locks API and the cookie is read again once the lock is held.
import { ZEnvelope, ZTokenPair, type TTokenPair } from '@titan/contracts';

import { publicClient } from '../api-client';
import { HandledApiError } from '../api-errors';
import { isAccessTokenFresh, readAccessToken, readRefreshToken, saveTokens } from './tokens';

export const REFRESH_PATH = '/api/auth/refresh/';
export const REFRESH_LOCK_NAME = 'titan-refresh';

let inFlight: Promise<string> | null = null;

async function requestNewTokens(refresh: string): Promise<TTokenPair> {
  const { data } = await publicClient.post(REFRESH_PATH, { refresh });
  return ZEnvelope(ZTokenPair).parse(data).result;
}

async function refreshIfStillNeeded(): Promise<string> {
  // Another tab may have refreshed while this one waited for the lock.
  const current = readAccessToken();
  if (isAccessTokenFresh(current)) return current;
  const refresh = readRefreshToken();
  if (!refresh) throw new HandledApiError('refresh_failed');
  try {
    const pair = await requestNewTokens(refresh);
    saveTokens(pair);
    return pair.access;
  } catch (failure) {
    throw new HandledApiError('refresh_failed', { cause: failure });
  }
}

async function withRefreshLock(task: () => Promise<string>): Promise<string> {
  // Absent in older browsers and outside secure contexts: then only this tab is serialised.
  const locks = typeof navigator === 'undefined' ? undefined : (navigator.locks as LockManager | undefined);
  if (!locks || typeof locks.request !== 'function') return task();
  return await locks.request(REFRESH_LOCK_NAME, { mode: 'exclusive' }, task);
}

/**
 * Answers an access token good for at least a few more seconds, refreshing first when needed.
 * Rejects with HandledApiError('refresh_failed') when that is impossible: no message is shown.
 */
export function ensureAccessToken(): Promise<string> {
  const current = readAccessToken();
  if (isAccessTokenFresh(current)) return Promise.resolve(current);
  inFlight ??= withRefreshLock(refreshIfStillNeeded).finally(() => {
    inFlight = null;
  });
  return inFlight;
}
