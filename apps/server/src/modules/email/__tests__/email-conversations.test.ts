// Email conversations end to end over real SMTP (issue 30): customers' mail goes by nodemailer to
// Titan's listener (inbox addresses, signed reply addresses), is authenticated by mailauth against
// a real DNS server (tools/dns-sim), and lands in the sender's conversation with its attachment and
// without the quoted history; staff's answer reaches tools/smtp-sink threaded (In-Reply-To,
// References), with a signed Reply-To, and DKIM-valid. Forged reply addresses land nowhere, an
// auto-reply never opens a conversation, and one business's addresses never take another's mail.
import { createRequire } from 'node:module';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TEmailInbox, TMessage } from '@titan/contracts';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { startSmtpSink, type SmtpSink } from '@titan/smtp-sink';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { setSendingIdentityLookupForTests } from '../sending-identity';
import { dkimKey, freePort, signUpViaSink, waitForSend } from './email-helpers';

const require = createRequire(import.meta.url);
const { dkimVerify } = require('mailauth/lib/dkim/verify') as {
  dkimVerify: (
    input: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ) => Promise<{ results: { status: { result: string } }[] }>;
};

let dns: DnsSim;
let sink: SmtpSink;
let rt: TestRuntime;
let listenerPort: number;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let inbox: TEmailInbox;
let otherInbox: TEmailInbox;
const acmeKey = dkimKey();
const otherKey = dkimKey();
const customerKey = dkimKey();

type Who = { owner: Session; business: TBusiness };
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, who?: Who) =>
  rt.app!.inject({
    method,
    url,
    headers: as((who ?? { owner }).owner, (who ?? { business }).business),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
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

/** A sending domain of the business, marked verified (the domains lane's own tests verify by DNS). */
async function verifiedDomain(who: Who, domain: string): Promise<number> {
  const res = await call('POST', '/api/email/domains/', { domain }, who);
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().result.id as number;
  await rt.database.query(`update email_domains set status = 'verified' where id = $1`, [id]);
  return id;
}

/** Mail to Titan's listener, as a customer's mail server sends it (DKIM-signed by customer.test). */
async function mailIn(message: SendMailOptions & { envelopeFrom?: string; rcpt?: string[] }): Promise<void> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: listenerPort,
    secure: false,
    ignoreTLS: true,
  });
  try {
    const from = typeof message.from === 'string' ? message.from : '';
    const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
    await transport.sendMail({
      ...message,
      envelope: {
        from: message.envelopeFrom ?? address,
        to: message.rcpt ?? [String(message.to)],
      },
      ...(address.endsWith('@customer.test')
        ? { dkim: { domainName: 'customer.test', keySelector: 's1', privateKey: customerKey.pem } }
        : {}),
    });
  } finally {
    transport.close();
  }
}

async function emailConversations(who?: Who) {
  const res = await call('GET', '/api/msg/conversations/?channel__in=email&page_size=100', undefined, who);
  expect(res.statusCode).toBe(200);
  return res.json().result.results as {
    id: number;
    title: string;
    channel: string;
    assigned_chat_group: unknown;
    spam: boolean;
    initiator: { id: number; email: string | null; name: string | null } | null;
  }[];
}
const messagesOf = async (id: number, who?: Who) =>
  (await call('GET', `/api/msg/conversations/${id}/messages/`, undefined, who)).json().result as TMessage[];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  dns = await startDnsSim();
  dns.setZone('customer.test');
  dns.setRecord('customer.test', 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
  dns.setRecord('s1._domainkey.customer.test', 'TXT', customerKey.record);
  dns.setRecord('_dmarc.customer.test', 'TXT', 'v=DMARC1; p=reject');
  // Staff members' mail (their sign-up addresses) passes SPF from the test's host.
  dns.setZone('example.test');
  dns.setRecord('example.test', 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
  dns.setZone('bank.test');
  dns.setRecord('bank.test', 'TXT', 'v=spf1 ip4:192.0.2.1 -all');
  dns.setRecord('_dmarc.bank.test', 'TXT', 'v=DMARC1; p=reject');
  listenerPort = await freePort();
  sink = await startSmtpSink({ bounceTo: `127.0.0.1:${listenerPort}` });
  rt = await createTestRuntime({
    workers: true,
    env: {
      SMTP_URL: sink.url,
      PUBLIC_URL: 'https://titan.example.com',
      BOUNCE_SMTP_PORT: String(listenerPort),
      DNS_SERVERS: dns.address,
      EMAIL_RETRY_DELAYS_MS: '300,300',
    },
  });
  owner = await signUpViaSink(rt.app!, sink);
  business = await createBusiness(owner, 'Acme');
  const otherOwner = await signUpViaSink(rt.app!, sink);
  other = { owner: otherOwner, business: await createBusiness(otherOwner, 'Other Co') };
  const acmeDomain = await verifiedDomain({ owner, business }, 'acme.test');
  const otherDomain = await verifiedDomain(other, 'other.test');
  // The sending identity of each verified domain, with the test's DKIM keys and the real domain ids.
  const keys = [
    { businessId: business.id, domain: 'acme.test', pem: acmeKey.pem, id: acmeDomain },
    { businessId: other.business.id, domain: 'other.test', pem: otherKey.pem, id: otherDomain },
  ];
  setSendingIdentityLookupForTests(async (_db, _secrets, businessId, fromAddress) => {
    const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
    const entry = keys.find((k) => k.businessId === businessId && k.domain === domain);
    return entry
      ? {
          domainId: entry.id,
          domain,
          dkim: { domainName: domain, keySelector: 's2026', privateKey: entry.pem },
          returnPathHost: `bounces.${domain}`,
        }
      : null;
  });
  const created = await call('POST', '/api/email/inboxes/', { domain_id: acmeDomain, local_part: 'Support' });
  expect(created.statusCode, created.body).toBe(201);
  inbox = created.json().result as TEmailInbox;
  otherInbox = (
    await call('POST', '/api/email/inboxes/', { domain_id: otherDomain, local_part: 'support' }, other)
  ).json().result as TEmailInbox;
}, 120_000);
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
  await sink?.close();
  await dns?.close();
});

describe('inbox addresses', () => {
  it('shows the address and the records to publish, refuses bad, foreign, unverified and taken ones', async () => {
    expect(inbox).toMatchObject({
      address: 'support@acme.test',
      local_part: 'support',
      chat_group_id: null,
      records: [
        { purpose: 'receive', type: 'MX', host: 'acme.test', value: 'mx.titan.example.com', priority: 10 },
        { purpose: 'forward', type: 'FORWARD', host: 'support@acme.test', value: 'mx.titan.example.com' },
      ],
    });
    expect((await call('GET', '/api/email/inboxes/')).json().result.map((i: TEmailInbox) => i.id)).toEqual([
      inbox.id,
    ]);
    const bad = await call('POST', '/api/email/inboxes/', { domain_id: inbox.domain_id, local_part: 'a b@' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.local_part).toEqual(['Use letters, digits and . _ + - only.']);
    const foreign = await call('POST', '/api/email/inboxes/', {
      domain_id: otherInbox.domain_id,
      local_part: 'x',
    });
    expect(foreign.statusCode).toBe(404);
    const taken = await call('POST', '/api/email/inboxes/', {
      domain_id: inbox.domain_id,
      local_part: 'support',
    });
    expect(taken.statusCode).toBe(409);
    const pending = (await call('POST', '/api/email/domains/', { domain: 'pending.test' })).json().result
      .id as number;
    const unverified = await call('POST', '/api/email/inboxes/', { domain_id: pending, local_part: 'help' });
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().result.domain_id[0]).toMatch(/Verify this domain first/);
    expect((await call('DELETE', `/api/email/inboxes/${inbox.id}/`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', '/api/email/inboxes/', undefined, other)).json().result).toHaveLength(1);
  });
});

describe('email conversations', () => {
  it('a mail to the inbox opens a conversation with its attachment, without the quoted history, authenticated', async () => {
    await mailIn({
      from: 'Dana Customer <dana@customer.test>',
      to: 'support@acme.test',
      subject: 'Broken widget',
      messageId: '<m1@customer.test>',
      text: 'It broke again, photo attached.\n\nOn Mon, 2 Nov 2026 at 10:00, Acme <news@acme.test> wrote:\n> Our new widget is here\n> Buy it now\n',
      html: '<p onclick="steal()">It broke again, photo attached.</p><script>alert(1)</script><img src="https://tracker.example/p.gif"><blockquote>Our new widget is here</blockquote>',
      attachments: [{ filename: 'photo.png', content: PNG, contentType: 'image/png' }],
    });
    const [conversation, ...more] = await emailConversations();
    expect(more).toHaveLength(0);
    expect(conversation).toMatchObject({ title: 'Broken widget', channel: 'email' });
    const [message] = await messagesOf(conversation!.id);
    expect(message).toMatchObject({ sender_type: 'customer', content: 'It broke again, photo attached.' });
    const meta = message!.meta_data as {
      html: string;
      attachments: { file_name: string; url: string }[];
    };
    expect(message!.meta_data).toMatchObject({
      message_id: '<m1@customer.test>',
      from: 'dana@customer.test',
      reply_from: 'support@acme.test',
      quoted_folded: true,
      spam: false,
      auto_submitted: false,
      auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
    });
    expect(meta.html).not.toMatch(/script|onclick|tracker\.example/);
    expect(meta.html).toContain('It broke again');
    expect(meta.attachments).toHaveLength(1);
    expect(meta.attachments[0]).toMatchObject({
      file_name: 'photo.png',
      mime_type: 'image/png',
      size: PNG.length,
    });
    expect(meta.attachments[0]!.url).toEqual(expect.any(String));
    expect(message!.sender).toMatchObject({ email: 'dana@customer.test', name: 'Dana Customer' });
    // Not the other business's.
    expect(await emailConversations(other)).toEqual([]);
  });

  it('staff’s answer arrives threaded and DKIM-valid; the customer’s answer to it continues the conversation', async () => {
    const conversation = (await emailConversations()).find((c) => c.title === 'Broken widget')!;
    const reply = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Sorry about that! A new one is on its way.',
      cc: ['boss@customer.test'],
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const sentMessage = reply.json().result as TMessage;
    const mail = await sink.waitFor((m) => m.envelope.to.includes('dana@customer.test'));
    expect(mail.envelope.to).toEqual(['dana@customer.test', 'boss@customer.test']);
    expect(mail.from).toContain('support@acme.test');
    expect(mail.subject).toBe('Re: Broken widget');
    expect(mail.headers['in-reply-to']).toBe('<m1@customer.test>');
    expect(mail.headers.references).toContain('<m1@customer.test>');
    expect(mail.headers.cc).toContain('boss@customer.test');
    const replyTo = mail.headers['reply-to']!;
    expect(replyTo).toMatch(/^reply\+[0-9a-f]{32}\.[0-9a-z]{16}@bounces\.acme\.test$/);
    const verified = await dkimVerify(mail.raw, {
      resolver: async (name) => {
        if (name === 's2026._domainkey.acme.test') return [[acmeKey.record]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(verified.results[0]!.status.result).toBe('pass');
    expect(sentMessage.meta_data.message_id).toBe(mail.headers['message-id']);

    // The customer answers with their client's headers.
    await mailIn({
      from: 'dana@customer.test',
      to: replyTo,
      subject: 'Re: Broken widget',
      messageId: '<m2@customer.test>',
      inReplyTo: mail.headers['message-id'],
      references: ['<m1@customer.test>', mail.headers['message-id']!],
      text: 'Thanks!\n\n-- \nDana\nCustomer Inc.\n',
    });
    // And once from a client that drops the headers: the signed reply address still threads it.
    await mailIn({ from: 'dana@customer.test', to: replyTo, subject: 'Also', text: 'One more thing.' });
    // A mail with the same subject from her to the inbox within 30 days continues it too.
    await mailIn({
      from: 'dana@customer.test',
      to: 'support@acme.test',
      subject: 'RE: Broken widget',
      text: 'Any news?',
    });
    expect((await emailConversations()).filter((c) => c.title === 'Broken widget')).toHaveLength(1);
    const texts = (await messagesOf(conversation.id)).map((m) => [m.sender_type, m.content]);
    expect(texts).toEqual([
      ['customer', 'It broke again, photo attached.'],
      ['staff', 'Sorry about that! A new one is on its way.'],
      ['customer', 'Thanks!'],
      ['customer', 'One more thing.'],
      ['customer', 'Any news?'],
    ]);
    // A new subject is a new conversation.
    await mailIn({
      from: 'dana@customer.test',
      to: 'support@acme.test',
      subject: 'Invoice',
      text: 'Where is it?',
    });
    expect((await emailConversations()).map((c) => c.title)).toContain('Invoice');
  });

  it('a reply with a subject of its own starts a new thread; bcc is in the envelope only; rich text is kept', async () => {
    const conversation = (await emailConversations()).find((c) => c.title === 'Broken widget')!;
    const reply = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Your replacement shipped.',
      html: '<p><strong>Your replacement</strong> shipped.</p><script>x()</script>',
      subject: 'Your replacement widget',
      bcc: ['audit@acme-archive.test'],
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const mail = await sink.waitFor((m) => m.subject === 'Your replacement widget');
    expect(mail.envelope.to).toEqual(['dana@customer.test', 'audit@acme-archive.test']);
    expect(mail.raw.toString('latin1')).not.toContain('audit@acme-archive.test');
    expect(mail.headers['in-reply-to']).toBeUndefined();
    expect(mail.headers.references).toBeUndefined();
    expect(mail.headers['reply-to']).toMatch(/^reply\+/);
    expect(mail.html).toContain('<strong>Your replacement</strong>');
    expect(mail.html).not.toContain('script');
    expect(reply.json().result.meta_data).toMatchObject({
      subject: 'Your replacement widget',
      bcc: ['audit@acme-archive.test'],
      in_reply_to: null,
    });
    // Bad addresses are field errors, never a send.
    const bad = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'x',
      bcc: ['not an address'],
      subject: ' ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/bcc/);
    expect(bad.body).toMatch(/subject/);
  });

  it('a member’s forward opens a conversation with the original sender (inline and attached)', async () => {
    // Gmail's inline forward, with a note above it.
    await mailIn({
      from: `Ada <${owner.email}>`,
      to: 'support@acme.test',
      subject: 'Fwd: Refund for order 1042',
      text:
        'Can someone take this one?\n\n---------- Forwarded message ---------\n' +
        'From: Rosa Diaz <rosa@shopper.test>\nDate: Mon, 2 Nov 2026 at 09:12\n' +
        'Subject: Refund for order 1042\nTo: Ada <' +
        owner.email +
        '>\n\n' +
        'I would like a refund for order 1042, it arrived broken.\n',
    });
    const inline = (await emailConversations()).find((c) => c.title === 'Refund for order 1042')!;
    expect(inline.initiator).toMatchObject({ email: 'rosa@shopper.test', name: 'Rosa Diaz' });
    const [first] = await messagesOf(inline.id);
    expect(first!.content).toBe('I would like a refund for order 1042, it arrived broken.');
    expect(first!.meta_data).toMatchObject({
      from: 'rosa@shopper.test',
      reply_from: 'support@acme.test',
      forwarded: { by: owner.email, note: 'Can someone take this one?', via: 'inline' },
    });

    // The original attached whole (message/rfc822), as Outlook and Thunderbird can forward.
    const original = [
      'From: Lee Park <lee@shopper.test>',
      'To: ' + owner.email,
      'Subject: Wrong size',
      'Message-ID: <orig-1@shopper.test>',
      'Date: Mon, 2 Nov 2026 08:00:00 +0000',
      '',
      'I got a medium, I ordered a large.',
      '',
    ].join('\r\n');
    await mailIn({
      from: owner.email,
      to: 'support@acme.test',
      subject: 'Fw: Wrong size',
      text: 'FYI',
      attachments: [{ filename: 'Wrong size.eml', content: original, contentType: 'message/rfc822' }],
    });
    const attached = (await emailConversations()).find((c) => c.title === 'Wrong size')!;
    expect(attached.initiator).toMatchObject({ email: 'lee@shopper.test', name: 'Lee Park' });
    const [message] = await messagesOf(attached.id);
    expect(message!.content).toBe('I got a medium, I ordered a large.');
    expect(message!.meta_data).toMatchObject({
      forwarded: { via: 'attachment', original_message_id: '<orig-1@shopper.test>' },
      attachments: [],
    });
    // Staff answer the original sender.
    const answer = await call('POST', `/api/msg/conversations/${attached.id}/messages/`, {
      message_type: 'text',
      content: 'A large is on its way.',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const out = await sink.waitFor((m) => m.envelope.to.includes('lee@shopper.test'));
    expect(out.from).toContain('support@acme.test');
  });

  it('a “Fwd:” from someone not on the team is their own mail', async () => {
    await mailIn({
      from: 'dana@customer.test',
      to: 'support@acme.test',
      subject: 'Fwd: Look at this',
      text:
        '---------- Forwarded message ---------\nFrom: Boss <boss@elsewhere.test>\n' +
        'Subject: Look at this\nTo: dana@customer.test\n\nHello\n',
    });
    const conversation = (await emailConversations()).find((c) => c.title === 'Look at this')!;
    expect(conversation.initiator).toMatchObject({ email: 'dana@customer.test' });
  });

  it('a campaign mail carries a signed Reply-To; the customer’s answer lands in their conversation', async () => {
    const customer = (
      await rt.app!.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: { business_code: business.unique_code, name: 'Sam', email: 'sam@customer.test' },
      })
    ).json().result.customer.id as number;
    const res = await call('POST', '/api/agents/send-mail/', {
      from: 'Acme News <news@acme.test>',
      customer_id: customer,
      subject: 'Spring sale',
      text: 'Everything half price.',
    });
    expect(res.statusCode, res.body).toBe(202);
    await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'sent');
    const campaign = await sink.waitFor((m) => m.envelope.to.includes('sam@customer.test'));
    const replyTo = campaign.headers['reply-to']!;
    expect(replyTo).toMatch(/^reply\+[0-9a-f]{32}\.[0-9a-z]{16}@bounces\.acme\.test$/);
    await mailIn({
      from: 'sam@customer.test',
      to: replyTo,
      subject: 'Re: Spring sale',
      inReplyTo: campaign.headers['message-id'],
      text: 'Does it include shoes?\n\nOn Tue, Acme News wrote:\n> Everything half price.\n',
    });
    const conversation = (await emailConversations()).find((c) => c.title === 'Spring sale')!;
    const [message] = await messagesOf(conversation.id);
    expect(message).toMatchObject({ sender_id: customer, content: 'Does it include shoes?' });
    // Staff answer from the address the campaign came from.
    const answer = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'It does.',
      html: '<p>It <b>does</b>.<script>x()</script></p>',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes('sam@customer.test') && m.subject === 'Re: Spring sale',
    );
    expect(mail.from).toContain('news@acme.test');
    expect(mail.html).toContain('<b>does</b>');
    expect(mail.html).not.toContain('script');
  });

  it('a forged reply address lands nowhere; another business’s inbox never takes ours', async () => {
    const before = (await emailConversations()).length;
    const forged = `reply+${'ab'.repeat(16)}.${'a'.repeat(16)}@bounces.acme.test`;
    await expect(mailIn({ from: 'eve@customer.test', to: forged, subject: 'Hi', text: 'x' })).rejects.toThrow(
      /550/,
    );
    await expect(
      mailIn({ from: 'eve@customer.test', to: 'nobody@acme.test', subject: 'Hi', text: 'x' }),
    ).rejects.toThrow(/550/);
    expect((await emailConversations()).length).toBe(before);
    // Mail to the other business's inbox is theirs alone, even from our customer.
    await mailIn({
      from: 'dana@customer.test',
      to: otherInbox.address,
      subject: 'Hello Other',
      text: 'Hi there',
    });
    expect((await emailConversations()).length).toBe(before);
    const theirs = await emailConversations(other);
    expect(theirs.map((c) => c.title)).toEqual(['Hello Other']);
    // Their staff cannot read ours.
    const ours = (await emailConversations())[0]!;
    expect(
      (await call('GET', `/api/msg/conversations/${ours.id}/messages/`, undefined, other)).statusCode,
    ).toBe(404);
  });

  it('marks mail that fails DMARC as spam', async () => {
    await mailIn({
      from: 'security@bank.test',
      to: 'support@acme.test',
      subject: 'Verify your account',
      text: 'Click here',
    });
    const conversation = (await emailConversations()).find((c) => c.title === 'Verify your account')!;
    const [message] = await messagesOf(conversation.id);
    expect(message!.meta_data).toMatchObject({
      spam: true,
      spam_score: expect.any(Number),
      spam_reasons: expect.arrayContaining(['DMARC failed', 'Words phishing uses (“verify your account”)']),
      auth: { spf: 'fail', dmarc: 'fail' },
    });
    // The conversation is marked; an authenticated customer's is not.
    const all = await emailConversations();
    expect(all.find((c) => c.title === 'Verify your account')!.spam).toBe(true);
    expect(all.find((c) => c.title === 'Broken widget')!.spam).toBe(false);
  });

  it('an auto-reply never opens a conversation, and an auto-reply loop stops after one message', async () => {
    const before = (await emailConversations()).length;
    await mailIn({
      from: 'ooo@customer.test',
      to: 'support@acme.test',
      subject: 'Out of office',
      text: 'I am away until Monday.',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect((await emailConversations()).length).toBe(before);

    // Staff write to a customer whose mailbox answers automatically: one auto-reply lands, Titan sends nothing back.
    await mailIn({
      from: 'robot@customer.test',
      to: 'support@acme.test',
      subject: 'Question',
      text: 'Is it in stock?',
    });
    const conversation = (await emailConversations()).find((c) => c.title === 'Question')!;
    const sends = async () =>
      (
        await rt.database.query<{ n: number }>(
          `select count(*)::int as n from sends where business_id = $1 and channel = 'email'`,
          [business.id],
        )
      )[0]!.n;
    await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Yes!',
    });
    const answer = await sink.waitFor((m) => m.envelope.to.includes('robot@customer.test'));
    const sentCount = await sends();
    for (let i = 0; i < 2; i++) {
      await mailIn({
        from: 'robot@customer.test',
        to: answer.headers['reply-to']!,
        subject: 'Automatic reply: Re: Question',
        inReplyTo: answer.headers['message-id'],
        text: 'I am away.',
        headers: { 'Auto-Submitted': 'auto-replied', 'X-Autoreply': 'yes' },
      });
    }
    const messages = await messagesOf(conversation.id);
    expect(messages.filter((m) => m.meta_data.auto_submitted === true)).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(await sends()).toBe(sentCount);
    expect(sink.messages.filter((m) => m.envelope.to.includes('robot@customer.test'))).toHaveLength(1);
  });

  it('refuses a message over the size limit with 552', async () => {
    await expect(
      mailIn({
        from: 'big@customer.test',
        to: 'support@acme.test',
        subject: 'Big',
        text: 'x'.repeat(11 * 1024 * 1024),
      }),
    ).rejects.toThrow(/552|size/i);
  });
});

describe('starting an email conversation from the inbox', () => {
  const start = (payload: Record<string, unknown>, who?: Who) =>
    call('POST', '/api/msg/conversations/', payload, who);

  it('mails a new address from the inbox address, DKIM-valid with a signed Reply-To; the answer continues it', async () => {
    const res = await start({
      channel: 'email',
      to: 'erin@customer.test',
      subject: 'Your quote',
      content: 'Here is the quote you asked for.',
      cc: ['finance@customer.test'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { conversation, message } = res.json().result as {
      conversation: {
        id: number;
        channel: string;
        title: string;
        initiator: { email: string };
        assignee: { id: number } | null;
      };
      message: TMessage;
    };
    expect(conversation).toMatchObject({ channel: 'email', title: 'Your quote', is_read: true });
    expect(conversation.initiator.email).toBe('erin@customer.test');
    expect(conversation.assignee?.id).toBe(owner.user.pk);
    expect(message).toMatchObject({ sender_type: 'staff', content: 'Here is the quote you asked for.' });
    const mail = await sink.waitFor((m) => m.envelope.to.includes('erin@customer.test'));
    expect(mail.envelope.to).toEqual(['erin@customer.test', 'finance@customer.test']);
    expect(mail.from).toContain('support@acme.test');
    expect(mail.subject).toBe('Your quote');
    expect(mail.headers['in-reply-to']).toBeUndefined();
    const replyTo = mail.headers['reply-to']!;
    expect(replyTo).toMatch(/^reply\+[0-9a-f]{32}\.[0-9a-z]{16}@bounces\.acme\.test$/);
    const verified = await dkimVerify(mail.raw, {
      resolver: async (name) => {
        if (name === 's2026._domainkey.acme.test') return [[acmeKey.record]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(verified.results[0]!.status.result).toBe('pass');
    const send = await waitForSend(
      rt.services.db,
      String(message.meta_data.send_id),
      (s) => s.status === 'sent',
    );
    expect(send).toMatchObject({ channel: 'email', cause: 'staff_reply', conversationId: conversation.id });

    // Staff write again before she answers: from the same address, in the same thread.
    const second = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Valid until Friday.',
    });
    expect(second.statusCode, second.body).toBe(201);
    const followUp = await sink.waitFor(
      (m) => m.envelope.to.includes('erin@customer.test') && m.subject === 'Re: Your quote',
    );
    expect(followUp.from).toContain('support@acme.test');
    expect(followUp.headers.references).toContain(mail.headers['message-id']!);

    await mailIn({
      from: 'erin@customer.test',
      to: replyTo,
      subject: 'Re: Your quote',
      inReplyTo: mail.headers['message-id'],
      text: 'Looks good.\n\nOn Mon, Acme wrote:\n> Here is the quote you asked for.\n',
    });
    expect((await emailConversations()).filter((c) => c.title === 'Your quote')).toHaveLength(1);
    expect((await messagesOf(conversation.id)).map((m) => [m.sender_type, m.content])).toEqual([
      ['staff', 'Here is the quote you asked for.'],
      ['staff', 'Valid until Friday.'],
      ['customer', 'Looks good.'],
    ]);
    expect(
      (await call('GET', `/api/msg/conversations/${conversation.id}/`, undefined, other)).statusCode,
    ).toBe(404);
  });

  it('mails a customer by id from the address asked for; the same idempotency key twice sends one mail', async () => {
    const dana = (await emailConversations()).find((c) => c.title === 'Broken widget')!.initiator!;
    expect(dana.email).toBe('dana@customer.test');
    const payload = {
      channel: 'email',
      customer_id: dana.id,
      from: 'care@acme.test',
      subject: 'Checking in',
      content: 'How is the new widget?',
      idempotency_key: 'k-mail-1',
    };
    const [a, b] = await Promise.all([start(payload), start(payload)]);
    expect([a.statusCode, b.statusCode].sort(), a.body + b.body).toEqual([200, 201]);
    expect(a.json().result.conversation.id).toBe(b.json().result.conversation.id);
    expect(a.json().result.message.id).toBe(b.json().result.message.id);
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes('dana@customer.test') && m.subject === 'Checking in',
    );
    expect(mail.from).toContain('care@acme.test');
    expect((await start(payload)).json().result.conversation.id).toBe(a.json().result.conversation.id);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages.filter((m) => m.subject === 'Checking in')).toHaveLength(1);
    expect((await emailConversations()).filter((c) => c.title === 'Checking in')).toHaveLength(1);
  });

  it('refuses bad input with field messages, an unverified From, and another business’s customer', async () => {
    const before = (await emailConversations()).length;
    const none = await start({ channel: 'email', subject: 'x', content: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json().result.to).toEqual(['Choose a customer or enter an email address.']);
    const bad = await start({ channel: 'email', to: 'not-an-address', subject: 'x', content: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.to).toEqual(['Enter a valid email address.']);
    const noSubject = await start({ channel: 'email', to: 'x@customer.test', subject: ' ', content: 'x' });
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json().result.subject).toEqual(['Enter a subject.']);
    const foreignFrom = await start({
      channel: 'email',
      to: 'x@customer.test',
      from: 'support@other.test',
      subject: 'x',
      content: 'x',
    });
    expect(foreignFrom.statusCode).toBe(409);
    expect(foreignFrom.json().result.from[0]).toMatch(/other\.test/);
    const theirCustomer = (
      await rt.app!.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: { business_code: other.business.unique_code, name: 'T', email: 't@customer.test' },
      })
    ).json().result.customer.id as number;
    const foreign = await start({ channel: 'email', customer_id: theirCustomer, subject: 'x', content: 'x' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().result.customer_id).toEqual(['No customer of this business has this id.']);
    expect((await emailConversations()).length).toBe(before);
    expect(sink.messages.filter((m) => m.envelope.to.includes('t@customer.test'))).toHaveLength(0);
  });
});
