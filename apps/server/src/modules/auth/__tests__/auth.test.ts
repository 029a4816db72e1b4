import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { findRecentEvents } from '../../analytics/analytics.service';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import {
  as,
  clearOfWindowEdge,
  keyFromOutbox,
  PASSWORD,
  signUp,
  uniqueEmail,
} from '../../../testing/identity';
import { MESSAGES } from '../auth.service';

let rt: TestRuntime;
let app: FastifyInstance;
beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
});
afterAll(() => rt.destroy());

const post = (url: string, payload: object, remoteAddress = '192.0.2.1') =>
  app.inject({ method: 'POST', url, payload, remoteAddress });

describe('registration and email verification', () => {
  it('registers an unverified user and mails a confirmation link built from PUBLIC_URL', async () => {
    const email = uniqueEmail('reg');
    const res = await post('/api/auth/register/', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().result.user).toMatchObject({
      email,
      first_name: 'Grace',
      last_name: 'Hopper',
      is_email_verified: false,
    });

    const [mail] = await rt.mailer.listOutbox(email);
    expect(mail!.subject).toBe('Confirm your email address');
    expect(mail!.links[0]).toMatch(
      /^https:\/\/titan\.example\.com\/auth\/account-confirm-email\/[\w-]{40,}$/,
    );
    expect(mail!.text).toContain(mail!.links[0]);
    expect(mail!.html).toContain(`href="${mail!.links[0]}"`);

    const [row] = await rt.database.query<{ password_hash: string }>(
      'select password_hash from users where email = $1',
      [email],
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
    const events = await findRecentEvents(rt.database.db, 'user_signed_up');
    expect(events.length).toBeGreaterThan(0);
  });

  it('answers a taken email (any case) exactly as a new one, mails the owner and leaves the account alone', async () => {
    const owner = await signUp(app, rt.mailer, { firstName: 'Olive' });
    const fresh = uniqueEmail('fresh');
    const attempt = (email: string) =>
      post('/api/auth/register/', {
        first_name: 'Mallory',
        last_name: 'M',
        email,
        password: 'another password 42',
      });

    const forNew = await attempt(fresh);
    const forTaken = await attempt(owner.email.toUpperCase());
    expect(forTaken.statusCode).toBe(forNew.statusCode);
    expect(forTaken.statusCode).toBe(201);
    // Same envelope and fields; the values differ only by the address typed and the pk.
    const withoutAddress = (res: typeof forNew, email: string) => {
      const body = res.json();
      expect(body.result.user).toMatchObject({ email, username: email });
      expect(typeof body.result.user.pk).toBe('number');
      return { ...body, result: { user: { ...body.result.user, pk: 0, email: '', username: '' } } };
    };
    expect(withoutAddress(forTaken, owner.email)).toEqual(withoutAddress(forNew, fresh));
    expect(forTaken.json().result.user).toMatchObject({
      first_name: 'Mallory',
      last_name: 'M',
      is_email_verified: false,
    });
    // The pk comes from the same sequence as a new account's: the next one, no gap giving it away.
    const next = await attempt(uniqueEmail('after'));
    expect(next.json().result.user.pk).toBe(forTaken.json().result.user.pk + 1);
    expect(forTaken.json().result.user.pk).toBe(forNew.json().result.user.pk + 1);

    const [mail] = await rt.mailer.listOutbox(owner.email);
    expect(mail!.subject).toBe('Someone tried to sign up with your email address');
    expect(mail!.links).toEqual([
      'https://titan.example.com/forgot-password',
      'https://titan.example.com/login',
    ]);
    const [row] = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from users where lower(email) = lower($1)',
      [owner.email],
    );
    expect(row!.n).toBe(1);
    expect((await post('/api/auth/login/', { email: owner.email, password: PASSWORD })).statusCode).toBe(200);
    expect(
      (await post('/api/auth/login/', { email: owner.email, password: 'another password 42' })).statusCode,
    ).toBe(400);
  });

  it('sends an unverified owner a fresh confirmation link when their address is registered again', async () => {
    const email = uniqueEmail('again');
    await post('/api/auth/register/', { first_name: 'Una', email, password: PASSWORD });
    const again = await post('/api/auth/register/', { first_name: 'Una', email, password: PASSWORD });
    expect(again.statusCode).toBe(201);
    const mails = await rt.mailer.listOutbox(email);
    expect(mails.map((m) => m.subject)).toEqual(['Confirm your email address', 'Confirm your email address']);
    expect(mails[0]!.links[0]).not.toBe(mails[1]!.links[0]);
  });

  it('refuses a short password and a common password, field by field', async () => {
    const short = await post('/api/auth/register/', {
      first_name: 'A',
      email: uniqueEmail(),
      password: 'short',
    });
    expect(short.json().result).toEqual({ password: ['Ensure this field has at least 8 characters.'] });
    const common = await post('/api/auth/register/', {
      first_name: 'A',
      email: uniqueEmail(),
      password: 'password123',
    });
    expect(common.json().result).toEqual({ password: [MESSAGES.commonPassword] });
    const missing = await post('/api/auth/register/', {});
    expect(Object.keys(missing.json().result).sort()).toEqual(['email', 'first_name', 'password']);
  });

  it('keeps an unverified account out, verifies once, and rejects a reused key', async () => {
    const email = uniqueEmail('verify');
    await post('/api/auth/register/', { first_name: 'V', email, password: PASSWORD });
    const early = await post('/api/auth/login/', { email, password: PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe(MESSAGES.unverified);

    const key = await keyFromOutbox(rt.mailer, email, '/auth/account-confirm-email/');
    const ok = await post('/api/auth/register/verify-email/', { key });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.user.is_email_verified).toBe(true);
    const again = await post('/api/auth/register/verify-email/', { key });
    expect(again.statusCode).toBe(400);
    expect(again.json().result).toEqual({ key: [MESSAGES.badVerifyKey] });
    expect((await post('/api/auth/login/', { email, password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('login and sessions', () => {
  it('answers the same error for a wrong password and an unknown email', async () => {
    const s = await signUp(app, rt.mailer);
    const wrong = await post('/api/auth/login/', { email: s.email, password: 'not the password' });
    const unknown = await post('/api/auth/login/', {
      email: uniqueEmail('nobody'),
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().result).toEqual({ non_field_errors: [MESSAGES.badCredentials] });
  });

  it('issues an access JWT expiring in 15 minutes and a refresh token, and records the login', async () => {
    const s = await signUp(app, rt.mailer);
    const claims = decodeJwt(s.access);
    const now = Math.floor(Date.now() / 1000);
    expect(claims.exp! - now).toBeGreaterThan(15 * 60 - 30);
    expect(claims.exp! - now).toBeLessThanOrEqual(15 * 60);
    expect(s.refresh.length).toBeGreaterThanOrEqual(40);
    expect(s.user.email).toBe(s.email);
    const profile = await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(s) });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().result).toMatchObject({ email: s.email, is_email_verified: true, businesses: [] });
    expect((await findRecentEvents(rt.database.db, 'user_logged_in')).length).toBeGreaterThan(0);
  });

  it('rotates refresh tokens, and reuse of a rotated one ends the whole session', async () => {
    const s = await signUp(app, rt.mailer);
    const first = await post('/api/auth/refresh/', { refresh: s.refresh });
    expect(first.statusCode).toBe(200);
    const pair = first.json().result as { access: string; refresh: string };
    expect(pair.refresh).not.toBe(s.refresh);
    expect(
      (await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(pair) })).statusCode,
    ).toBe(200);

    const reuse = await post('/api/auth/refresh/', { refresh: s.refresh });
    expect(reuse.statusCode).toBe(401);
    // The family is revoked: the newest refresh token and its access token stop working too.
    expect((await post('/api/auth/refresh/', { refresh: pair.refresh })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(pair) })).statusCode,
    ).toBe(401);
  });

  it('logs out: the refresh token and the access token of that session stop working, other sessions do not', async () => {
    const s = await signUp(app, rt.mailer);
    const other = (await post('/api/auth/login/', { email: s.email, password: PASSWORD })).json().result;
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      payload: { refresh: s.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect((await post('/api/auth/refresh/', { refresh: s.refresh })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(s) })).statusCode).toBe(
      401,
    );
    expect(
      (await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(other) })).statusCode,
    ).toBe(200);
  });

  it('rejects missing, malformed and tampered tokens with 401', async () => {
    const s = await signUp(app, rt.mailer);
    const [h, p] = s.access.split('.');
    const tampered = `${h}.${p}.${'A'.repeat(43)}`;
    for (const authorization of [undefined, 'Bearer', 'Bearer nonsense', `Bearer ${tampered}`, 'Basic abc']) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/users/profile/',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json().status).toBe(401);
    }
  });

  it('updates the profile', async () => {
    const s = await signUp(app, rt.mailer);
    const res = await app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: as(s),
      payload: { first_name: 'Augusta', last_name: 'King' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ first_name: 'Augusta', last_name: 'King' });
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: as(s),
      payload: { first_name: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result).sort()).toEqual(['first_name', 'last_name']);
  });
});

describe('forgot and reset password', () => {
  it('answers the same whether or not the email exists, and mails only real accounts', async () => {
    const s = await signUp(app, rt.mailer);
    const known = await post('/api/auth/password/forgot/', { email: s.email });
    const unknownEmail = uniqueEmail('ghost');
    const unknown = await post('/api/auth/password/forgot/', { email: unknownEmail });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(await rt.mailer.listOutbox(unknownEmail)).toEqual([]);
    const [mail] = await rt.mailer.listOutbox(s.email);
    expect(mail!.subject).toBe('Reset your password');
    const encoded = Buffer.from(s.email).toString('base64url');
    expect(mail!.links[0]).toMatch(
      new RegExp(`^https://titan\\.example\\.com/forgot-password/${encoded}/[\\w-]{40,}$`),
    );
  });

  it('changes the password in the app: current one checked, confirmation matched, other sessions signed out', async () => {
    const s = await signUp(app, rt.mailer);
    const login = await post('/api/auth/login/', { email: s.email, password: PASSWORD });
    const other = { ...s, ...login.json().result } as typeof s;
    const change = (payload: object, who = s) =>
      app.inject({ method: 'POST', url: '/api/auth/password/change/', headers: as(who), payload });
    const newPassword = 'a changed passphrase 42';
    const wrong = await change({
      current_password: 'not my password',
      new_password: newPassword,
      new_password_confirm: newPassword,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().result).toEqual({ current_password: ['Your current password is not correct.'] });
    const mismatch = await change({
      current_password: PASSWORD,
      new_password: newPassword,
      new_password_confirm: 'something else',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().result).toEqual({ new_password_confirm: ['The two passwords do not match.'] });
    const ok = await change({
      current_password: PASSWORD,
      new_password: newPassword,
      new_password_confirm: newPassword,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // This session goes on; the other one is signed out.
    const profile = (who: typeof s) =>
      app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(who) }).then((r) => r.statusCode);
    expect(await profile(s)).toBe(200);
    expect(await profile(other)).toBe(401);
    expect((await post('/api/auth/refresh/', { refresh: other.refresh })).statusCode).toBe(401);
    expect((await post('/api/auth/login/', { email: s.email, password: PASSWORD })).statusCode).toBe(400);
    expect((await post('/api/auth/login/', { email: s.email, password: newPassword })).statusCode).toBe(200);
    // No session, no change.
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/auth/password/change/',
      payload: { current_password: newPassword, new_password: PASSWORD, new_password_confirm: PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('resets with a single-use key, revokes every session, and accepts the new password', async () => {
    const s = await signUp(app, rt.mailer);
    await post('/api/auth/password/forgot/', { email: s.email });
    const key = await keyFromOutbox(rt.mailer, s.email, '/forgot-password/');
    const newPassword = 'a brand new passphrase';
    const reset = await post('/api/auth/password/reset/', { email: s.email, key, password: newPassword });
    expect(reset.statusCode).toBe(200);

    expect((await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(s) })).statusCode).toBe(
      401,
    );
    expect((await post('/api/auth/refresh/', { refresh: s.refresh })).statusCode).toBe(401);
    expect((await post('/api/auth/login/', { email: s.email, password: PASSWORD })).statusCode).toBe(400);
    expect((await post('/api/auth/login/', { email: s.email, password: newPassword })).statusCode).toBe(200);

    const reuse = await post('/api/auth/password/reset/', {
      email: s.email,
      key,
      password: 'yet another passphrase',
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().result).toEqual({ key: [MESSAGES.badResetKey] });
  });

  it('refuses an expired key and a key used with another email', async () => {
    const a = await signUp(app, rt.mailer);
    const b = await signUp(app, rt.mailer);
    await post('/api/auth/password/forgot/', { email: a.email });
    const key = await keyFromOutbox(rt.mailer, a.email, '/forgot-password/');
    const wrongEmail = await post('/api/auth/password/reset/', {
      email: b.email,
      key,
      password: 'hijacked passphrase',
    });
    expect(wrongEmail.statusCode).toBe(400);

    await rt.database.query(
      "update user_keys set expires_at = now() - interval '1 second' where purpose = 'reset_password' and user_id = $1",
      [a.user.pk],
    );
    const expired = await post('/api/auth/password/reset/', {
      email: a.email,
      key,
      password: 'too late passphrase',
    });
    expect(expired.statusCode).toBe(400);
    expect((await post('/api/auth/login/', { email: a.email, password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('abuse limits', () => {
  it('limits login attempts per account with 429 and Retry-After, without blocking other accounts', async () => {
    const s = await signUp(app, rt.mailer);
    const other = await signUp(app, rt.mailer);
    for (let i = 0; i < 10; i++) {
      const res = await post(
        '/api/auth/login/',
        { email: s.email, password: 'wrong guess' },
        `198.51.100.${i + 1}`,
      );
      expect(res.statusCode).toBe(400);
    }
    const limited = await post('/api/auth/login/', { email: s.email, password: PASSWORD }, '198.51.100.200');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(
      (await post('/api/auth/login/', { email: other.email, password: PASSWORD }, '198.51.100.200'))
        .statusCode,
    ).toBe(200);
  });

  it('limits registrations per IP', async () => {
    const ip = '203.0.113.77';
    await clearOfWindowEdge(60 * 60, 60);
    for (let i = 0; i < 10; i++) {
      expect(
        (await post('/api/auth/register/', { first_name: 'R', email: uniqueEmail(), password: PASSWORD }, ip))
          .statusCode,
      ).toBe(201);
    }
    const limited = await post(
      '/api/auth/register/',
      { first_name: 'R', email: uniqueEmail(), password: PASSWORD },
      ip,
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('limits password-reset requests per account whether or not it exists', async () => {
    const email = uniqueEmail('flood');
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/auth/password/forgot/', { email }, `198.18.0.${i + 1}`)).statusCode).toBe(200);
    }
    expect((await post('/api/auth/password/forgot/', { email }, '198.18.0.99')).statusCode).toBe(429);
  });
});
