// A journey end to end in Chromium against the built server (its workers in process) and a real
// authoritative DNS server (tools/dns-sim) for a verified sending domain: an owner builds a journey
// on /engage/journeys — a trigger on a custom event, then three steps: an update setting a field, an
// email sending a template, an exit — on the canvas editor's toolbar and side panel, saves it (the
// canvas shows the steps), publishes it; a shop posts the event with an API key to
// `POST /api/events/`; the counts on the journey move, the customer's path shows each step, the
// customer carries the field the journey set, and the mail is in the development outbox, once.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';

const PASSWORD = 'a long enough passphrase 42';
const stamp = Date.now();
const owner = { first: 'Jo', last: 'Urney', email: `jo.${stamp}@example.com` };
const DOMAIN = 'journey-shop.test';
const GRACE = `grace.${stamp}@example.org`;
type TRecord = { type: 'TXT' | 'CNAME'; host: string; value: string };
type TOutboxMail = { to: string; subject: string; html: string };

describe.skipIf(!hasChromium)('a journey in Chromium: build, publish, post an event, watch the path', () => {
  let dns: DnsSim;
  let server: TitanServer;
  let session: OwnerSession;
  let browser: Browser;
  let staff: BrowserContext;
  let page: Page;
  let apiKey = '';
  let customerId = 0;
  let templateId = 0;
  const problems: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await callAs(server.url, session, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.result)}`);
    return res.result as Record<string, unknown>;
  };

  beforeAll(async () => {
    dns = await startDnsSim();
    dns.setZone(DOMAIN);
    server = await startTitan({ env: { NODE_ENV: 'development', DNS_SERVERS: dns.address } });
    session = await signUpOwner(server.url, owner, PASSWORD, 'Journey Shop');
    apiKey = (await api('POST', '/api/auth/api-keys/', { name: 'Shop' })).key as string;
    // What the send step needs: a verified sending domain and a template.
    const domain = await api('POST', '/api/email/domains/', { domain: DOMAIN });
    for (const record of domain.records as TRecord[]) dns.setRecord(record.host, record.type, record.value);
    await api('POST', `/api/email/domains/${domain.id as number}/verify/`);
    templateId = (
      await api('POST', '/api/template/', {
        name: 'Order thanks',
        subject: 'Thanks for your order, {{ customer.name }}',
        format: 'mjml',
        content:
          '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ customer.name }}, your order is on its way.</mj-text></mj-column></mj-section></mj-body></mjml>',
      })
    ).id as number;
    const res = await fetch(`${server.url}/api/public/customers/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        business_code: session.businessCode,
        name: 'Grace Hopper',
        email: GRACE,
      }),
    });
    customerId = ((await res.json()) as { result: { customer: { id: number } } }).result.customer.id;
    // Journeys write (by default) only to customers who subscribed.
    await api('PUT', `/api/business/customer-directory/${customerId}/`, { email_status: 'subscribed' });
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1440, height: 1000 } });
    page = await watchedPage(staff, problems, { consoleErrors: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
  });

  const outbox = async (to: string): Promise<TOutboxMail[]> =>
    (
      (await (await fetch(`${server.url}/api/dev/outbox/?to=${encodeURIComponent(to)}`)).json()) as {
        result: TOutboxMail[];
      }
    ).result;

  it('builds and publishes a journey, then follows a customer through it', { timeout: 180_000 }, async () => {
    // 1. Build: the new journey starts with its trigger selected in the side panel.
    await page.goto(`${server.url}/engage/journeys`);
    await page.getByText('No journeys yet').waitFor();
    await page.getByRole('link', { name: 'New journey' }).first().click();
    await page.getByRole('group', { name: 'Journey canvas' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Order follow-up');
    await page.getByLabel('Event name').fill('order.placed');
    // An update step after the trigger (linked from it), setting a field; an email after it, from
    // the verified domain with the template; then an exit.
    await page.getByRole('button', { name: 'Add update customer step' }).click();
    await page.getByLabel('Set fields (one name=value a line)').fill('plan=pro');
    await page.getByLabel('Set fields (one name=value a line)').press('Tab');
    await page.getByRole('button', { name: 'Add send step' }).click();
    await page.getByLabel('Template', { exact: true }).selectOption(String(templateId));
    await page.getByLabel('From', { exact: true }).fill(`orders@${DOMAIN}`);
    await page.getByRole('button', { name: 'Add exit step' }).click();
    // The canvas draws the four steps and the links between them.
    const canvas = page.getByRole('group', { name: 'Journey canvas' });
    for (const id of ['trigger-1', 'update-1', 'send-1', 'exit-1'])
      await canvas.getByTestId(`step-${id}`).waitFor();
    await expect.poll(() => canvas.locator('.react-flow__edge').count()).toBe(3);
    await expect.poll(() => canvas.getByTestId('step-update-1').textContent()).toContain('plan = pro');
    await expect
      .poll(() => canvas.getByTestId('step-send-1').textContent())
      .toContain(`Email: template ${templateId}`);

    // 2. Save (the address becomes the journey's own) and publish.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/engage\/journeys\/\d+$/);
    const journeyId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Live', { exact: true }).waitFor();
    const saved = await api('GET', `/api/journeys/${journeyId}/`);
    expect(saved).toMatchObject({ name: 'Order follow-up', status: 'live', live_version: 1 });

    // 3. The shop posts the event with its API key.
    const posted = await fetch(`${server.url}/api/events/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'order.placed',
        customer: { email: GRACE },
        properties: { total: 42 },
        idempotency_key: `order-${stamp}`,
      }),
    });
    expect(posted.status).toBe(202);

    // 4. The counts move on the canvas and the step list (read again every few seconds).
    await expect
      .poll(
        () =>
          page
            .getByTestId('counts-exit-1')
            .textContent()
            .catch(() => ''),
        { timeout: 60_000 },
      )
      .toContain('1 entered · 0 waiting · 0 passed · 1 exited · 0 failed');
    await expect
      .poll(() => canvas.getByTestId('step-update-1').textContent())
      .toContain('1 entered · 0 waiting · 1 passed');
    await expect
      .poll(() => canvas.getByTestId('step-send-1').textContent())
      .toContain('1 entered · 0 waiting · 1 passed');
    await page.getByText('0 in the journey · 1 finished · 0 failed').waitFor();

    // 5. The customer's path: each step with its status, and the field the journey set.
    await page.getByLabel('Customer id').fill(String(customerId));
    await page.getByRole('button', { name: 'Show path' }).click();
    const run = page.getByRole('list', { name: 'Pass 1 · version 1' });
    await run.waitFor();
    const steps = await run.getByRole('listitem').allTextContents();
    expect(steps).toHaveLength(4);
    expect(steps[0]).toContain('trigger-1Passed');
    expect(steps[1]).toContain('update-1Passed');
    expect(steps[2]).toContain('send-1Passed');
    expect(steps[3]).toContain('exit-1Exited');
    await page.getByText('Pass 1 · version 1 · Finished').waitFor();
    const customer = await api('GET', `/api/business/customer-directory/${customerId}/`);
    expect(JSON.stringify(customer)).toContain('"plan":"pro"');

    // 6. The mail reached the (development) outbox, once, with the template rendered for Grace.
    await expect
      .poll(async () => (await outbox(GRACE)).map((m) => m.subject), { timeout: 60_000 })
      .toEqual(['Thanks for your order, Grace Hopper']);
    const [mail] = await outbox(GRACE);
    expect(mail!.html).toContain('Hello Grace Hopper, your order is on its way.');
    // Posting the same event again (one idempotency key) sends nothing more.
    const again = await fetch(`${server.url}/api/events/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'order.placed',
        customer: { email: GRACE },
        idempotency_key: `order-${stamp}`,
      }),
    });
    expect(again.status).toBe(202);
    expect((await api('GET', `/api/journeys/${journeyId}/stats/`)).customers).toEqual({
      active: 0,
      exited: 1,
      failed: 0,
    });
    expect(await outbox(GRACE)).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
