// The inbound threads (email.inbound-threads.ts): a message's bytes go to a worker thread and come
// back parsed — sender, thread ids, SPF over real DNS (tools/dns-sim), the reply without its quoted
// history, sanitised HTML, the attachment's bytes whole — and a thread that does not answer in
// time fails what it held (the listener then answers 451 and the sender retries), while the pool
// parses the next message on a fresh thread. The listener's own path is covered over SMTP by
// email-conversations.test.ts.
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { InboundThreads } from '../email.inbound-threads';

let dns: DnsSim;
const pools: InboundThreads[] = [];
const session = { ip: '127.0.0.1', helo: 'mail.customer.test', mailFrom: 'grace@customer.test' };
const ATTACHMENT = randomBytes(200 * 1024);

async function rawMail(): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({
    from: 'Grace Hopper <grace@customer.test>',
    to: 'support@acme.test',
    subject: 'Re: Order 1042',
    messageId: '<answer-1@customer.test>',
    inReplyTo: '<question-1@acme.test>',
    references: ['<start-1@acme.test>', '<question-1@acme.test>'],
    text: 'Yes, Tuesday works.\n\nOn Mon, Acme wrote:\n> Does Tuesday suit you?\n> Acme\n',
    html: '<p onclick="steal()">Yes, Tuesday works.</p><script>steal()</script>',
    attachments: [{ filename: 'photo.bin', content: ATTACHMENT, contentType: 'application/octet-stream' }],
  });
  return info.message as Buffer;
}

beforeAll(async () => {
  dns = await startDnsSim();
  dns.setZone('customer.test');
  dns.setRecord('customer.test', 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
});
afterAll(async () => {
  for (const pool of pools) pool.close();
  await dns?.close();
});

describe('inbound threads', () => {
  it('parse a mail off the main thread: sender, thread, SPF, visible reply, safe HTML, attachment', async () => {
    const pool = new InboundThreads({ dns: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 4000 } });
    pools.push(pool);
    const raw = await rawMail();
    // Several at once: each answer is its own message's.
    const [parsed, again] = await Promise.all([
      pool.parse(raw, session, { toInbox: true }),
      pool.parse(raw, { ...session, mailFrom: '' }, { toInbox: true }),
    ]);
    expect(parsed).toMatchObject({
      from: 'grace@customer.test',
      fromName: 'Grace Hopper',
      messageId: '<answer-1@customer.test>',
      subject: 'Re: Order 1042',
      to: ['support@acme.test'],
      answeredIds: ['<question-1@acme.test>', '<start-1@acme.test>'],
      autoReply: false,
      auth: { spf: 'pass' },
      forward: null,
    });
    expect(parsed.body.visible).toBe('Yes, Tuesday works.');
    expect(parsed.body.folded).toBe(true);
    expect(parsed.body.html).toContain('Yes, Tuesday works.');
    expect(parsed.body.html).not.toMatch(/script|onclick/);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]!.filename).toBe('photo.bin');
    expect(Buffer.from(parsed.attachments[0]!.content).equals(ATTACHMENT)).toBe(true);
    // A null reverse-path is an automatic message.
    expect(again.autoReply).toBe(true);
  });

  it('a thread that does not answer in time fails what it held and is ended; the next message gets a new one', async () => {
    const raw = await rawMail();
    const pool = new InboundThreads(
      { dns: { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 4000 } },
      { threads: 1 },
    );
    pools.push(pool);
    await expect(pool.parse(raw, session, { toInbox: true, timeoutMs: 1 })).rejects.toThrow(
      /stopped: no answer in 1 ms/,
    );
    expect((await pool.parse(raw, session, { toInbox: true })).from).toBe('grace@customer.test');
  });

  it('with no threads (two cores or fewer) parses on the calling thread, to the same result', async () => {
    const raw = await rawMail();
    const dnsSettings = { DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 4000 };
    const inProcess = new InboundThreads({ dns: dnsSettings }, { threads: 0 });
    const threaded = new InboundThreads({ dns: dnsSettings }, { threads: 1 });
    pools.push(inProcess, threaded);
    const [a, b] = await Promise.all([
      inProcess.parse(raw, session, { toInbox: true }),
      threaded.parse(raw, session, { toInbox: true }),
    ]);
    expect(a.body).toEqual(b.body);
    expect({ ...a, attachments: a.attachments.length, body: null }).toEqual({
      ...b,
      attachments: b.attachments.length,
      body: null,
    });
    expect(Buffer.from(a.attachments[0]!.content).equals(ATTACHMENT)).toBe(true);
  });
});
