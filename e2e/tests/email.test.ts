// The email channel end to end in Chromium, against the built server and a real authoritative DNS
// server (tools/dns-sim): an owner adds and verifies a sending domain, writes a template with its
// live preview, sends it to a customer, opens the mail from the development outbox in the browser
// (its pixel loads) and clicks its link (Titan's signed redirect), and sees the mail opened and
// clicked, by a person, on the email's page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TRecord = { type: 'TXT' | 'CNAME'; host: string; value: string };
type TOutboxMail = { to: string; subject: string; html: string };

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Erin', last: 'Email', email: `erin.${Date.now()}@example.com` };
const DOMAIN = 'mail-shop.test';
const CUSTOMER = { name: 'Grace Hopper', email: `grace.${Date.now()}@example.org` };
// What a reader's browser says; Chromium's headless user agent is (rightly) counted as a machine.
const READER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.skipIf(!hasChromium)('email in Chromium: domain, template, send, open, click', () => {
  let dns: DnsSim;
  let server: TitanServer;
  let landing: Server;
  let landingUrl = '';
  let session: OwnerSession;
  let browser: Browser;
  let staff: BrowserContext;
  let reader: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const api = (method: string, path: string, body?: unknown) =>
    callAs(server.url, session, method, path, body);

  beforeAll(async () => {
    dns = await startDnsSim();
    dns.setZone(DOMAIN);
    landing = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>Spring offer</title><h1>The spring offer</h1>');
    });
    await new Promise<void>((r) => landing.listen(0, '127.0.0.1', r));
    landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/offer`;
    server = await startTitan({ env: { NODE_ENV: 'development', DNS_SERVERS: dns.address } });
    session = await signUpOwner(server.url, owner, PASSWORD, 'Email Browser Test');
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1440, height: 1000 } });
    page = await watchedPage(staff, problems);
    reader = await browser.newContext({ userAgent: READER_AGENT });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
    await new Promise((r) => landing?.close(r));
  });

  it('sends a template from a verified domain, and shows the mail opened and clicked', async () => {
    // 1. The sending domain: added in Settings, its records published, verified at once.
    await page.goto(`${server.url}/engage/settings/email-domains`);
    const form = page.getByRole('form', { name: 'Add a domain' });
    await form.getByLabel('Domain').fill(DOMAIN);
    await form.getByRole('button', { name: 'Add domain' }).click();
    const records = page.getByRole('table', { name: `DNS records for ${DOMAIN}` });
    await records.waitFor();
    const [added] = (await api('GET', '/api/email/domains/')).result as { records: TRecord[] }[];
    for (const record of added!.records) dns.setRecord(record.host, record.type, record.value);
    await page.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
    await page.getByText('Verified', { exact: true }).waitFor();

    // 2. The template, written in the editor with its live preview.
    await page.goto(`${server.url}/engage/templates`);
    await page.getByRole('navigation', { name: 'Templates' }).getByRole('link', { name: 'Email' }).click();
    await page.getByRole('link', { name: 'New template', exact: true }).click();
    await page.getByRole('heading', { name: 'New email template' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Spring offer');
    await page.getByLabel('Subject', { exact: true }).fill('Spring is here, {{ customer.name }}');
    const editor = page.getByRole('textbox', { name: 'Template content' });
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      [
        '<mjml>',
        '  <mj-body>',
        '    <mj-section>',
        '      <mj-column>',
        '        <mj-text>Hello {{ customer.name }}, our spring offer is out.</mj-text>',
        `        <mj-button href="${landingUrl}">See the offer</mj-button>`,
        '      </mj-column>',
        '    </mj-section>',
        '  </mj-body>',
        '</mjml>',
      ].join('\n'),
    );
    await page.getByLabel('customer.name').fill('Ada');
    const preview = async (): Promise<Frame> =>
      (await (await page.getByTitle('Rendered email').elementHandle())!.contentFrame())!;
    await expect
      .poll(async () => (await preview()).locator('body').innerText(), { timeout: 15_000 })
      .toContain('Hello Ada, our spring offer is out.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template created').waitFor();
    const [template] = (await api('GET', '/api/template/')).result as { id: number }[];

    // 3. Sent to a customer, from the verified domain.
    const visitor = await fetch(`${server.url}/api/public/customers/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_code: session.businessCode, ...CUSTOMER }),
    });
    const customerId = ((await visitor.json()) as { result: { customer: { id: number } } }).result.customer
      .id;
    const sent = await api('POST', '/api/agents/send-mail/', {
      from: `Spring Shop <news@${DOMAIN}>`,
      customer_id: customerId,
      template_id: template!.id,
    });
    expect(sent.status).toBe(202);
    const sendId = (sent.result as { id: string }).id;

    // 4. The mail arrives (the development outbox), signed links and pixel in it.
    let mail: TOutboxMail | undefined;
    await expect
      .poll(
        async () => {
          const res = await fetch(`${server.url}/api/dev/outbox/?to=${encodeURIComponent(CUSTOMER.email)}`);
          mail = ((await res.json()) as { result: TOutboxMail[] }).result[0];
          return mail?.subject;
        },
        { timeout: 20_000 },
      )
      .toBe('Spring is here, Grace Hopper');
    expect(mail!.html).toContain(`${server.url}/t/o/`);
    expect(mail!.html).toContain(`${server.url}/t/c/`);

    // 5. The customer reads it (the pixel loads) and, a little later, clicks through.
    const inbox = await reader.newPage();
    await inbox.setContent(mail!.html, { waitUntil: 'load' });
    await inbox.getByText('Hello Grace Hopper, our spring offer is out.').waitFor();
    // A click within seconds of sending is what link scanners do; a reader takes longer.
    await new Promise((r) => setTimeout(r, 5_500));
    // MJML's button opens its link in a new tab, as mail clients do.
    const [offer] = await Promise.all([
      reader.waitForEvent('page'),
      inbox.getByRole('link', { name: 'See the offer' }).click(),
    ]);
    await offer.getByRole('heading', { name: 'The spring offer' }).waitFor();
    expect(offer.url()).toBe(landingUrl);

    // 6. The email's page says so: opened and clicked, by a person.
    await expect
      .poll(
        async () => ((await api('GET', `/api/email/events/${sendId}/`)).result as { status: string }).status,
        {
          timeout: 15_000,
        },
      )
      .toBe('clicked');
    await page.goto(`${server.url}/engage/event-logs/emails/${sendId}`);
    const timeline = page.getByRole('list', { name: 'Status timeline' });
    await timeline.waitFor();
    await timeline.getByText('Opened').first().waitFor();
    await timeline.getByText('Clicked').first().waitFor();
    expect(await timeline.getByText('Person').count()).toBeGreaterThanOrEqual(2);
    await timeline.getByText(landingUrl).first().waitFor();
    expect(problems).toEqual([]);
  });
});
