// The session kept in cookies (spec sections 3, 4, 9): auth_token (15 min), refresh_token and
// business_code (15 days), and the access token's JWT expiry.
import {
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  ZAccessClaims,
  type TTokenPair,
} from '@titan/contracts';

import { deleteCookie, readCookie, writeCookie } from '../cookies';

export const AUTH_TOKEN_COOKIE = 'auth_token';
export const REFRESH_TOKEN_COOKIE = 'refresh_token';
export const BUSINESS_CODE_COOKIE = 'business_code';
const BUSINESS_CODE_TTL_SECONDS = REFRESH_TOKEN_TTL_SECONDS;

/** A token this close to its expiry counts as expired: it could lapse on the way to the server. */
export const EXPIRY_SKEW_MS = 10_000;

const ZExpiry = ZAccessClaims.pick({ exp: true });

/** The token's `exp` in milliseconds since the epoch, or null when it is not a readable JWT. */
export function accessTokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    const parsed = ZExpiry.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data.exp * 1000 : null;
  } catch {
    return null;
  }
}

export function isAccessTokenFresh(token: string | null, now = Date.now()): token is string {
  if (!token) return false;
  const expiry = accessTokenExpiry(token);
  return expiry !== null && expiry - EXPIRY_SKEW_MS > now;
}

export function readAccessToken(): string | null {
  return readCookie(AUTH_TOKEN_COOKIE);
}

export function readRefreshToken(): string | null {
  return readCookie(REFRESH_TOKEN_COOKIE);
}

export function saveTokens(pair: TTokenPair): void {
  writeCookie(AUTH_TOKEN_COOKIE, pair.access, ACCESS_TOKEN_TTL_SECONDS);
  writeCookie(REFRESH_TOKEN_COOKIE, pair.refresh, REFRESH_TOKEN_TTL_SECONDS);
}

export function clearTokens(): void {
  deleteCookie(AUTH_TOKEN_COOKIE);
  deleteCookie(REFRESH_TOKEN_COOKIE);
}

/** Signed in = a refresh token to renew with, or an access token still valid on its own. */
export function hasSession(): boolean {
  return readRefreshToken() !== null || isAccessTokenFresh(readAccessToken());
}

export function readBusinessCode(): string | null {
  return readCookie(BUSINESS_CODE_COOKIE);
}

export function saveBusinessCode(code: string): void {
  writeCookie(BUSINESS_CODE_COOKIE, code, BUSINESS_CODE_TTL_SECONDS);
}
