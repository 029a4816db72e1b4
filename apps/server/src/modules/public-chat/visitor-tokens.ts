// Visitor tokens: HS256 JWTs naming one customer of one business, for the public chat API.
import { SignJWT, errors, jwtVerify } from 'jose';
import { deriveKey } from '../../platform/crypto';

export const VISITOR_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export type VisitorClaims = { customerId: number; businessId: number; exp: number };

export class VisitorTokens {
  private readonly key: Uint8Array;

  constructor(appSecret: string) {
    this.key = deriveKey(appSecret, 'visitor-jwt');
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
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const customerId = Number(payload.sub);
      const businessId = Number(payload.bid);
      if (payload.typ !== 'visitor' || !Number.isSafeInteger(customerId) || !Number.isSafeInteger(businessId))
        return null;
      return { customerId, businessId, exp: payload.exp! };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}
