import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { OUTBOX_ERRORS } from '@titan/contracts';
import type { Config } from '../../../config';
import { startRuntime, type Runtime } from '../../../runtime';
import {
  createTestRuntime,
  createTestStore,
  testConfig,
  type TestRuntime,
} from '../../../testing/test-runtime';
import { PASSWORD, uniqueEmail } from '../../../testing/identity';

/** A runtime built from a config as given (no parseConfigEnv), logging into `lines`. */
async function runtimeWith(overrides: Partial<Config>, lines: string[] = []): Promise<Runtime> {
  const store = await createTestStore();
  const config = { ...testConfig(store), ...overrides };
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const rt = await startRuntime(config, logger, { http: true, workers: false });
  cleanups.push(async () => {
    await rt.close();
    await store.destroy();
  });
  return rt;
}
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the development outbox, on the default loopback bind', () => {
  let rt: TestRuntime;
  const email = uniqueEmail('outbox');
  const other = uniqueEmail('other');
  beforeAll(async () => {
    rt = await createTestRuntime({ env: { PUBLIC_URL: 'http://localhost:3000' } });
    for (const to of [email, other]) {
      const res = await rt.app!.inject({
        method: 'POST',
        url: '/api/auth/register/',
        payload: { first_name: 'Otto', email: to, password: PASSWORD },
      });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => rt.destroy());

  const get = (options: { url?: string; remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    rt.app!.inject({
      method: 'GET',
      url: options.url ?? `/api/dev/outbox/?to=${encodeURIComponent(email)}`,
      remoteAddress: options.remoteAddress ?? '127.0.0.1',
      headers: { host: 'localhost:3000', ...options.headers },
    });

  it("answers a request from this machine with that address's mail only", async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    const mails = res.json().result as { to: string; subject: string }[];
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[email, 'Confirm your email address']]);
    expect((await get({ remoteAddress: '::1', headers: { host: '[::1]:3000' } })).statusCode).toBe(200);
    expect((await get({ remoteAddress: '::ffff:127.0.0.1' })).statusCode).toBe(200);
  });

  it('refuses to list everybody’s mail: `to` is required, with a field message', async () => {
    const res = await get({ url: '/api/dev/outbox/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ to: [OUTBOX_ERRORS.toRequired] });
    const bad = await get({ url: '/api/dev/outbox/?to=nobody' });
    expect(bad.json().result).toEqual({ to: ['Enter a valid email address.'] });
  });

  it('refuses a request a proxy forwarded from another address, and one from another machine', async () => {
    const forwardedFromElsewhere: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
      { forwarded: 'for=203.0.113.9;proto=https' },
      { forwarded: 'for="[2001:db8::1]:4711"' },
      { forwarded: 'for=unknown' },
      { 'x-real-ip': '10.0.0.7' },
    ];
    for (const headers of forwardedFromElsewhere) {
      const res = await get({ headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().message).toBe(OUTBOX_ERRORS.notLocal);
      expect(JSON.stringify(res.json())).not.toContain(email);
    }
    expect((await get({ remoteAddress: '192.0.2.10' })).statusCode).toBe(403);
    // A proxy on this machine forwarding for this machine is still local.
    expect(
      (await get({ headers: { 'x-forwarded-for': '127.0.0.1', forwarded: 'for="[::1]"' } })).statusCode,
    ).toBe(200);
  });

  it('refuses a Host that does not name this machine (a page rebinding its DNS name to 127.0.0.1)', async () => {
    const res = await get({ headers: { host: 'attacker.example:3000' } });
    expect(res.statusCode).toBe(403);
  });

  it('says where mail goes and who can read it', () => {
    expect(rt.mailer.describeDelivery('http://localhost:3000')).toBe(
      'Mail is not sent: it is kept in the development outbox, readable only on this machine — printed ' +
        'below as it is sent, and at http://localhost:3000/dev/outbox. Set SMTP_URL to send mail.',
    );
  });
});

describe('the development outbox elsewhere', () => {
  it('refuses a forwarded request whatever TRUST_PROXY says', async () => {
    const rt = await runtimeWith({ TRUST_PROXY: true });
    const res = await rt.app!.inject({
      method: 'GET',
      url: `/api/dev/outbox/?to=${encodeURIComponent(uniqueEmail())}`,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('does not exist on a bind other than loopback, even if the config check was bypassed', async () => {
    const rt = await runtimeWith({ HOST: '0.0.0.0' });
    expect(rt.mailer.usesOutbox).toBe(false);
    const res = await rt.app!.inject({
      method: 'GET',
      url: `/api/dev/outbox/?to=${encodeURIComponent(uniqueEmail())}`,
    });
    expect(res.statusCode).toBe(404);
    expect(rt.mailer.describeDelivery('http://titan.example')).toBe(
      'Mail cannot be delivered: SMTP_URL is not set.',
    );
  });

  it('prints each kept mail to the log: recipient, subject and links', async () => {
    const lines: string[] = [];
    const rt = await runtimeWith({ PUBLIC_URL: 'http://localhost:3000' }, lines);
    const email = uniqueEmail('printed');
    await rt.app!.inject({
      method: 'POST',
      url: '/api/auth/register/',
      payload: { first_name: 'Pia', email, password: PASSWORD },
    });
    const printed = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.msg.startsWith('Mail kept in the development outbox'));
    expect(printed).toHaveLength(1);
    expect(printed[0]!.level).toBe(30);
    const [link] = (await rt.mailer.listOutbox(email))[0]!.links;
    expect(link).toMatch(/^http:\/\/localhost:3000\/auth\/account-confirm-email\/[\w-]+$/);
    expect(printed[0]!.msg).toBe(
      [
        'Mail kept in the development outbox',
        `  To:      ${email}`,
        '  Subject: Confirm your email address',
        `  Link:    ${link}`,
      ].join('\n'),
    );
  });

  it('names the SMTP server, never its credentials', async () => {
    const rt = await runtimeWith({ SMTP_URL: 'smtp://titan:s3cret@mail.example.com:587' });
    expect(rt.mailer.describeDelivery('http://localhost:3000')).toBe(
      'Mail is sent through the SMTP server mail.example.com:587 (SMTP_URL).',
    );
  });
});
