// Access tokens: HS256 JWTs (jose) that expire 15 minutes after issue and name their session.
import { SignJWT, jwtVerify, errors } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@titan/contracts';
import { deriveKey } from '../../platform/crypto';

export type AccessClaims = { userId: number; sessionId: string; exp: number };

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(appSecret: string) {
    this.key = deriveKey(appSecret, 'access-jwt');
  }

  async sign(userId: number, sessionId: string, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ typ: 'access', sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** Null for anything not a valid, unexpired access token of ours. */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (payload.typ !== 'access' || typeof payload.sid !== 'string' || !Number.isSafeInteger(userId))
        return null;
      return { userId, sessionId: payload.sid, exp: payload.exp! };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}
