// TOTP enrolment and sign-in, recovery codes (once each), replay refused, the second factor's
// rate limit, a business requiring 2FA, and sessions (own, an owner's view of a member's, and
// another business's owner seeing nothing).
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MFA_ENROLMENT_REQUIRED, MFA_ERRORS } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { findUserByEmail } from '../auth.repository';
import { completeFirstFactor } from '../mfa.service';
import { addMember, as, createBusiness, PASSWORD, signUp, type Session } from '../../../testing/identity';

let rt: TestRuntime;
let app: FastifyInstance;
beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
});
afterAll(() => rt.destroy());

let ipCounter = 0;
const freshIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const totp = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

/** A code of the next time step (the server accepts ±1 step), distinct from the current one. */
const nextCode = (secret: string) => totp(secret).generate({ timestamp: Date.now() + 30_000 });

async function enrolTotp(session: Session): Promise<{ secret: string; codes: string[] }> {
  const setup = await app.inject({ method: 'POST', url: '/api/auth/2fa/totp/setup/', headers: as(session) });
  expect(setup.statusCode).toBe(200);
  const { secret, otpauth_url } = setup.json().result as { secret: string; otpauth_url: string };
  expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Titan:.+\?.*secret=/);
  const confirm = await app.inject({
    method: 'POST',
    url: '/api/auth/2fa/totp/confirm/',
    headers: as(session),
    payload: { code: totp(secret).generate() },
  });
  expect(confirm.statusCode).toBe(200);
  return { secret, codes: confirm.json().result.recovery_codes as string[] };
}

const login = (email: string, ip = freshIp()) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    remoteAddress: ip,
    payload: { email, password: PASSWORD },
  });
const loginMfa = (payload: object, ip = freshIp()) =>
  app.inject({ method: 'POST', url: '/api/auth/login/mfa/', remoteAddress: ip, payload });

describe('TOTP', () => {
  it('enrols, seals the secret, and then asks for a code at sign-in', async () => {
    const user = await signUp(app, rt.mailer);
    const { secret, codes } = await enrolTotp(user);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [row] = await rt.database.query<{ totp_secret: string }>(
      'select totp_secret from users where email = $1',
      [user.email],
    );
    expect(row!.totp_secret).not.toContain(secret);
    const hashes = await rt.database.query<{ code_hash: string }>(
      'select code_hash from user_recovery_codes c join users u on u.id = c.user_id where u.email = $1',
      [user.email],
    );
    expect(hashes).toHaveLength(10);
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);

    const first = await login(user.email);
    expect(first.statusCode).toBe(200);
    const step = first.json().result;
    expect(step).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    expect(step.access).toBeUndefined();

    const wrong = await loginMfa({ mfa_token: step.mfa_token, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().result.code).toEqual([MFA_ERRORS.badCode]);

    const code = nextCode(secret);
    const ok = await loginMfa({ mfa_token: step.mfa_token, code });
    expect(ok.statusCode).toBe(200);
    const tokens = ok.json().result;
    expect(tokens.access).toEqual(expect.any(String));
    const profile = await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(tokens) });
    expect(profile.statusCode).toBe(200);

    // The token is spent, and the same code is refused in a new sign-in (no replay in its window).
    expect((await loginMfa({ mfa_token: step.mfa_token, code })).statusCode).toBe(401);
    const again = (await login(user.email)).json().result;
    const replay = await loginMfa({ mfa_token: again.mfa_token, code });
    expect(replay.statusCode).toBe(400);
  });

  it('takes each recovery code once', async () => {
    const user = await signUp(app, rt.mailer);
    const { codes } = await enrolTotp(user);
    const first = (await login(user.email)).json().result;
    const used = await loginMfa({ mfa_token: first.mfa_token, recovery_code: codes[3]!.toUpperCase() });
    expect(used.statusCode).toBe(200);
    expect(used.json().result.access).toEqual(expect.any(String));
    const second = (await login(user.email)).json().result;
    const reused = await loginMfa({ mfa_token: second.mfa_token, recovery_code: codes[3] });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().result.recovery_code).toEqual([MFA_ERRORS.badRecoveryCode]);
    const other = await loginMfa({ mfa_token: second.mfa_token, recovery_code: codes[4] });
    expect(other.statusCode).toBe(200);
  });

  it('spends a second-step token after 5 wrong codes and locks the account after 10', async () => {
    const user = await signUp(app, rt.mailer);
    await enrolTotp(user);
    const step = (await login(user.email)).json().result;
    for (let i = 0; i < 5; i += 1) {
      expect((await loginMfa({ mfa_token: step.mfa_token, code: '111111' })).statusCode).toBe(400);
    }
    expect((await loginMfa({ mfa_token: step.mfa_token, code: '111111' })).statusCode).toBe(401);
    const step2 = (await login(user.email)).json().result;
    for (let i = 0; i < 5; i += 1) await loginMfa({ mfa_token: step2.mfa_token, code: '222222' });
    const step3 = (await login(user.email)).json().result;
    const locked = await loginMfa({ mfa_token: step3.mfa_token, code: '333333' });
    expect(locked.statusCode).toBe(429);
  });

  it("counts an identity provider's amr of mfa, otp or hwk as the second factor", async () => {
    const user = await signUp(app, rt.mailer);
    await enrolTotp(user);
    const row = (await findUserByEmail(rt.services.db, user.email))!;
    const client = { ip: freshIp(), userAgent: null, requestId: 'amr-test' };
    const weak = await completeFirstFactor(rt.services, row, client, ['pwd']);
    expect(weak).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    for (const amr of [['mfa'], ['pwd', 'otp'], ['hwk']]) {
      const strong = await completeFirstFactor(rt.services, row, client, amr);
      expect(strong, amr.join()).toMatchObject({ access: expect.any(String) });
    }
  });

  it('turns off', async () => {
    const user = await signUp(app, rt.mailer);
    await enrolTotp(user);
    const off = await app.inject({ method: 'DELETE', url: '/api/auth/2fa/totp/', headers: as(user) });
    expect(off.statusCode).toBe(200);
    const res = await login(user.email);
    expect(res.json().result.access).toEqual(expect.any(String));
  });
});

describe('a business that requires 2FA', () => {
  it('only owners set it; members without 2FA reach nothing but enrolment until they enrol', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Strict');
    const admin = await addMember(app, rt.mailer, owner, business, 'admin');
    const member = await addMember(app, rt.mailer, owner, business, 'agent');
    const byAdmin = await app.inject({
      method: 'PUT',
      url: '/api/business/',
      headers: as(admin, business),
      payload: { require_2fa: true },
    });
    expect(byAdmin.statusCode).toBe(403);
    const set = await app.inject({
      method: 'PUT',
      url: '/api/business/',
      headers: as(owner, business),
      payload: { require_2fa: true },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().result.require_2fa).toBe(true);

    const signedIn = (await login(member.email)).json().result;
    expect(signedIn.access).toEqual(expect.any(String));
    for (const url of ['/api/business/', '/api/msg/conversations/', '/api/template/']) {
      const blocked = await app.inject({ method: 'GET', url, headers: as(signedIn, business) });
      expect(blocked.statusCode, url).toBe(403);
      expect(blocked.json().result).toEqual({ code: MFA_ENROLMENT_REQUIRED });
    }
    const status = await app.inject({ method: 'GET', url: '/api/auth/2fa/', headers: as(signedIn) });
    expect(status.json().result.enrolment_required).toBe(true);
    const profile = await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(signedIn) });
    expect(profile.statusCode).toBe(200);

    await enrolTotp(signedIn);
    const open = await app.inject({ method: 'GET', url: '/api/business/', headers: as(signedIn, business) });
    expect(open.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('lists the devices, ends one, and lets only an owner of a shared business see a member’s', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Devices');
    const member = await addMember(app, rt.mailer, owner, business, 'agent');
    const phone = (
      await app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        remoteAddress: freshIp(),
        headers: {
          'user-agent':
            'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
        },
        payload: { email: member.email, password: PASSWORD },
      })
    ).json().result;

    const mine = await app.inject({ method: 'GET', url: '/api/auth/sessions/', headers: as(member) });
    expect(mine.statusCode).toBe(200);
    const list = mine.json().result as Array<{ id: string; browser: string; os: string; current: boolean }>;
    expect(list).toHaveLength(2);
    const iphone = list.find((s) => s.os === 'iOS')!;
    expect(iphone.browser).toMatch(/^Safari 17/);
    expect(list.find((s) => s.current)).toBeDefined();

    // Another business's owner sees nothing of them and cannot end them.
    const stranger = await signUp(app, rt.mailer);
    const other = await createBusiness(app, stranger, 'Elsewhere');
    const peek = await app.inject({
      method: 'GET',
      url: `/api/auth/sessions/?user=${member.user.pk}`,
      headers: as(stranger, other),
    });
    expect(peek.statusCode).toBe(404);
    const end = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${iphone.id}/`,
      headers: as(stranger, other),
    });
    expect(end.statusCode).toBe(404);
    const sneaky = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${iphone.id}/`,
      headers: as(stranger, business),
    });
    expect(sneaky.statusCode).toBe(404);

    // The owner of their business sees and ends the phone's session.
    const theirs = await app.inject({
      method: 'GET',
      url: `/api/auth/sessions/?user=${member.user.pk}`,
      headers: as(owner, business),
    });
    expect(theirs.json().result).toHaveLength(2);
    const ended = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${iphone.id}/`,
      headers: as(owner, business),
    });
    expect(ended.statusCode).toBe(200);
    const audit = await app.inject({
      method: 'GET',
      url: '/api/audit-log/?action=member.session_ended',
      headers: as(owner, business),
    });
    expect(audit.json().result.results[0]).toMatchObject({
      actor: { type: 'member', id: owner.user.pk },
      object_id: String(member.user.pk),
    });
    const dead = await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as(phone) });
    expect(dead.statusCode).toBe(401);
    const refresh = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh/',
      payload: { refresh: phone.refresh },
    });
    expect(refresh.statusCode).toBe(401);

    // The member ends their own (current) one.
    const current = list.find((s) => s.current)!;
    const self = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${current.id}/`,
      headers: as(member),
    });
    expect(self.statusCode).toBe(200);
  });
});
