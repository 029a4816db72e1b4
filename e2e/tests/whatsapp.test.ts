// WhatsApp end to end in Chromium: the built server talks to the WhatsApp Cloud API simulator as it
// would to Meta. A customer writes from the simulator's phone page; the message arrives live in an
// open inbox; the staff reply reaches the phone, and its ticks advance to read on both sides.
import { startWhatsappCloudSim, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';
import { signUpOwner } from '../support/staff';

const PASSWORD = 'a long enough passphrase 42';
const staff = { first: 'Wes', last: 'Staff', email: `wes.${Date.now()}@example.com` };
const ACCOUNT = {
  phone_number_id: '106540352242922',
  waba_id: '102290129340398',
  display_phone_number: '+1 555 010 0200',
  verify_token: 'e2e-verify-token-123',
  access_token: 'EAAe2e-simulated-access-token-0000000',
  app_secret: 'e2e-app-secret-0123456789abcdef',
};
const CUSTOMER = { waId: '4915112345678', name: 'Wanda Whatsapp' };

describe.skipIf(!hasChromium)('WhatsApp in Chromium, against the Cloud API simulator', () => {
  let sim: WhatsappCloudSim;
  let server: TitanServer;
  let browser: Browser;
  let staffContext: BrowserContext;
  let phoneContext: BrowserContext;
  let inbox: Page;
  let phone: Page;
  const problems: string[] = [];

  const newPage = (ctx: BrowserContext): Promise<Page> => watchedPage(ctx, problems);

  beforeAll(async () => {
    sim = await startWhatsappCloudSim({
      accessToken: ACCOUNT.access_token,
      appSecret: ACCOUNT.app_secret,
      phoneNumberId: ACCOUNT.phone_number_id,
      wabaId: ACCOUNT.waba_id,
      displayPhoneNumber: ACCOUNT.display_phone_number,
      statusDelayMs: 300,
    });
    server = await startTitan({
      env: { NODE_ENV: 'development', WHATSAPP_GRAPH_URL: sim.graphUrl, WHATSAPP_RETRY_DELAYS_MS: '100' },
    });
    sim.setWebhookUrl(`${server.url}/api/whatsapp/webhook/`);
    const session = await signUpOwner(server.url, staff, PASSWORD, 'WhatsApp Browser Test');
    const connected = await fetch(`${server.url}/api/whatsapp/account/`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${session.access}`,
        'x-business-code': session.businessCode,
      },
      body: JSON.stringify(ACCOUNT),
    });
    expect(connected.status).toBe(200);

    browser = await launchBrowser();
    staffContext = await signedInContext(browser, server.url, session, {
      viewport: { width: 1280, height: 800 },
    });
    inbox = await newPage(staffContext);
    phoneContext = await browser.newContext({ viewport: { width: 420, height: 800 } });
    phone = await newPage(phoneContext);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
  });

  it('shows a message from the phone live in the inbox, and the reply reaches the phone with its ticks up to read', async () => {
    await inbox.goto(`${server.url}/messages`);
    await inbox.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    await inbox.getByText('No conversations found').waitFor();

    // The customer writes from the simulator's phone page: a signed webhook to Titan.
    await phone.goto(`${sim.phoneUrl}?wa_id=${CUSTOMER.waId}&name=${encodeURIComponent(CUSTOMER.name)}`);
    await phone.getByRole('textbox', { name: 'Message' }).fill('Hi! Is my order on its way?');
    await phone.getByRole('button', { name: 'Send' }).click();

    // It arrives in the open inbox without a reload.
    const row = inbox
      .getByRole('list', { name: 'Conversations' })
      .getByRole('listitem')
      .filter({ hasText: CUSTOMER.name });
    await row.waitFor({ timeout: 15_000 });
    await row.getByText('WhatsApp').first().waitFor();
    await row.getByRole('link').click();
    const pane = inbox.getByRole('region', { name: 'Conversation', exact: true });
    await pane.getByText('Hi! Is my order on its way?').waitFor();

    // The staff reply goes out through the Cloud API…
    const box = pane.getByPlaceholder('Type a message...');
    await box.fill('Yes, it ships today.');
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
    await expect
      .poll(() => sim.outbound.map((s) => (s.body.text as { body?: string } | undefined)?.body))
      .toContain('Yes, it ships today.');
    const sent = sim.outbound.find(
      (s) => (s.body.text as { body?: string }).body === 'Yes, it ships today.',
    )!;
    expect(sent.to).toBe(CUSTOMER.waId);
    expect(sent.body.type).toBe('text');

    // …reaches the phone, which reads it…
    const onPhone = phone
      .getByRole('log', { name: 'Conversation' })
      .getByRole('listitem')
      .filter({ hasText: 'Yes, it ships today.' });
    await onPhone.waitFor({ timeout: 15_000 });
    await onPhone.locator('[data-status="read"]').waitFor({ timeout: 15_000 });

    // …and the inbox shows the ticks advance to read, live.
    const bubble = pane.getByRole('listitem').filter({ hasText: 'Yes, it ships today.' });
    await bubble.getByRole('img', { name: 'Read' }).waitFor({ timeout: 15_000 });

    // Opening the conversation sent Meta a read receipt for the customer's message.
    await expect.poll(() => sim.markedRead.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it("logs the reply in the event logs' WhatsApp tab, with its status timeline", async () => {
    // The WhatsApp log's old address opens the event logs on the WhatsApp tab.
    await inbox.goto(`${server.url}/engage/event-logs`);
    await inbox.waitForURL(`${server.url}/engage/event-logs/whatsapp`);
    await inbox.getByRole('heading', { name: 'Event logs', level: 1 }).waitFor();
    const tabs = inbox.getByRole('navigation', { name: 'Event logs' });
    expect(await tabs.getByRole('link', { name: 'WhatsApp' }).getAttribute('aria-current')).toBe('page');

    const row = inbox
      .getByRole('table', { name: 'WhatsApp messages' })
      .getByRole('row')
      .filter({ hasText: CUSTOMER.waId });
    await row.getByText('Read').waitFor();
    await row.getByRole('link', { name: CUSTOMER.waId }).click();

    await inbox.getByRole('heading', { name: 'WhatsApp message', level: 1 }).waitFor();
    expect(inbox.url()).toMatch(/\/engage\/event-logs\/whatsapp\/[0-9a-f-]{36}$/);
    const timeline = inbox.getByRole('list', { name: 'Status timeline' });
    await timeline.getByText('Read').waitFor();
    expect(problems).toEqual([]);
  });
});
