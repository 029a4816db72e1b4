// An email campaign end to end in Chromium, against the built server and a real authoritative DNS
// server (tools/dns-sim): with a verified domain and its default sender, an owner composes a
// campaign on /engage/campaigns (its audience a segment built in the composer, counted live), sends
// a test to a staff address (it reaches the development outbox, marked [Test]), sends it, watches it
// become Sent, and reads the results — sends per recipient and the clicks on its link once a reader
// clicked it.
// And a WhatsApp campaign against the Cloud API simulator playing Meta: an approved template with
// a document header uploaded in the composer, its variable mapped to the customer's name, a
// preview, a test to a staff number, then one message per consenting customer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { startWhatsappCloudSim, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TRecord = { type: 'TXT' | 'CNAME'; host: string; value: string };
type TOutboxMail = { to: string; subject: string; html: string; links: string[] };

const PASSWORD = 'a long enough passphrase 42';
const stamp = Date.now();
const owner = { first: 'Cam', last: 'Paign', email: `cam.${stamp}@example.com` };
const DOMAIN = 'news-shop.test';
const STAFF = `staff.${stamp}@example.com`;
const GUESTS = [
  { name: 'Grace Hopper', email: `grace.${stamp}@example.org` },
  { name: 'Alan Turing', email: `alan.${stamp}@example.org` },
];
// What a reader's browser says; Chromium's headless user agent is (rightly) counted as a machine.
const READER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.skipIf(!hasChromium)('an email campaign in Chromium: compose, test, send, results', () => {
  let dns: DnsSim;
  let server: TitanServer;
  let session: OwnerSession;
  let browser: Browser;
  let staff: BrowserContext;
  let page: Page;
  let landing: Server;
  let OFFER = '';
  const problems: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await callAs(server.url, session, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.result)}`);
    return res.result as Record<string, unknown>;
  };
  const outbox = async (to: string): Promise<TOutboxMail[]> =>
    (
      (await (await fetch(`${server.url}/api/dev/outbox/?to=${encodeURIComponent(to)}`)).json()) as {
        result: TOutboxMail[];
      }
    ).result;

  beforeAll(async () => {
    dns = await startDnsSim();
    dns.setZone(DOMAIN);
    landing = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>Offer</title><h1>The spring offer</h1>');
    });
    await new Promise<void>((r) => landing.listen(0, '127.0.0.1', r));
    OFFER = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/spring-offer`;
    server = await startTitan({ env: { NODE_ENV: 'development', DNS_SERVERS: dns.address } });
    session = await signUpOwner(server.url, owner, PASSWORD, 'Spring Shop');
    // A verified domain with its default sender, chosen once: nobody types a From.
    const domain = await api('POST', '/api/email/domains/', { domain: DOMAIN });
    for (const record of domain.records as TRecord[]) dns.setRecord(record.host, record.type, record.value);
    await api('POST', `/api/email/domains/${domain.id as number}/verify/`);
    await api('PUT', `/api/email/domains/${domain.id as number}/`, {
      default_from: `Spring Shop <news@${DOMAIN}>`,
    });
    const ids: number[] = [];
    for (const guest of GUESTS) {
      const res = await fetch(`${server.url}/api/public/customers/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ business_code: session.businessCode, ...guest }),
      });
      const id = ((await res.json()) as { result: { customer: { id: number } } }).result.customer.id;
      await api('PUT', `/api/business/customer-directory/${id}/`, { email_status: 'subscribed' });
      ids.push(id);
    }
    const list = await api('POST', '/api/business/customer-lists/', { name: 'Spring guests' });
    await api('POST', `/api/business/customer-lists/${list.id as number}/members/`, { customer_ids: ids });
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1440, height: 1000 } });
    page = await watchedPage(staff, problems);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
    await new Promise((r) => landing?.close(r));
  });

  it('composes, test-sends, sends and shows the results', { timeout: 180_000 }, async () => {
    // 1. Compose: audience (counted live), content, when.
    await page.goto(`${server.url}/engage/campaigns`);
    await page.getByRole('link', { name: 'New campaign' }).first().click();
    await page.getByLabel('Campaign name').fill('Spring offer');
    // The audience: a segment built here — on the guest list and with an example.org address.
    await page.getByRole('button', { name: 'Build a segment' }).click();
    const builder = page.getByRole('region', { name: 'New segment' });
    await builder.getByLabel('Condition 1: what').selectOption({ label: 'List' });
    await builder.getByLabel('Condition 1: value').selectOption({ label: 'Spring guests' });
    await builder.getByText('2 customers match').waitFor();
    await builder.getByRole('button', { name: 'Add a condition' }).click();
    await builder.getByLabel('Condition 2: what').selectOption({ label: 'Email' });
    await builder.getByLabel('Condition 2: how').selectOption({ label: 'contains' });
    await builder.getByLabel('Condition 2: value').fill('@example.org');
    await builder.getByText('2 customers match').waitFor();
    await builder.getByLabel('Condition 2: value').fill('@nowhere.test');
    await builder.getByText('0 customers match').waitFor();
    await builder.getByLabel('Condition 2: value').fill('@example.org');
    await builder.getByText('2 customers match').waitFor();
    await builder.getByLabel('Segment name').fill('Spring guests at example.org');
    await builder.getByRole('button', { name: 'Save segment and send to it' }).click();
    await expect
      .poll(() =>
        page.getByRole('checkbox', { name: 'Spring guests at example.org (segment, 2)' }).first().isChecked(),
      )
      .toBe(true);
    await page.getByText('2 will receive it').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Subject' }).fill('Spring is here');
    await page
      .getByRole('textbox', { name: 'HTML' })
      .fill(`<p>Our spring offer is out. <a href="${OFFER}">See the offer</a></p>`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: 'Now' }).check();
    await page.getByRole('button', { name: 'Next' }).click();

    // 2. Review: the checklist holds, a test reaches a staff address.
    await page.getByRole('heading', { name: 'Before sending' }).waitFor();
    await page.getByText('Domain verified').waitFor();
    await page.getByLabel('Staff addresses or numbers (comma separated)').fill(STAFF);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('1 test message on the way.').waitFor();
    await expect
      .poll(async () => (await outbox(STAFF)).map((m) => m.subject), { timeout: 30_000 })
      .toEqual(['[Test] Spring is here']);

    // 3. Send: the campaign's page follows it to Sent, each guest mailed once from the default sender.
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('heading', { name: 'Spring offer' }).waitFor();
    await page.getByText('Sent', { exact: true }).first().waitFor({ timeout: 60_000 });
    for (const guest of GUESTS)
      await expect
        .poll(async () => (await outbox(guest.email)).map((m) => m.subject), { timeout: 30_000 })
        .toEqual(['Spring is here']);

    const sentTotal = page
      .locator('dl > div')
      .filter({ has: page.locator('dt', { hasText: /^Sent$/ }) })
      .locator('dd');
    // The results keep refreshing while the last sends reach the mail server.
    await expect.poll(async () => sentTotal.textContent(), { timeout: 30_000 }).toBe('2');
    const recipients = page.getByRole('table', { name: 'Recipients and their sends' });
    for (const guest of GUESTS) await recipients.getByText(guest.email).waitFor();

    // 4. A reader clicks the offer; the results count it per link.
    const [mail] = await outbox(GUESTS[0]!.email);
    // The link as mailed: Titan's signed click redirect.
    const tracked = new RegExp(`${server.url}/t/c/[^"'\\s>]+`).exec(mail!.html)?.[0]?.replace(/&amp;/g, '&');
    expect(tracked, mail!.html).toBeTruthy();
    // A click within seconds of sending is what link scanners do; a reader takes longer.
    await new Promise((r) => setTimeout(r, 5_500));
    const reader = await browser.newContext({ userAgent: READER_AGENT });
    const readerPage = await reader.newPage();
    await readerPage.goto(tracked!);
    await readerPage.getByRole('heading', { name: 'The spring offer' }).waitFor();
    await reader.close();

    await expect
      .poll(
        async () => {
          await page.reload();
          const links = page.getByRole('table', { name: 'Clicks per link' });
          await links.waitFor({ timeout: 10_000 }).catch(() => undefined);
          return (await links.count()) > 0 ? links.innerText() : '';
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toContain(OFFER);
    expect(problems).toEqual([]);
  });
});

/** A fixed-offset zone whose wall clock now reads `hour` (Etc/GMT signs are inverted): out of quiet hours. */
function zoneAt(hour: number): string {
  let offset = (((hour - new Date().getUTCHours()) % 24) + 24) % 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const WA_ACCOUNT = {
  phone_number_id: '106540352242977',
  waba_id: '102290129340377',
  display_phone_number: '+1 555 010 0277',
  verify_token: 'e2e-campaign-verify-token',
  access_token: 'EAAe2e-campaign-access-token-000000',
  app_secret: 'e2e-campaign-app-secret-0123456789',
};
const WA_GUESTS = [
  {
    name: 'Wanda Whatsapp',
    email: `wanda.${stamp}@example.org`,
    phone: '+4915112349001',
    consent: 'subscribed',
  },
  {
    name: 'Walt Whatsapp',
    email: `walt.${stamp}@example.org`,
    phone: '+4915112349002',
    consent: 'subscribed',
  },
  { name: 'Nell Noconsent', email: `nell.${stamp}@example.org`, phone: '+4915112349003', consent: 'unknown' },
];
const WA_STAFF = '+4915100000077';

describe.skipIf(!hasChromium)(
  'a WhatsApp template campaign in Chromium, against the Cloud API simulator',
  () => {
    let sim: WhatsappCloudSim;
    let server: TitanServer;
    let session: OwnerSession;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await callAs(server.url, session, method, path, body);
      if (res.status >= 300)
        throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.result)}`);
      return res.result as Record<string, unknown>;
    };

    beforeAll(async () => {
      sim = await startWhatsappCloudSim({
        accessToken: WA_ACCOUNT.access_token,
        appSecret: WA_ACCOUNT.app_secret,
        phoneNumberId: WA_ACCOUNT.phone_number_id,
        wabaId: WA_ACCOUNT.waba_id,
        displayPhoneNumber: WA_ACCOUNT.display_phone_number,
        statusDelayMs: 200,
      });
      server = await startTitan({
        env: { NODE_ENV: 'development', WHATSAPP_GRAPH_URL: sim.graphUrl, WHATSAPP_RETRY_DELAYS_MS: '100' },
      });
      sim.setWebhookUrl(`${server.url}/api/whatsapp/webhook/`);
      session = await signUpOwner(
        server.url,
        { ...owner, email: `wa.${owner.email}` },
        PASSWORD,
        'Bloom Florist',
      );
      await api('PUT', '/api/whatsapp/account/', WA_ACCOUNT);
      await api('POST', '/api/whatsapp/template/sync/');
      const ids: number[] = [];
      for (const guest of WA_GUESTS) {
        const res = await fetch(`${server.url}/api/public/customers/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ business_code: session.businessCode, name: guest.name, email: guest.email }),
        });
        const id = ((await res.json()) as { result: { customer: { id: number } } }).result.customer.id;
        await api('PUT', `/api/business/customer-directory/${id}/`, {
          phone: guest.phone,
          whatsapp_status: guest.consent,
          fields: { timezone: zoneAt(13) },
        });
        ids.push(id);
      }
      const list = await api('POST', '/api/business/customer-lists/', { name: 'Florist friends' });
      await api('POST', `/api/business/customer-lists/${list.id as number}/members/`, { customer_ids: ids });
      browser = await launchBrowser();
      const staff = await signedInContext(browser, server.url, session, {
        viewport: { width: 1440, height: 1000 },
      });
      page = await watchedPage(staff, problems);
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await sim?.close();
    });

    it(
      'composes from an approved template with an uploaded header, test-sends and sends once to each consenting customer',
      { timeout: 180_000 },
      async () => {
        await page.goto(`${server.url}/engage/campaigns/new`);
        await page.getByLabel('Campaign name').fill('Invoices');
        await page.getByLabel('Channel').selectOption('whatsapp');
        await page.getByRole('checkbox', { name: 'Florist friends (list, 3)' }).first().check();
        // Only those with WhatsApp consent count.
        await page.getByText('2 will receive it').waitFor();
        await page.getByText(/1 without consent/).waitFor();
        await page.getByRole('button', { name: 'Next' }).click();

        await page.getByLabel('WhatsApp template').selectOption({ label: 'invoice_ready (en_US)' });
        await page.getByLabel('Value of {{1}}').selectOption({ label: 'Customer name' });
        await page.getByLabel('Upload a file').setInputFiles({
          name: 'invoice-nov.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n'),
        });
        await page.getByText('Uploaded: invoice-nov.pdf').waitFor();
        const preview = page.getByRole('region', { name: 'Preview' });
        await preview.getByText('Hello [customer.name], your invoice is attached.').waitFor();
        await preview.getByText('[document: invoice-nov.pdf]').waitFor();
        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByRole('radio', { name: 'Now' }).check();
        await page.getByRole('button', { name: 'Next' }).click();

        await page.getByRole('heading', { name: 'Before sending' }).waitFor();
        await page.getByText(/Meta charges each delivered message as utility/).waitFor();
        await page.getByLabel('Staff addresses or numbers (comma separated)').fill(WA_STAFF);
        await page.getByRole('button', { name: 'Send test' }).click();
        await page.getByText('1 test message on the way.').waitFor();
        const to = (digits: string) =>
          sim.outbound.filter(
            (o) =>
              o.to === digits && (o.body.template as { name?: string } | undefined)?.name === 'invoice_ready',
          );
        await sim.waitFor(() => to(WA_STAFF.slice(1)).length > 0, 30_000);
        expect(JSON.stringify(to(WA_STAFF.slice(1))[0]!.body)).toContain('[customer.name]');

        await page.getByRole('button', { name: 'Schedule' }).click();
        await page.getByRole('heading', { name: 'Invoices' }).waitFor();
        await page.getByText('Sent', { exact: true }).first().waitFor({ timeout: 60_000 });
        const [wanda, walt, nell] = WA_GUESTS.map((g) => g.phone.slice(1));
        await sim.waitFor(() => to(wanda!).length > 0 && to(walt!).length > 0, 30_000);
        const sent = to(wanda!)[0]!.body.template as {
          components: { type: string; parameters: Record<string, unknown>[] }[];
        };
        expect(sent.components[0]).toMatchObject({
          type: 'header',
          parameters: [{ type: 'document', document: { filename: 'invoice-nov.pdf' } }],
        });
        expect((sent.components[0]!.parameters[0]!.document as { id?: string }).id).toBeTruthy();
        expect(sent.components[1]).toEqual({
          type: 'body',
          parameters: [{ type: 'text', text: 'Wanda Whatsapp' }],
        });
        await new Promise((r) => setTimeout(r, 2_000));
        expect(to(wanda!)).toHaveLength(1);
        expect(to(walt!)).toHaveLength(1);
        expect(to(nell!)).toEqual([]);
        expect(problems).toEqual([]);
      },
    );
  },
);
