import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens, verifyHs256Jwt } from '../tokens';

const SECRET = 'a-test-app-secret-that-is-long-enough-000';
const raw = new TextEncoder().encode('k'.repeat(32));
const key = createSecretKey(Buffer.from(raw));
const now = Math.floor(Date.now() / 1000);

const jwt = (claims: Record<string, unknown>, alg = 'HS256', secret = raw) =>
  new SignJWT(claims).setProtectedHeader({ alg }).sign(secret);

describe('HS256 verification without jose', () => {
  it('accepts what it signs and reads its claims', async () => {
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign(42, 'session-1');
    expect(await tokens.verify(token)).toMatchObject({ userId: 42, sessionId: 'session-1' });
    expect(await new AccessTokens(`${SECRET}-other`).verify(token)).toBeNull();
  });

  it('refuses tampered, expired, not-yet-valid, other-algorithm and unsigned tokens', async () => {
    const good = await jwt({ sub: '1', exp: now + 60 });
    expect(verifyHs256Jwt(good, key)).toMatchObject({ sub: '1' });
    const [h, p, s] = good.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ sub: '2', exp: now + 60 })).toString('base64url');
    expect(verifyHs256Jwt(`${h}.${otherPayload}.${s}`, key)).toBeNull();
    expect(verifyHs256Jwt(`${h}.${p}.${s}x`, key)).toBeNull();
    expect(verifyHs256Jwt(await jwt({ sub: '1', exp: now - 1 }), key)).toBeNull();
    expect(verifyHs256Jwt(await jwt({ sub: '1', nbf: now + 60 }), key)).toBeNull();
    expect(verifyHs256Jwt(await jwt({ sub: '1', exp: 'soon' }), key)).toBeNull();
    expect(verifyHs256Jwt(await jwt({ sub: '1', exp: now + 60 }, 'HS512'), key)).toBeNull();
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect(verifyHs256Jwt(none, key)).toBeNull();
    expect(verifyHs256Jwt('not.a.jwt', key)).toBeNull();
    expect(verifyHs256Jwt(good.split('.').slice(0, 2).join('.'), key)).toBeNull();
  });
});
