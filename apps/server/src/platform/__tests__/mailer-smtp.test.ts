import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '@titan/smtp-sink';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';
import { PASSWORD, uniqueEmail } from '../../testing/identity';
import { MAIL_RETRY_QUEUE } from '../mailer';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function sink(options: Parameters<typeof startSmtpSink>[0] = {}): Promise<SmtpSink> {
  const s = await startSmtpSink(options);
  cleanups.push(() => s.close());
  return s;
}

async function runtime(env: Record<string, string>, workers = false): Promise<TestRuntime> {
  const rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com', ...env }, workers });
  cleanups.push(() => rt.destroy());
  return rt;
}

function register(rt: TestRuntime, email: string) {
  return rt.app!.inject({
    method: 'POST',
    url: '/api/auth/register/',
    payload: { first_name: 'Mia', email, password: PASSWORD },
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('mail over SMTP', () => {
  it('delivers the verification mail over SMTP with a text and an HTML part and the configured sender', async () => {
    const smtp = await sink();
    const rt = await runtime({ SMTP_URL: smtp.url, MAIL_FROM: 'Titan Team <hello@titan.example.com>' });
    const email = uniqueEmail('smtp');
    expect((await register(rt, email)).statusCode).toBe(201);

    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email));
    expect(mail.envelope.from).toBe('hello@titan.example.com');
    expect(mail.from).toBe('"Titan Team" <hello@titan.example.com>');
    expect(mail.subject).toBe('Confirm your email address');
    const link = mail.text.match(/https:\/\/titan\.example\.com\/auth\/account-confirm-email\/[\w-]+/)?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.headers['content-type']).toContain('multipart/alternative');
    // With a mail server configured there is no development outbox.
    expect((await rt.app!.inject({ method: 'GET', url: '/api/dev/outbox/' })).statusCode).toBe(404);
  });

  it('authenticates to the mail server with the credentials in SMTP_URL', async () => {
    const smtp = await sink({ auth: { user: 'titan', pass: 's3cret p@ss' } });
    const rt = await runtime({ SMTP_URL: smtp.url });
    const email = uniqueEmail('auth');
    await register(rt, email);
    expect((await smtp.waitFor((m) => m.envelope.to.includes(email))).subject).toBe(
      'Confirm your email address',
    );
  });

  it('keeps a mail the server could not take and delivers it from the retry queue later', async () => {
    const port = await freePort();
    const rt = await runtime({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const email = uniqueEmail('later');
    // The mail server is down: the person still gets their account, and the mail waits in a job.
    expect((await register(rt, email)).statusCode).toBe(201);
    const [queued] = await rt.database.query<{ data: { to: string } }>(
      `select data from pgboss.job where name = $1`,
      [MAIL_RETRY_QUEUE],
    );
    expect(queued!.data.to).toBe(email);

    const smtp = await sink({ port });
    await rt.jobs.startWorkers();
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email), 20_000);
    expect(mail.subject).toBe('Confirm your email address');
  });

  it('has no development outbox in production', async () => {
    const rt = await runtime({ NODE_ENV: 'production', APP_SECRET: 'p'.repeat(40) });
    expect((await rt.app!.inject({ method: 'GET', url: '/api/dev/outbox/' })).statusCode).toBe(404);
  });
});
