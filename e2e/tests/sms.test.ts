// The SMS channel end to end in Chromium, against the built server and tools/sms-sim (Twilio's
// Messages API): an owner connects the Twilio account in Settings → SMS, sends a test text, follows
// it to its page in the event logs and sees it delivered with its segments; then the customer's
// phone (the simulator's phone page) replies STOP, and the next text to them is suppressed.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Sam', last: 'Sms', email: `sam.${Date.now()}@example.com` };
const ACCOUNT = {
  sid: 'AC5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e',
  token: 'e2e-auth-token-0123456789abcdef',
  number: '+15550100200',
};
const PHONE = '+14155550188';
const BODY = 'Your table for two is booked for 8 pm. Reply STOP to opt out.';

describe.skipIf(!hasChromium)('SMS in Chromium: connect Twilio, send a test, see it delivered', () => {
  let sim: SmsSim;
  let server: TitanServer;
  let session: OwnerSession;
  let browser: Browser;
  let staff: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const api = (method: string, path: string, body?: unknown) =>
    callAs(server.url, session, method, path, body);

  beforeAll(async () => {
    sim = await startSmsSim({
      accounts: [{ accountSid: ACCOUNT.sid, authToken: ACCOUNT.token, numbers: [ACCOUNT.number] }],
      switches: { statusDelayMs: 200 },
    });
    server = await startTitan({ env: { NODE_ENV: 'development', SMS_API_URL: sim.apiUrl } });
    sim.setInboundUrl(`${server.url}/api/sms/webhook/inbound/`);
    session = await signUpOwner(server.url, owner, PASSWORD, 'SMS Browser Test');
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1440, height: 1000 } });
    page = await watchedPage(staff, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
  });

  it('connects the simulator, sends a test text and sees it delivered; STOP from the phone suppresses the next', async () => {
    // 1. Settings → SMS: the account, checked with "Twilio" before it is kept.
    await page.goto(`${server.url}/engage/settings/sms`);
    const account = page.getByRole('form', { name: 'Twilio account' });
    await account.getByLabel('Account SID').fill(ACCOUNT.sid);
    await account.getByLabel('Auth Token').fill(ACCOUNT.token);
    await account.getByLabel('Phone number').fill(ACCOUNT.number);
    await account.getByRole('button', { name: 'Connect account' }).click();
    await page.getByText('Twilio account connected').waitFor();
    await page
      .getByLabel('A message comes in', { exact: true })
      .getByText(`${server.url}/api/sms/webhook/inbound/`)
      .waitFor();

    // 2. A test text, from the form that counts its segments.
    const test = page.getByRole('form', { name: 'Send a test message' });
    await test.getByLabel('To').fill(PHONE);
    await test.getByLabel('Message').fill(BODY);
    await test.getByText(`${[...BODY].length} characters · 1 segment (GSM-7)`).waitFor();
    await test.getByRole('button', { name: 'Send test message' }).click();
    await page.getByText('Test message queued').waitFor();
    const sent = await sim.waitFor(() => sim.messages.find((m) => m.to === PHONE), 20_000);
    expect(sent).toMatchObject({ from: ACCOUNT.number, body: BODY, num_segments: '1' });

    // 3. Its page in the event logs: delivered, with the text and its segments.
    await test.getByRole('link', { name: 'View in event logs' }).click();
    await page.getByRole('heading', { level: 1, name: 'SMS message' }).waitFor();
    await expect
      .poll(
        async () => {
          await page.reload();
          const timeline = page.getByRole('list', { name: 'Status timeline' });
          await timeline.waitFor();
          return timeline.getByText('Delivered', { exact: true }).count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1);
    await page.getByText('1 segment · GSM-7').waitFor();
    await page.getByLabel('Text message', { exact: true }).getByText(BODY).waitFor();
    await page.getByText(sent.sid, { exact: true }).waitFor();

    // 4. The SMS tab lists it, delivered.
    await page.getByRole('link', { name: 'Back to event logs' }).click();
    const table = page.getByRole('table', { name: 'SMS messages' });
    await table.getByRole('link', { name: PHONE }).waitFor();
    await table.getByText('Delivered').waitFor();

    // 5. The customer's phone replies STOP (the simulator's phone page), and Titan stops texting them.
    const phone = await staff.newPage();
    await phone.goto(`${sim.phoneUrl}?number=${encodeURIComponent(PHONE)}`);
    await phone.getByRole('listitem').filter({ hasText: BODY }).waitFor();
    await phone.getByRole('button', { name: 'Reply STOP' }).click();
    await phone.getByRole('listitem').filter({ hasText: /^STOP/ }).waitFor();
    await expect
      .poll(async () => ((await api('GET', '/api/sms/inbound/')).result as { results: unknown[] }).results, {
        timeout: 15_000,
      })
      .toEqual([expect.objectContaining({ from: PHONE, body: 'STOP', keyword: 'stop' })]);
    const again = await api('POST', '/api/agents/send-sms/', { to: PHONE, body: 'One more?' });
    expect(again.result).toMatchObject({ status: 'suppressed' });
    expect(sim.messages.filter((m) => m.to === PHONE)).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
