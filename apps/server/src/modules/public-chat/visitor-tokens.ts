// Visitor tokens: HS256 JWTs naming one customer of one business, for the public chat API.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { deriveKey } from '../../platform/crypto';
import { verifyHs256Jwt } from '../auth/tokens';

export const VISITOR_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export type VisitorClaims = { customerId: number; businessId: number; exp: number };

export class VisitorTokens {
  private readonly key: KeyObject;

  constructor(appSecret: string) {
    this.key = createSecretKey(deriveKey(appSecret, 'visitor-jwt'));
  }

  async sign(customerId: number, businessId: number): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ typ: 'visitor', bid: businessId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(customerId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + VISITOR_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  async verify(token: string): Promise<VisitorClaims | null> {
    const payload = verifyHs256Jwt(token, this.key);
    if (!payload) return null;
    const customerId = Number(payload.sub);
    const businessId = Number(payload.bid);
    if (payload.typ !== 'visitor' || !Number.isSafeInteger(customerId) || !Number.isSafeInteger(businessId))
      return null;
    return { customerId, businessId, exp: payload.exp as number };
  }
}
