// Logout (spec section 4): revoke the session on the server (best effort), clear local storage and
// every cookie, reset client state to its initial values, then go to the authentication site.
import { REQUEST_TIMEOUT_MS } from '@titan/contracts';

import { publicClient } from '../api-client';
import { resetClientState } from '../client-state';
import { deleteAllCookies } from '../cookies';
import { webEnv } from '../env';
import { ensureAccessToken } from './refresh';
import { isAccessTokenFresh, readAccessToken, readRefreshToken } from './tokens';

export const LOGOUT_PATH = '/api/auth/logout/';
/** The server's AUTH_SITE_URL default. */
export const DEFAULT_AUTH_SITE_URL = '/login';
/** A server that serves the app may name its AUTH_SITE_URL in this meta tag of index.html. */
export const AUTH_SITE_META_NAME = 'titan-auth-site-url';

export function authSiteUrl(): string {
  const fromServer = document
    .querySelector<HTMLMetaElement>(`meta[name="${AUTH_SITE_META_NAME}"]`)
    ?.content.trim();
  return fromServer || webEnv().VITE_AUTH_SITE_URL || DEFAULT_AUTH_SITE_URL;
}

/** "user": the person chose to log out; "session-ended": the server refused the session. */
export type TLogoutReason = 'user' | 'session-ended';

async function revokeOnServer(reason: TLogoutReason): Promise<void> {
  try {
    // Refreshing first lets a user who idled past the access token's life still revoke the session;
    // a refused session is not refreshed again.
    const access = reason === 'user' ? await ensureAccessToken() : readAccessToken();
    const refresh = readRefreshToken();
    if (!refresh || !access || (reason === 'session-ended' && !isAccessTokenFresh(access))) return;
    await publicClient.post(
      LOGOUT_PATH,
      { refresh },
      { headers: { Authorization: `Bearer ${access}` }, timeout: REQUEST_TIMEOUT_MS },
    );
  } catch {
    // Best effort: the local session ends whatever the server says.
  }
}

/** Work to do while the session still stands (e.g. removing this browser's push subscription). */
const beforeLogout = new Set<() => Promise<void>>();

export function registerBeforeLogout(task: () => Promise<void>): () => void {
  beforeLogout.add(task);
  return () => beforeLogout.delete(task);
}

async function runBeforeLogout(): Promise<void> {
  await Promise.all(
    [...beforeLogout].map((task) =>
      Promise.race([task().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]),
    ),
  );
}

let running: Promise<void> | null = null;

export function logout(reason: TLogoutReason = 'user'): Promise<void> {
  running ??= (async () => {
    if (reason === 'user') await runBeforeLogout();
    await revokeOnServer(reason);
    try {
      window.localStorage.clear();
    } catch {
      // Storage can be blocked; there is nothing in it to clear then.
    }
    deleteAllCookies();
    resetClientState();
    window.location.assign(authSiteUrl());
  })().finally(() => {
    running = null;
  });
  return running;
}
