// Visitor tokens: HS256 JWTs naming one customer of one business, for the public chat API.
// A token also carries the customer's visitor_token_version when signed; `verifyVisitor` refuses
// it once that version moved on (or the customer is gone), which is how visitor sessions end.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Db } from '../../db/client';
import { deriveKey } from '../../platform/crypto';
import { verifyHs256Jwt } from '../auth';
import { visitorTokenVersion } from '../directory';

export const VISITOR_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export type VisitorClaims = { customerId: number; businessId: number; version: number; exp: number };

export class VisitorTokens {
  private readonly key: KeyObject;

  constructor(appSecret: string) {
    this.key = createSecretKey(deriveKey(appSecret, 'visitor-jwt'));
  }

  async sign(customerId: number, businessId: number, version: number): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ typ: 'visitor', bid: businessId, ver: version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(customerId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + VISITOR_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The claims of a well-signed, unexpired token; says nothing about revocation. */
  async verify(token: string): Promise<VisitorClaims | null> {
    const payload = verifyHs256Jwt(token, this.key);
    if (!payload) return null;
    const customerId = Number(payload.sub);
    const businessId = Number(payload.bid);
    // Tokens signed before versions existed count as version 0, the column's starting value.
    const version = payload.ver === undefined ? 0 : Number(payload.ver);
    if (
      payload.typ !== 'visitor' ||
      !Number.isSafeInteger(customerId) ||
      !Number.isSafeInteger(businessId) ||
      !Number.isSafeInteger(version)
    )
      return null;
    return { customerId, businessId, version, exp: payload.exp as number };
  }
}

/** What a visitor is told when their token is refused (public API 401, socket close). */
export const VISITOR_SESSION_ENDED = 'Your chat session has expired. Please reload the page.';

/** The token's claims while its customer exists and has not had its visitor tokens revoked. */
export async function verifyVisitor(
  db: Db,
  tokens: VisitorTokens,
  token: string,
): Promise<VisitorClaims | null> {
  const claims = await tokens.verify(token);
  return claims && (await visitorStillValid(db, claims)) ? claims : null;
}

/** Whether verified claims still stand: the customer exists and its tokens were not revoked. */
export async function visitorStillValid(db: Db, claims: VisitorClaims): Promise<boolean> {
  return (await visitorTokenVersion(db, claims.businessId, claims.customerId)) === claims.version;
}
