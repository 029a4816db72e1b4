import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS } from '@titan/contracts';
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

  it('issues a different token each time, even twice in one second', async () => {
    const tokens = new AccessTokens(SECRET);
    const at = Date.now();
    const [a, b] = [await tokens.sign(42, 'session-1', at), await tokens.sign(42, 'session-1', at)];
    expect(a).not.toBe(b);
    expect(tokens.verify(a)).toMatchObject({ userId: 42 });
    expect(tokens.verify(b)).toMatchObject({ userId: 42 });
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

describe('remembered verifications', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a token seen before until it expires, and never one that failed', async () => {
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign(7, 'session-7');
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ userId: 7, sessionId: 'session-7' });
    expect(await tokens.verify(token)).toEqual(first);
    // The remembered answer still expires with the token.
    vi.useFakeTimers({ now: (first!.exp + 1) * 1000 });
    expect(await tokens.verify(token)).toBeNull();
    vi.useRealTimers();
    // A tampered token is refused every time, before and after its genuine twin was seen.
    const [h, p, s] = token.split('.');
    const forged = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(forged)).toBeNull();
  });

  it('stays right past its limit (the oldest are verified afresh) and expires them all', async () => {
    const tokens = new AccessTokens(SECRET);
    const issued = Date.now();
    const many = await Promise.all(
      Array.from({ length: 4100 }, (_, i) => tokens.sign(i + 1, `s-${i}`, issued)),
    );
    for (const t of many) expect(await tokens.verify(t)).not.toBeNull();
    expect(await tokens.verify(many[0]!)).toMatchObject({ userId: 1 });
    vi.useFakeTimers({ now: issued + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000 });
    expect(await tokens.verify(many[0]!)).toBeNull();
    expect(await tokens.verify(many.at(-1)!)).toBeNull();
  });
});
