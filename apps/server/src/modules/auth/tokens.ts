// Access tokens: HS256 JWTs that expire 15 minutes after issue and name their session. Signed with
// jose; verified here with node:crypto, since every authenticated request verifies one and jose's
// WebCrypto path imports the key and hops to the thread pool on each call.
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@titan/contracts';
import { deriveKey } from '../../platform/crypto';

export type AccessClaims = { userId: number; sessionId: string; exp: number };

/** How many verified tokens AccessTokens remembers (about 1 MB at most). */
const VERIFIED_MAX = 4096;

export class AccessTokens {
  private readonly key: KeyObject;
  /**
   * Tokens already verified, by their exact text, with their claims: a token's signature stays
   * good until it expires, and a client sends the same token with every call for 15 minutes.
   * Whether its session is still live is checked per call elsewhere (auth cache and database).
   */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(appSecret: string) {
    this.key = createSecretKey(deriveKey(appSecret, 'access-jwt'));
  }

  async sign(userId: number, sessionId: string, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return (
      new SignJWT({ typ: 'access', sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuedAt(iat)
        // Two tokens issued in the same second (a refresh right after a sign-in) still differ.
        .setJti(randomBytes(9).toString('base64url'))
        .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
        .sign(this.key)
    );
  }

  /** Null for anything not a valid, unexpired access token of ours (synchronous: it does no I/O). */
  verify(token: string): AccessClaims | null {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Date.now() / 1000) return known;
      this.verified.delete(token);
      return null;
    }
    const payload = verifyHs256Jwt(token, this.key);
    if (!payload) return null;
    const userId = Number(payload.sub);
    if (payload.typ !== 'access' || typeof payload.sid !== 'string' || !Number.isSafeInteger(userId))
      return null;
    if (typeof payload.exp !== 'number') return null; // ours always expire
    const claims = { userId, sessionId: payload.sid, exp: payload.exp };
    // Oldest first out: a Map iterates in insertion order.
    if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return claims;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(utf8.decode(Buffer.from(part, 'base64url')));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const isTime = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));

/**
 * The claims of a compact HS256 JWS signed with `key`, or null. Accepts what jose's jwtVerify with
 * `algorithms: ['HS256']` accepts for the tokens we issue: alg HS256 (no crit / b64 extensions),
 * a JSON object payload, numeric iat / nbf / exp when present, nbf not in the future and exp in
 * the future (no clock tolerance).
 */
export function verifyHs256Jwt(token: string, key: KeyObject): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (!BASE64URL.test(header) || !BASE64URL.test(payload) || !BASE64URL.test(signature)) return null;
  const expected = Buffer.from(createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const protectedHeader = decodeJson(header);
  if (
    !protectedHeader ||
    protectedHeader.alg !== 'HS256' ||
    'crit' in protectedHeader ||
    'b64' in protectedHeader
  )
    return null;
  const claims = decodeJson(payload);
  if (!claims || !isTime(claims.iat) || !isTime(claims.nbf) || !isTime(claims.exp)) return null;
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.nbf === 'number' && claims.nbf > now) return null;
  if (typeof claims.exp === 'number' && claims.exp <= now) return null;
  return claims;
}
