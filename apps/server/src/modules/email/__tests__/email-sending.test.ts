// Sending mail end to end over real SMTP: Titan → tools/smtp-sink, and back (DSNs, complaints,
// mailto unsubscribes) → Titan's bounce listener. DKIM checked by an independent verifier.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  BUSINESS_NAME_LINE_BREAK,
  FROM_ERRORS,
  MARKETING_CONSENT_ERRORS,
  ZAgentChannelConfig,
  type TBusiness,
} from '@titan/contracts';
import { buildArf, buildDsn, startSmtpSink, type ReceivedMail, type SmtpSink } from '@titan/smtp-sink';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { findBusiness } from '../../business/business.service';
import { listEvents } from '../../sends/sends.events.repository';
import * as sendsService from '../../sends/sends.service';
import { findSuppression, suppress } from '../../suppressions/suppressions.service';
import { setCustomerConsent } from '../../consent/consent.service';
import { CONSENT_SKIP_REASONS } from '../../broadcasts/broadcasts.service';
import { RECOVER_QUEUE } from '../../whatsapp/whatsapp.queues';
import { setTemplatesForTests, TemplateRenderError, type CompiledTemplate } from '../email-templates';
import { buildSend, sendContext, sendEmail, UNSUBSCRIBE_FOOTER_WORDS } from '../email.service';
import { setSendingIdentityLookupForTests } from '../sending-identity';
import * as samples from './bounce-samples';
import { dkimKey, freePort, signUpViaSink, verifiedDomains, waitForSend } from './email-helpers';

const require = createRequire(import.meta.url);
const { dkimVerify } = require('mailauth/lib/dkim/verify') as {
  dkimVerify: (
    input: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ) => Promise<{ results: { status: { result: string }; signingHeaders?: { keys: string } }[] }>;
};

let sink: SmtpSink;
let rt: TestRuntime;
let bouncePort: number;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
const key = dkimKey();
const other_key = dkimKey();

beforeAll(async () => {
  bouncePort = await freePort();
  sink = await startSmtpSink({ bounceTo: `127.0.0.1:${bouncePort}` });
  rt = await createTestRuntime({
    workers: true,
    env: {
      SMTP_URL: sink.url,
      PUBLIC_URL: 'https://titan.example.com',
      BOUNCE_SMTP_PORT: String(bouncePort),
      EMAIL_RETRY_DELAYS_MS: '300,300',
    },
  });
  owner = await signUpViaSink(rt.app!, sink);
  business = await createBusiness(owner, 'Acme');
  const otherOwner = await signUpViaSink(rt.app!, sink);
  other = { owner: otherOwner, business: await createBusiness(otherOwner, 'Other Co') };
  verifiedDomains([
    { businessId: business.id, domain: 'acme.test', pem: key.pem },
    { businessId: other.business.id, domain: 'other.test', pem: other_key.pem },
  ]);
});
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  setTemplatesForTests(null);
  await rt?.destroy();
  await sink?.close();
});

async function createBusiness(session: Session, name: string): Promise<TBusiness> {
  const res = await rt.app!.inject({
    method: 'POST',
    url: '/api/business/',
    headers: as(session),
    payload: { name },
  });
  return res.json().result as TBusiness;
}

const tokens = () => rt.services.email.tokens;
/** The mailto: unsubscribe address of a mail's List-Unsubscribe. */
const mailtoOf = (mail: ReceivedMail) => /<mailto:([^>]+)>/.exec(mail.headers['list-unsubscribe']!)![1]!;

/** Mail to Titan's bounce listener, from the null sender as mail systems send reports. */
async function toListener(to: string, raw: string, from = ''): Promise<void> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: bouncePort,
    secure: false,
    ignoreTLS: true,
  });
  try {
    await transport.sendMail({ envelope: { from, to: [to] }, raw });
  } finally {
    transport.close();
  }
}

let counter = 0;
const address = (label: string) => `${label}.${process.pid}.${++counter}@mail.example.test`;

function sendMail(payload: Record<string, unknown>, session: Session = owner, b: TBusiness = business) {
  return rt.app!.inject({
    method: 'POST',
    url: '/api/agents/send-mail/',
    headers: as(session, b),
    payload: { from: 'Acme News <news@acme.test>', ...payload },
  });
}

async function sent(to: string): Promise<{ id: string; mail: ReceivedMail }> {
  const res = await sendMail({
    email: to,
    subject: 'Hello',
    html: '<p>Hi <a href="https://acme.test/x">there</a></p>',
  });
  expect(res.statusCode).toBe(202);
  const id = res.json().result.id as string;
  const mail = await sink.waitFor((m) => m.envelope.to.includes(to));
  return { id, mail };
}

async function customer(b: TBusiness, name: string, email?: string): Promise<number> {
  const res = await rt.app!.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, ...(email ? { email } : {}) },
  });
  return res.json().result.customer.id as number;
}

describe('a mail on the wire', () => {
  it('is DKIM-signed over List-Unsubscribe and List-Unsubscribe-Post, with VERP, the headers and a text part', async () => {
    const to = address('wire');
    const { id, mail } = await sent(to);

    const verified = await dkimVerify(mail.raw, {
      resolver: async (name, type) => {
        expect(type).toBe('TXT');
        if (name === 's2026._domainkey.acme.test') return [[key.record]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(verified.results[0]!.status.result).toBe('pass');
    const signed = /\bh=([^;]+)/
      .exec(mail.headers['dkim-signature']!.replace(/\s+/g, ''))![1]!
      .toLowerCase()
      .split(':');
    expect(signed).toEqual(
      expect.arrayContaining([
        'from',
        'subject',
        'date',
        'to',
        'message-id',
        'list-unsubscribe',
        'list-unsubscribe-post',
      ]),
    );

    // VERP: the envelope sender (the Return-Path) names the send, signed.
    const hex = id.replace(/-/g, '');
    expect(mail.envelope.from).toMatch(new RegExp(`^bounce\\+${hex}\\.[0-9a-z]{16}@bounces\\.acme\\.test$`));
    expect(tokens().verifyVerp(mail.envelope.from!)).toEqual({ kind: 'bounce', sendId: id });
    const unsubscribe = mail.headers['list-unsubscribe']!;
    expect(unsubscribe).toMatch(
      /^<https:\/\/titan\.example\.com\/api\/email\/unsubscribe\/\?token=[\w.-]+>,\s*<mailto:unsubscribe\+/,
    );
    expect(tokens().verifyVerp(mailtoOf(mail))).toEqual({ kind: 'unsubscribe', sendId: id });
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.from).toBe('"Acme News" <news@acme.test>');
    expect(mail.text).toContain('Hi there');
    expect(mail.headers['content-type']).toContain('multipart/alternative');

    const send = await waitForSend(rt.services.db, id, (s) => s.status === 'sent');
    expect(send.providerMessageId).toBe(`<${id}@acme.test>`);
    expect(mail.headers['message-id']).toBe(send.providerMessageId);
    expect(send.providerRequest).toMatchObject({
      from: '"Acme News" <news@acme.test>',
      to,
      subject: 'Hello',
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(JSON.stringify(send.providerRequest)).not.toContain('PRIVATE KEY');
    // email_count counts what the mail server accepted.
    await expect
      .poll(async () => (await findBusiness(rt.services.db, business.id)).email_count)
      .toBeGreaterThanOrEqual(1);
  });

  it('refuses a From address that is not on a verified domain of the business (409), recording nothing', async () => {
    const res = await sendMail({ email: address('x'), subject: 'Hi', text: 'Hi', from: 'news@other.test' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'other.test is not a verified sending domain of this business. Add it in Settings → Email domains and verify it, then send again.',
    );
    const noFrom = await sendMail({ email: address('x'), subject: 'Hi', text: 'Hi', from: undefined });
    expect(noFrom.statusCode).toBe(400);
    expect(noFrom.json().result.from).toBeDefined();
  });

  it('records a suppressed address as `suppressed` and calls nothing', async () => {
    const to = address('suppressed');
    await suppress(rt.services.db, {
      businessId: business.id,
      channel: 'email',
      address: to.toUpperCase(),
      reason: 'manual',
    });
    const res = await sendMail({ email: to, subject: 'Hi', text: 'Hi' });
    expect(res.statusCode).toBe(202);
    expect(res.json().result.status).toBe('suppressed');
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages.some((m) => m.envelope.to.includes(to))).toBe(false);
    // Another business may still mail that address.
    const elsewhere = await sendMail(
      { email: to, subject: 'Hi', text: 'Hi', from: 'hi@other.test' },
      other.owner,
      other.business,
    );
    expect(elsewhere.json().result.status).toBe('queued');
  });

  it('sends one mail for one idempotency key', async () => {
    const to = address('idem');
    const first = await sendMail({ email: to, subject: 'Once', text: 'Once', idempotency_key: `k-${to}` });
    const second = await sendMail({ email: to, subject: 'Once', text: 'Once', idempotency_key: `k-${to}` });
    expect(second.json().result.id).toBe(first.json().result.id);
    await waitForSend(rt.services.db, first.json().result.id, (s) => s.status === 'sent');
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.messages.filter((m) => m.envelope.to.includes(to))).toHaveLength(1);
  });
});

describe('SMTP answers', () => {
  it('retries a transient 4xx with backoff, then succeeds', async () => {
    const to = address('deferred');
    sink.setBehavior(to, { code: 451, times: 1 });
    const res = await sendMail({ email: to, subject: 'Later', text: 'Later' });
    const id = res.json().result.id as string;
    const send = await waitForSend(rt.services.db, id, (s) => s.status === 'sent');
    const events = await listEvents(rt.services.db, send);
    expect(events.filter((e) => e.type === 'deferred')).toHaveLength(1);
    expect(events.find((e) => e.type === 'deferred')!.payload).toMatchObject({ code: '451' });
  });

  it('gives up after the bounded attempts with the server words', async () => {
    const to = address('always-deferred');
    sink.setBehavior(to, { code: 451 });
    const res = await sendMail({ email: to, subject: 'Never', text: 'Never' });
    const send = await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'failed');
    expect(send.errorCode).toBe('451');
    expect(send.errorMessage).toContain('Greylisted, please try again later');
    expect(send.errorMessage).toContain('gave up after 3 attempts');
  });

  it('fails a permanent 5xx at once with the server words', async () => {
    const to = address('refused');
    sink.setBehavior(to, { code: 550 });
    const res = await sendMail({ email: to, subject: 'No', text: 'No' });
    const send = await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'failed');
    expect(send.errorCode).toBe('550');
    expect(send.errorMessage).toMatch(/^The mail server refused the message: .*Mailbox does not exist/);
    const events = await listEvents(rt.services.db, send);
    expect(events.filter((e) => e.type === 'deferred')).toHaveLength(0);
  });
});

describe('what comes back', () => {
  it('a DSN for a hard bounce marks the send bounced with the diagnostic and suppresses the address', async () => {
    const to = address('bounce');
    sink.setBehavior(to, 'bounce');
    const { id } = await sent(to);
    const send = await waitForSend(rt.services.db, id, (s) => s.status === 'bounced');
    expect(send.errorCode).toBe('5.1.1');
    expect(send.errorMessage).toContain('User unknown');
    const suppression = await findSuppression(rt.services.db, business.id, 'email', to);
    expect(suppression).toMatchObject({ reason: 'bounced', sendId: id });
    // The next mail to it is not sent.
    const again = await sendMail({ email: to, subject: 'Again', text: 'Again' });
    expect(again.json().result.status).toBe('suppressed');
  });

  it('a soft bounce is kept as an event only', async () => {
    const to = address('soft');
    sink.setBehavior(to, 'soft-bounce');
    const { id } = await sent(to);
    await expect
      .poll(
        async () =>
          (await listEvents(rt.services.db, await waitForSend(rt.services.db, id, () => true))).map(
            (e) => e.type,
          ),
        { timeout: 10_000 },
      )
      .toContain('soft_bounce');
    expect((await waitForSend(rt.services.db, id, () => true)).status).toBe('sent');
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toBeNull();
  });

  it('an ARF complaint marks the send complained and suppresses the address', async () => {
    const to = address('complain');
    sink.setBehavior(to, 'complain');
    const { id } = await sent(to);
    await waitForSend(rt.services.db, id, (s) => s.status === 'complained');
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toMatchObject({
      reason: 'complained',
    });
  });

  it('mail to the signed mailto: unsubscribe address unsubscribes; unsigned and unknown addresses are refused at RCPT', async () => {
    const to = address('mailto');
    const { id, mail } = await sent(to);
    await waitForSend(rt.services.db, id, (s) => s.status === 'sent');
    // Knowing the send id (it is in the Message-ID and every tracking link) is not enough.
    for (const unsigned of [
      `unsubscribe+${id}@bounces.acme.test`,
      `bounce+${id}@bounces.acme.test`,
      `unsubscribe+${id.replace(/-/g, '')}@bounces.acme.test`,
      mailtoOf(mail).replace(/\.[0-9a-z]{16}@/, '.0000000000000000@'),
      // A bounce address does not make an unsubscribe address.
      mail.envelope.from!.replace(/^bounce\+/, 'unsubscribe+'),
      'postmaster@bounces.acme.test',
    ]) {
      await expect(
        toListener(unsigned, `From: <${to}>\r\nSubject: unsubscribe\r\n\r\nunsubscribe\r\n`, to),
        unsigned,
      ).rejects.toMatchObject({ responseCode: 550 });
    }
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toBeNull();
    await toListener(
      mailtoOf(mail),
      `From: <${to}>\r\nTo: <${mailtoOf(mail)}>\r\nSubject: unsubscribe\r\n\r\nunsubscribe\r\n`,
      to,
    );
    await expect
      .poll(async () => (await findSuppression(rt.services.db, business.id, 'email', to))?.reason)
      .toBe('unsubscribed');
  });

  it('a report counts only when its recipient and original Message-ID are the send’s', async () => {
    const to = address('match');
    const { id, mail } = await sent(to);
    await waitForSend(rt.services.db, id, (s) => s.status === 'sent');
    const returnPath = mail.envelope.from!;
    const messageId = mail.headers['message-id']!;
    const dsn = (recipient: string, original: string) =>
      buildDsn({
        returnPath,
        recipient,
        soft: false,
        original: Buffer.from(
          `From: news@acme.test\r\nTo: ${recipient}\r\nMessage-ID: ${original}\r\n\r\nx\r\n`,
        ),
      });
    await toListener(returnPath, dsn(to, `<${randomUUID()}@acme.test>`));
    await toListener(returnPath, dsn(address('someone-else'), messageId));
    await toListener(
      returnPath,
      samples.qmailRemote({ returnPath, recipient: 'other@example.net', messageId }),
    );
    // A report without the original's headers cannot be matched either.
    await toListener(returnPath, dsn(to, messageId).replace(/Message-ID: <[^>]+@acme\.test>\r\n/, ''));
    const complaint = buildArf({
      returnPath,
      recipient: to,
      original: Buffer.from(`From: news@acme.test\r\nMessage-ID: <${randomUUID()}@acme.test>\r\n\r\nx\r\n`),
    });
    await toListener(returnPath, complaint);
    const unchanged = await waitForSend(rt.services.db, id, () => true);
    expect(unchanged.status).toBe('sent');
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toBeNull();
    expect((await listEvents(rt.services.db, unchanged)).map((e) => e.type)).not.toContain('bounced');

    // The same report about this send (the recipient in another case) bounces it.
    await toListener(returnPath, dsn(to.toUpperCase(), messageId));
    await waitForSend(rt.services.db, id, (s) => s.status === 'bounced');
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toMatchObject({
      reason: 'bounced',
    });
  });

  it.each([
    ['qmail', samples.qmailRemote, '5.1.1'],
    ['classic Exim', samples.eximClassic, '5.1.1'],
    ['older Gmail', samples.gmailOld, '5.1.1'],
    ['Exchange 2003', samples.exchange2003, '5.1.1'],
  ] as const)(
    'a plain-text bounce from %s bounces the send and suppresses the address',
    async (_name, build, status) => {
      const to = address('plain');
      const { id, mail } = await sent(to);
      await waitForSend(rt.services.db, id, (s) => s.status === 'sent');
      await toListener(
        mail.envelope.from!,
        build({ returnPath: mail.envelope.from!, recipient: to, messageId: mail.headers['message-id']! }),
      );
      const send = await waitForSend(rt.services.db, id, (s) => s.status === 'bounced');
      expect(send.errorCode).toBe(status);
      expect(await findSuppression(rt.services.db, business.id, 'email', to)).toMatchObject({
        reason: 'bounced',
        sendId: id,
      });
    },
  );

  it.each([
    ['Gmail', samples.gmailFull],
    ['iCloud', samples.icloudFull],
    ['Outlook.com', samples.outlookFull],
    ['qmail (#5.2.2)', samples.qmailOverQuota],
  ] as const)('a full mailbox (5.2.2) from %s is a soft bounce: no suppression', async (_name, build) => {
    const to = address('full');
    const { id, mail } = await sent(to);
    await waitForSend(rt.services.db, id, (s) => s.status === 'sent');
    await toListener(
      mail.envelope.from!,
      build({ returnPath: mail.envelope.from!, recipient: to, messageId: mail.headers['message-id']! }),
    );
    await expect
      .poll(
        async () =>
          (await listEvents(rt.services.db, await waitForSend(rt.services.db, id, () => true))).map(
            (e) => e.type,
          ),
        {
          timeout: 10_000,
        },
      )
      .toContain('soft_bounce');
    expect((await waitForSend(rt.services.db, id, () => true)).status).toBe('sent');
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toBeNull();
  });
});

describe('unsubscribe by token', () => {
  const tokenOf = (mail: ReceivedMail) => /token=([\w.-]+)>/.exec(mail.headers['list-unsubscribe']!)![1]!;

  it('shows the state, unsubscribes with the RFC 8058 one-click POST, and resubscribes', async () => {
    const to = address('token');
    const { id, mail } = await sent(to);
    const token = tokenOf(mail);
    const state = await rt.app!.inject({ method: 'GET', url: `/api/email/unsubscribe/?token=${token}` });
    expect(state.statusCode).toBe(200);
    expect(state.json().result).toEqual({ email: to, business_name: 'Acme', unsubscribed: false });

    const oneClick = await rt.app!.inject({
      method: 'POST',
      url: `/api/email/unsubscribe/?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json().result.unsubscribed).toBe(true);
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toMatchObject({
      reason: 'unsubscribed',
      sendId: id,
    });
    const send = await waitForSend(rt.services.db, id, () => true);
    expect((await listEvents(rt.services.db, send)).map((e) => e.type)).toContain('unsubscribed');

    const back = await rt.app!.inject({ method: 'POST', url: '/api/email/resubscribe/', payload: { token } });
    expect(back.json().result.unsubscribed).toBe(false);
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toBeNull();

    // RFC 8058 also allows the one-click body as multipart/form-data.
    await rt.app!.inject({ method: 'POST', url: '/api/email/resubscribe/', payload: { token } });
    const boundary = 'x-one-click';
    const multipart = await rt.app!.inject({
      method: 'POST',
      url: `/api/email/unsubscribe/?token=${token}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);
    expect(multipart.json().result.unsubscribed).toBe(true);
    await rt.app!.inject({ method: 'POST', url: '/api/email/resubscribe/', payload: { token } });

    // The spec's agent path answers the same.
    const agents = await rt.app!.inject({ method: 'GET', url: `/api/agents/unsubscribe/?token=${token}` });
    expect(agents.json().result).toEqual({ email: to, business_name: 'Acme', unsubscribed: false });

    // The page's JSON POST unsubscribes too.
    const page = await rt.app!.inject({ method: 'POST', url: '/api/email/unsubscribe/', payload: { token } });
    expect(page.json().result.unsubscribed).toBe(true);
  });

  it('refuses forged and altered tokens and changes nothing', async () => {
    const to = address('forged');
    const { id, mail } = await sent(to);
    const token = tokenOf(mail);
    const [hex, mac] = token.split('.') as [string, string];
    const otherId = `${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${otherId}.${mac}`, `${hex}.${flipped}`, 'nonsense', `${id}.abc`, '']) {
      for (const res of [
        await rt.app!.inject({
          method: 'GET',
          url: `/api/email/unsubscribe/?token=${encodeURIComponent(bad)}`,
        }),
        await rt.app!.inject({
          method: 'POST',
          url: `/api/email/unsubscribe/?token=${encodeURIComponent(bad)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        }),
      ]) {
        expect([400, 404]).toContain(res.statusCode);
      }
    }
    expect(await findSuppression(rt.services.db, business.id, 'email', to)).toBeNull();
  });
});

describe('recovery', () => {
  it('fails a send claimed by a process that died, and sends a queued one nobody claimed', async () => {
    const db = rt.services.db;
    const ctx = await sendContext(rt.services.email, { businessId: business.id, from: 'news@acme.test' });
    const make = (to: string) =>
      buildSend(
        rt.services.email,
        ctx,
        { businessId: business.id, cause: 'agent', subject: 'Recovered', text: 'Hi' },
        {
          address: to,
          customerId: null,
          customer: null,
        },
      );
    // Claimed, then the process died before the mail server answered.
    const dead = await db.transaction((tx) => sendsService.createQueued(tx, make(address('dead'))));
    expect(await sendsService.claim(db, dead.id)).not.toBeNull();
    // Recorded, but the process died before handing it to the job.
    const toQueued = address('orphan');
    const orphan = await db.transaction((tx) => sendsService.createQueued(tx, make(toQueued)));
    await db.execute(
      sql`update sends set updated_at = now() - interval '10 minutes' where id in (${dead.id}, ${orphan.id})`,
    );
    await rt.jobs.send(RECOVER_QUEUE, {});
    const failed = await waitForSend(db, dead.id, (s) => s.status === 'failed');
    expect(failed.errorCode).toBe(sendsService.INTERRUPTED_CODE);
    await waitForSend(db, orphan.id, (s) => s.status === 'sent');
    expect(sink.messages.filter((m) => m.envelope.to.includes(toQueued))).toHaveLength(1);
  });
});

describe('POST /api/agents/send-mail/', () => {
  it('answers 400 with field messages for what is missing or contradictory', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ subject: 'Hi', text: 'Hi' }, 'email', 'Give a customer_id or an email address.'],
      [
        { email: 'a@b.test', customer_id: 1, subject: 'Hi', text: 'Hi' },
        'email',
        'Give either a customer_id or an email address, not both.',
      ],
      [{ email: 'a@b.test' }, 'subject', 'Give a template_id, or a subject with html or text.'],
      [{ email: 'a@b.test', subject: 'Hi' }, 'text', 'Give the message body: html, text or both.'],
      [{ email: 'a@b.test', text: 'Hi' }, 'subject', 'Give a subject.'],
      [
        { email: 'a@b.test', template_id: 3, subject: 'Hi', text: 'x' },
        'template_id',
        'Give either a template_id or a subject and body, not both.',
      ],
      [{ email: 'not an address', subject: 'Hi', text: 'x' }, 'email', 'Enter a valid email address.'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await sendMail(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().result[field]).toEqual([message]);
    }
  });

  it('refuses a sender name with a line break (400 on from) wherever a sender is given, sending nothing', async () => {
    const before = sink.messages.length;
    const injected = [
      'Acme\r\nBcc: victim@example.test <news@acme.test>',
      'Acme\n <news@acme.test>',
      'Acme\r<news@acme.test>',
    ];
    for (const from of injected) {
      for (const payload of [
        { from, email: 'a@b.test', subject: 'Hi', text: 'Hi' },
        { from, recipients: [{ email: 'a@b.test' }], subject: 'Hi', text: 'Hi' },
        { from, list_id: 1, subject: 'Hi', text: 'Hi' },
      ]) {
        const res = await sendMail(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().result.from).toEqual([FROM_ERRORS.lineBreak]);
      }
      const test = await rt.app!.inject({
        method: 'POST',
        url: '/api/template/1/test/',
        headers: as(owner, business),
        payload: { to: 'a@b.test', from },
      });
      expect(test.statusCode).toBe(400);
      expect(test.json().result.from).toEqual([FROM_ERRORS.lineBreak]);
      // Other modules calling the email module directly (agents, broadcasts) are held to it too.
      await expect(
        sendEmail(rt.services.email, {
          businessId: business.id,
          from,
          to: { address: 'a@b.test' },
          subject: 'Hi',
          text: 'Hi',
          cause: 'agent',
        }),
      ).rejects.toMatchObject({ code: 'bad_request', result: { from: [FROM_ERRORS.lineBreak] } });
    }
    // The business name is the From name of mail that gives none: one line as well.
    for (const [method, url] of [
      ['POST', '/api/business/'],
      ['PUT', '/api/business/'],
    ] as const) {
      const res = await rt.app!.inject({
        method,
        url,
        headers: method === 'PUT' ? as(owner, business) : as(owner),
        payload: { name: 'Acme\r\nBcc: victim@example.test' },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().result.name).toEqual([BUSINESS_NAME_LINE_BREAK]);
    }
    // An agent's email sender is a bare address: no name, no line break.
    expect(
      ZAgentChannelConfig.safeParse({ channel: 'email', from: 'Acme\r\n<news@acme.test>' }).success,
    ).toBe(false);
    expect(sink.messages.length).toBe(before);
  });

  it('answers 404 for a list, a template or a customer it cannot find — another business’s included', async () => {
    const list = await sendMail({ list_id: 999_999, subject: 'Hi', text: 'Hi' });
    expect(list.statusCode).toBe(404);
    expect(list.json().result).toEqual({ list_id: ['No such list.'] });
    const template = await sendMail({ email: 'a@b.test', template_id: 12345 });
    expect(template.statusCode).toBe(404);
    expect(template.json().result).toEqual({ template_id: ['No such template.'] });
    const theirs = await customer(other.business, 'Theirs', address('theirs'));
    expect((await sendMail({ customer_id: theirs, subject: 'Hi', text: 'Hi' })).statusCode).toBe(404);
    const noEmail = await customer(business, 'No Mail');
    const res = await sendMail({ customer_id: noEmail, subject: 'Hi', text: 'Hi' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ customer_id: ['This customer has no email address.'] });
  });

  it('sends to a customer with a template and variables, and with an API key', async () => {
    const to = address('customer');
    const id = await customer(business, 'Grace Hopper', to);
    setTemplatesForTests({
      load: async (_db, businessId, templateId) =>
        businessId === business.id && templateId === 41
          ? ({ id: 41, version: 2, name: 'Welcome' } as unknown as CompiledTemplate)
          : null,
      render: (_t, vars) => {
        const c = vars.customer as { name: string };
        if (!vars.offer) throw new TemplateRenderError('content', 1, 'undefined variable: offer');
        return {
          subject: `Welcome, ${c.name}`,
          html: `<p>${String(vars.offer)} for ${(vars.business as { name: string }).name}</p><a href="${String(vars.unsubscribe_url)}">Unsubscribe</a>`,
          text: '',
        };
      },
    });
    try {
      const bad = await sendMail({ customer_id: id, template_id: 41 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().result.variables).toEqual(['Line 1: undefined variable: offer']);

      const created = (
        await rt.app!.inject({
          method: 'POST',
          url: '/api/auth/api-keys/',
          headers: as(owner, business),
          payload: { name: 'CRM' },
        })
      ).json().result;
      const res = await rt.app!.inject({
        method: 'POST',
        url: '/api/agents/send-mail/',
        headers: { authorization: `Api-Key ${created.key}` },
        payload: {
          from: 'news@acme.test',
          customer_id: id,
          template_id: 41,
          variables: { offer: '10% off' },
        },
      });
      expect(res.statusCode).toBe(202);
      expect(res.json().result).toMatchObject({
        status: 'queued',
        recipient: to,
        customer_id: id,
        template_id: 41,
        subject: 'Welcome, Grace Hopper',
      });
      const mail = await sink.waitFor((m) => m.envelope.to.includes(to));
      expect(mail.subject).toBe('Welcome, Grace Hopper');
      expect(mail.from).toBe('"Acme" <news@acme.test>');
      expect(mail.html).toContain('10% off for Acme');
      expect(mail.html).toContain('https://titan.example.com/engage/unsubscribe?token=');
      expect(mail.text).toContain('10% off for Acme');
    } finally {
      setTemplatesForTests(null);
    }
  });

  it('renders a recipient again when a render fails once (a wall-clock render limit hit by a pause)', async () => {
    const to = address('pause');
    const id = await customer(business, 'Paused Reader', to);
    let calls = 0;
    setTemplatesForTests({
      load: async (_db, businessId, templateId) =>
        businessId === business.id && templateId === 42
          ? ({ id: 42, version: 1, name: 'Paused' } as unknown as CompiledTemplate)
          : null,
      render: (_t, vars) => {
        // Liquid's limit is wall-clock: the first render "took" too long, the second does not.
        if (++calls === 1) throw new TemplateRenderError('content', 1, 'template render limit exceeded');
        return { subject: `Hi ${(vars.customer as { name: string }).name}`, html: '<p>Hi</p>', text: 'Hi' };
      },
    });
    try {
      const res = await sendMail({ customer_id: id, template_id: 42 });
      expect(res.statusCode).toBe(202);
      expect(calls).toBe(2);
      const mail = await sink.waitFor((m) => m.envelope.to.includes(to));
      expect(mail.subject).toBe('Hi Paused Reader');
    } finally {
      setTemplatesForTests(null);
    }
  });

  it('fans recipients into a batch whose progress can be read', async () => {
    const tos = [address('b1'), address('b2'), address('b3')];
    await suppress(rt.services.db, {
      businessId: business.id,
      channel: 'email',
      address: tos[2]!,
      reason: 'unsubscribed',
    });
    const res = await sendMail({
      recipients: tos.map((email) => ({ email })),
      subject: 'News',
      text: 'News',
    });
    expect(res.statusCode).toBe(202);
    const batch = res.json().result;
    expect(batch).toMatchObject({ total: 3, suppressed: 1 });
    await expect
      .poll(
        async () =>
          (
            await rt.app!.inject({
              method: 'GET',
              url: `/api/agents/send-mail/${batch.batch_id}/`,
              headers: as(owner, business),
            })
          ).json().result,
        { timeout: 15_000 },
      )
      .toMatchObject({ total: 3, sent: 2, suppressed: 1, pending: 0, done: true });
    const theirs = await rt.app!.inject({
      method: 'GET',
      url: `/api/agents/send-mail/${batch.batch_id}/`,
      headers: as(other.owner, other.business),
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('mails every customer of a list through a broadcast: tracked links, suppression, no address counted', async () => {
    const [a, b, c] = [address('l1'), address('l2'), address('l3')];
    const ids = [await customer(business, 'List One', a), await customer(business, 'List Two', b)];
    ids.push(await customer(business, 'List Three', c), await customer(business, 'No Address'));
    for (const id of ids) await setCustomerConsent(rt.services.db, business.id, id, { email: 'subscribed' });
    await suppress(rt.services.db, {
      businessId: business.id,
      channel: 'email',
      address: c,
      reason: 'bounced',
    });
    const list = (
      await rt.app!.inject({
        method: 'POST',
        url: '/api/business/customer-lists/',
        headers: as(owner, business),
        payload: { name: `Newsletter ${counter}` },
      })
    ).json().result;
    await rt.app!.inject({
      method: 'POST',
      url: `/api/business/customer-lists/${list.id}/members/`,
      headers: as(owner, business),
      payload: { customer_ids: ids },
    });
    const res = await sendMail({
      list_id: list.id,
      subject: 'Spring news',
      html: '<p>Read <a href="https://acme.test/spring">the news</a></p>',
    });
    expect(res.statusCode).toBe(202);
    const batch = res.json().result;
    expect(batch).toMatchObject({ total: 4 });
    await expect
      .poll(
        async () =>
          (
            await rt.app!.inject({
              method: 'GET',
              url: `/api/agents/send-mail/${batch.batch_id}/`,
              headers: as(owner, business),
            })
          ).json().result,
        { timeout: 20_000 },
      )
      .toMatchObject({ total: 4, sent: 2, suppressed: 1, pending: 0, done: true });
    const mail = await sink.waitFor((m) => m.envelope.to.includes(a));
    expect(mail.subject).toBe('Spring news');
    // Links go through Titan's signed click redirect; the open pixel is there.
    expect(mail.html).toContain('https://titan.example.com/t/c/');
    expect(mail.html).toContain('https://titan.example.com/t/o/');
    expect(mail.html).not.toContain('href="https://acme.test/spring"');
    const broadcast = (
      await rt.app!.inject({
        method: 'GET',
        url: `/api/broadcasts/${batch.batch_id}/`,
        headers: as(owner, business),
      })
    ).json().result;
    expect(broadcast).toMatchObject({ status: 'done', skipped_reasons: { 'no email address': 1 } });
    const theirs = await rt.app!.inject({
      method: 'GET',
      url: `/api/agents/send-mail/${batch.batch_id}/`,
      headers: as(other.owner, other.business),
    });
    expect(theirs.statusCode).toBe(404);
    // Another business's list is not found.
    const foreign = await sendMail(
      { list_id: list.id, subject: 'x', text: 'x' },
      other.owner,
      other.business,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('mails a list’s subscribed customers only, unless the send asks for legitimate interest; never the unsubscribed', async () => {
    const [s, u, o] = [address('sub'), address('unknown'), address('out')];
    const subscribed = await customer(business, 'Subscribed', s);
    await setCustomerConsent(rt.services.db, business.id, subscribed, { email: 'subscribed' });
    const unknown = await customer(business, 'Unknown', u);
    const out = await customer(business, 'Unsubscribed', o);
    await setCustomerConsent(rt.services.db, business.id, out, { email: 'unsubscribed' });
    const list = (
      await rt.app!.inject({
        method: 'POST',
        url: '/api/business/customer-lists/',
        headers: as(owner, business),
        payload: { name: `Consent ${counter}` },
      })
    ).json().result;
    await rt.app!.inject({
      method: 'POST',
      url: `/api/business/customer-lists/${list.id}/members/`,
      headers: as(owner, business),
      payload: { customer_ids: [subscribed, unknown, out] },
    });
    const finished = async (batchId: string) => {
      await expect
        .poll(
          async () =>
            (
              await rt.app!.inject({
                method: 'GET',
                url: `/api/agents/send-mail/${batchId}/`,
                headers: as(owner, business),
              })
            ).json().result,
          { timeout: 20_000 },
        )
        .toMatchObject({ pending: 0, done: true });
      return (
        await rt.app!.inject({
          method: 'GET',
          url: `/api/broadcasts/${batchId}/`,
          headers: as(owner, business),
        })
      ).json().result;
    };
    const recipients = async (batchId: string) =>
      (
        await rt.database.query<{ recipient: string; status: string }>(
          `select recipient, status from sends where cause_id = $1 order by recipient`,
          [batchId],
        )
      ).map((r) => `${r.recipient} ${r.status}`);

    const strict = await sendMail({ list_id: list.id, subject: 'Only subscribed', text: 'News' });
    expect(strict.statusCode, strict.body).toBe(202);
    const first = await finished(strict.json().result.batch_id);
    expect(first.skipped_reasons).toMatchObject({ [CONSENT_SKIP_REASONS.notSubscribed]: 1 });
    expect(await recipients(first.id)).toEqual([`${o} suppressed`, `${s} sent`].sort());

    const wider = await sendMail({
      list_id: list.id,
      subject: 'Legitimate interest',
      text: 'News',
      consent: 'legitimate_interest',
    });
    expect(wider.statusCode, wider.body).toBe(202);
    const second = await finished(wider.json().result.batch_id);
    expect(second.skipped_reasons[CONSENT_SKIP_REASONS.notSubscribed] ?? 0).toBe(0);
    expect(await recipients(second.id)).toEqual([`${o} suppressed`, `${s} sent`, `${u} sent`].sort());
    await sink.waitFor((m) => m.envelope.to.includes(u) && m.subject === 'Legitimate interest');
    expect(sink.messages.filter((m) => m.envelope.to.includes(o))).toEqual([]);
    expect(sink.messages.filter((m) => m.envelope.to.includes(u) && m.subject === 'Only subscribed')).toEqual(
      [],
    );

    // The mode is a list send's: with one recipient it is refused, field by field.
    const single = await sendMail({ email: u, subject: 'x', text: 'x', consent: 'legitimate_interest' });
    expect(single.statusCode).toBe(400);
    expect(single.json().result).toMatchObject({ consent: [MARKETING_CONSENT_ERRORS.listOnly] });
  });

  it('puts a visible unsubscribe link in both parts of a broadcast whose template has none', async () => {
    const to = address('bare-template');
    const id = await customer(business, 'Bare', to);
    await setCustomerConsent(rt.services.db, business.id, id, { email: 'subscribed' });
    const list = (
      await rt.app!.inject({
        method: 'POST',
        url: '/api/business/customer-lists/',
        headers: as(owner, business),
        payload: { name: `Bare ${counter}` },
      })
    ).json().result;
    await rt.app!.inject({
      method: 'POST',
      url: `/api/business/customer-lists/${list.id}/members/`,
      headers: as(owner, business),
      payload: { customer_ids: [id] },
    });
    const created = await rt.app!.inject({
      method: 'POST',
      url: '/api/template/',
      headers: as(owner, business),
      payload: {
        name: `No link ${counter}`,
        subject: 'Autumn news',
        format: 'html',
        content: '<p>Our autumn range is in.</p>',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await sendMail({ list_id: list.id, template_id: created.json().result.id });
    expect(res.statusCode, res.body).toBe(202);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(to));
    const token = /token=([\w.-]+)>/.exec(mail.headers['list-unsubscribe']!)![1]!;
    const page = `https://titan.example.com/engage/unsubscribe?token=${token}`;
    expect(mail.html).toContain('Our autumn range is in.');
    expect(mail.html).toContain(`<a href="${page}">${UNSUBSCRIBE_FOOTER_WORDS}</a>`);
    expect(mail.text).toContain(`${UNSUBSCRIBE_FOOTER_WORDS}: ${page}`);
  });

  it('sends a test of a saved template, rendered as its preview, to an address', async () => {
    const created = await rt.app!.inject({
      method: 'POST',
      url: '/api/template/',
      headers: as(owner, business),
      payload: {
        name: `Welcome ${counter}`,
        subject: 'Hello {{ customer.email }} from {{ business.name }}',
        format: 'html',
        content: '<p>{{ greeting | default: "Hi" }} — <a href="https://acme.test/start">start</a></p>',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json().result;
    const to = address('test-send');
    const res = await rt.app!.inject({
      method: 'POST',
      url: `/api/template/${template.id}/test/`,
      headers: as(owner, business),
      payload: { to, from: 'news@acme.test', variables: { greeting: 'Welcome aboard' } },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().result).toMatchObject({ status: 'queued', recipient: to, template_id: template.id });
    const mail = await sink.waitFor((m) => m.envelope.to.includes(to));
    expect(mail.subject).toBe(`Hello ${to} from Acme`);
    expect(mail.html).toContain('Welcome aboard');
    const bad = await rt.app!.inject({
      method: 'POST',
      url: `/api/template/${template.id}/test/`,
      headers: as(owner, business),
      payload: { to: 'not-an-address', from: 'news@acme.test' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result)).toEqual(['to']);
    const foreign = await rt.app!.inject({
      method: 'POST',
      url: `/api/template/${template.id}/test/`,
      headers: as(other.owner, other.business),
      payload: { to, from: 'news@other.test' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('sendEmail(deps, input) records and sends for other modules (templates test send, agents)', async () => {
    const direct = await sendEmail(rt.services.email, {
      businessId: business.id,
      from: 'news@acme.test',
      to: { address: address('direct') },
      subject: 'Direct',
      text: 'Direct',
      cause: 'system',
    });
    expect(direct.status).toBe('queued');
  });
});
