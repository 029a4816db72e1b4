// Every channel in the inbox, end to end in Chromium against the built server (issue 30): a
// customer's mail, sent by SMTP to Titan's listener for the business's inbox address, appears in the
// inbox; staff answer from the email composer with a cc and the answer reaches the mail server
// (tools/smtp-sink) threaded to the customer's mail (In-Reply-To, References) and copied. A
// customer's text (tools/sms-sim, signed like Twilio's) appears in the inbox and staff answer it;
// the answer reaches Twilio once.
import nodemailer from 'nodemailer';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import { startSmtpSink, type SmtpSink } from '@titan/smtp-sink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { freePort, startTitan, type TitanServer } from '../support/server';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';

type TRecord = { type: 'TXT' | 'CNAME'; host: string; value: string };

const PASSWORD = 'a long enough passphrase 42';
const stamp = Date.now();
const owner = { first: 'Cora', last: 'Channels', email: `cora.${stamp}@example.com` };
const DOMAIN = 'channels-shop.test';
const CUSTOMER = { name: 'Dana Mailer', email: `dana.${stamp}@customer.example` };
const SUBJECT = 'My order arrived broken';
const ACCOUNT = {
  sid: 'AC7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c',
  token: 'e2e-auth-token-channels-0123456789',
  number: '+15550100700',
};
const PHONE = '+14155550166';

describe.skipIf(!hasChromium)('every channel in the inbox, in Chromium: email and SMS', () => {
  let dns: DnsSim;
  let sink: SmtpSink;
  let sim: SmsSim;
  let server: TitanServer;
  let listenerPort = 0;
  let session: OwnerSession;
  let browser: Browser;
  let staff: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await callAs(server.url, session, method, path, body);
    if (res.status >= 300)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.result)}`);
    return res.result as Record<string, unknown>;
  };
  const conversationRow = (text: string) =>
    page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: text });

  beforeAll(async () => {
    dns = await startDnsSim();
    dns.setZone(DOMAIN);
    listenerPort = await freePort();
    sink = await startSmtpSink({ bounceTo: `127.0.0.1:${listenerPort}` });
    sim = await startSmsSim({
      accounts: [{ accountSid: ACCOUNT.sid, authToken: ACCOUNT.token, numbers: [ACCOUNT.number] }],
      switches: { statusDelayMs: 100 },
    });
    server = await startTitan({
      env: {
        NODE_ENV: 'development',
        DNS_SERVERS: dns.address,
        SMTP_URL: sink.url,
        BOUNCE_SMTP_PORT: String(listenerPort),
        SMS_API_URL: sim.apiUrl,
      },
    });
    sim.setInboundUrl(`${server.url}/api/sms/webhook/inbound/`);
    // Account mail goes to the mail server too (SMTP_URL): the confirmation link is read there.
    session = await signUpOwner(server.url, owner, PASSWORD, 'Channels Shop', async (email) => {
      const mail = await sink.waitFor((m) => m.envelope.to.includes(email));
      return mail.text.match(/https?:\/\/\S+/g) ?? [];
    });
    // A verified sending domain (its records published in the DNS simulator) with an inbox address.
    const domain = await api('POST', '/api/email/domains/', { domain: DOMAIN });
    for (const record of domain.records as TRecord[]) dns.setRecord(record.host, record.type, record.value);
    await api('POST', `/api/email/domains/${domain.id as number}/verify/`);
    await api('POST', '/api/email/inboxes/', { domain_id: domain.id, local_part: 'support' });
    await api('PUT', '/api/sms/account/', {
      account_sid: ACCOUNT.sid,
      auth_token: ACCOUNT.token,
      from_number: ACCOUNT.number,
    });
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1440, height: 1000 } });
    page = await watchedPage(staff, problems);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
    await sink?.close();
    await dns?.close();
  });

  it('a customer’s mail appears in the inbox; staff answer with a cc and the answer arrives threaded', async () => {
    await page.goto(`${server.url}/messages`);
    await page.getByText('No conversations found').waitFor();

    // The customer's mail server delivers to Titan's listener.
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: listenerPort,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: `${CUSTOMER.name} <${CUSTOMER.email}>`,
      to: `support@${DOMAIN}`,
      subject: SUBJECT,
      messageId: `<order-${stamp}@customer.example>`,
      text: 'The lid is cracked. Can you send a new one?\n\nOn Mon, Channels Shop wrote:\n> Your order has shipped\n',
      html: '<p>The lid is <b>cracked</b>. Can you send a new one?</p><blockquote>Your order has shipped</blockquote>',
    });
    transport.close();

    // It arrives live, as an email conversation.
    const row = conversationRow(CUSTOMER.name);
    await row.waitFor();
    await row.getByText('Email', { exact: true }).waitFor();
    await row.getByRole('link').click();
    const body = page.getByTestId('email-html');
    await body.waitFor();
    await expect(body.textContent()).resolves.toContain('The lid is cracked');
    await expect(body.textContent()).resolves.not.toContain('Your order has shipped');
    await page.getByRole('button', { name: 'Show quoted text' }).click();
    await expect(page.getByTestId('email-html').textContent()).resolves.toContain('Your order has shipped');

    // Staff answer from the email composer, copying a colleague.
    const composer = page.getByRole('form', { name: 'Email reply' });
    expect(await composer.getByLabel('Subject').inputValue()).toBe(`Re: ${SUBJECT}`);
    await composer.getByRole('button', { name: 'Cc / Bcc' }).click();
    await composer.getByLabel('Cc', { exact: true }).fill('manager@customer.example');
    const editor = composer.getByRole('textbox', { name: 'Email body' });
    await editor.click();
    await page.keyboard.type('Sorry about that! ');
    await composer.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('A new lid ships today.');
    await composer.getByRole('button', { name: 'Send email' }).click();

    const mail = await sink.waitFor((m) => m.envelope.to.includes(CUSTOMER.email));
    expect(mail.envelope.to).toEqual([CUSTOMER.email, 'manager@customer.example']);
    expect(mail.subject).toBe(`Re: ${SUBJECT}`);
    expect(mail.from).toContain(`support@${DOMAIN}`);
    expect(mail.headers['in-reply-to']).toBe(`<order-${stamp}@customer.example>`);
    expect(mail.headers.references).toContain(`<order-${stamp}@customer.example>`);
    expect(mail.headers.cc).toContain('manager@customer.example');
    expect(mail.html).toContain('<strong>A new lid ships today.</strong>');
    expect(mail.text).toContain('Sorry about that! A new lid ships today.');
    // The answer shows in the conversation, and the editor is empty for the next one.
    await page.getByText('A new lid ships today.').first().waitFor();
    await expect(editor.textContent()).resolves.toBe('');
  });

  it('a customer’s text appears in the inbox and staff answer it; Twilio gets the answer once', async () => {
    const sent = await sim.sendInbound({ from: PHONE, to: ACCOUNT.number, body: 'Do you open on Sundays?' });
    expect(sent.answer).toBe(200);
    const row = conversationRow('Do you open on Sundays?');
    await row.waitFor();
    await row.getByText('SMS', { exact: true }).waitFor();
    await row.getByRole('link').click();
    await page.getByText('Do you open on Sundays?').last().waitFor();
    const box = page.getByPlaceholder('Type a message...');
    await box.fill('Yes, from 10 to 4.');
    expect(await page.getByTestId('sms-counter').textContent()).toBe('18 characters · 1 segment (GSM-7)');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Yes, from 10 to 4.').last().waitFor();
    const creates = () =>
      sim.requests.filter(
        (r) => r.method === 'POST' && r.path.endsWith('/Messages.json') && r.form.To === PHONE,
      );
    for (let i = 0; i < 50 && creates().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(creates()).toHaveLength(1);
    expect(creates()[0]!.form).toMatchObject({ From: ACCOUNT.number, Body: 'Yes, from 10 to 4.' });
    expect(problems).toEqual([]);
  });
});
