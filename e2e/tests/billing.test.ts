// Billing end to end in Chromium, against the built server, tools/chargebee-sim (Chargebee's API,
// hosted pricing page and webhooks) and tools/sms-sim (Twilio): a business whose plan allows one
// text has used it; its owner tries to send another, sees the blocker, opens the pricing page from
// Settings → Billing, pays on the simulator's page, lands on /confirm-payment/success, and sends.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_ITEM_PRICES, startChargebeeSim, type ChargebeeSim } from '@titan/chargebee-sim';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Bea', last: 'Billing', email: `bea.${Date.now()}@example.com` };
const ACCOUNT = {
  sid: 'AC6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f',
  token: 'e2e-billing-token-0123456789abcdef',
  number: '+15550100300',
};
const WEBHOOK = { username: 'chargebee', password: 'e2e-webhook-password' };
const API_KEY = 'test_e2e_chargebee_key';

describe.skipIf(!hasChromium)(
  'Billing in Chromium: over the quota, blocked, pay on the pricing page, send',
  () => {
    let cb: ChargebeeSim;
    let sms: SmsSim;
    let server: TitanServer;
    let session: OwnerSession;
    let browser: Browser;
    let staff: BrowserContext;
    let page: Page;
    const problems: string[] = [];

    const api = (method: string, path: string, body?: unknown) =>
      callAs(server.url, session, method, path, body);

    beforeAll(async () => {
      cb = await startChargebeeSim({
        apiKey: API_KEY,
        itemPrices: [
          {
            id: 'one-text-USD-monthly',
            name: 'One text',
            item_type: 'plan',
            price: 100,
            metadata: { sms_quota: 1 },
          },
          ...DEFAULT_ITEM_PRICES,
        ],
      });
      sms = await startSmsSim({
        accounts: [{ accountSid: ACCOUNT.sid, authToken: ACCOUNT.token, numbers: [ACCOUNT.number] }],
      });
      server = await startTitan({
        env: {
          NODE_ENV: 'development',
          SMS_API_URL: sms.apiUrl,
          CHARGEBEE_SITE: 'titan-test',
          CHARGEBEE_API_KEY: API_KEY,
          CHARGEBEE_API_URL: cb.apiUrl,
          CHARGEBEE_WEBHOOK_USERNAME: WEBHOOK.username,
          CHARGEBEE_WEBHOOK_PASSWORD: WEBHOOK.password,
        },
      });
      cb.setWebhook({ url: `${server.url}/api/chargebee/webhook/`, ...WEBHOOK });
      session = await signUpOwner(server.url, owner, PASSWORD, 'Billing Browser Test');
      // The SMS account, and a plan that allows one text, already used.
      const connected = await api('PUT', '/api/sms/account/', {
        account_sid: ACCOUNT.sid,
        auth_token: ACCOUNT.token,
        from_number: ACCOUNT.number,
      });
      expect(connected.status).toBe(200);
      expect((await api('POST', '/api/chargebee/portal-session/')).status).toBe(200); // the Chargebee customer
      await cb.subscribe(`titan-${session.businessCode}`, 'one-text-USD-monthly');
      expect(
        (await api('POST', '/api/sms/account/test/', { to: '+14155550101', body: 'First' })).status,
      ).toBe(202);
      await sms.waitFor(() => sms.messages.find((m) => m.to === '+14155550101'), 20_000);

      browser = await launchBrowser();
      staff = await signedInContext(browser, server.url, session, { viewport: { width: 1280, height: 900 } });
      page = await watchedPage(staff, problems);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await cb?.close();
      await sms?.close();
    });

    it('blocks the text beyond the quota, takes the payment on the pricing page, and sends after it', async () => {
      // 1. Over the quota: the send is refused and the blocker says why and what to do.
      await page.goto(`${server.url}/engage/settings/sms`);
      const test = page.getByRole('form', { name: 'Send a test message' });
      await test.getByLabel('To').fill('+14155550102');
      await test.getByLabel('Message').fill('Second');
      await test.getByRole('button', { name: 'Send test message' }).click();
      const blocker = page.getByRole('dialog');
      await blocker.getByText('You have used all your text messages for this period').waitFor();
      await blocker.getByText(/Your plan includes 1 text messages per billing period/).waitFor();
      await blocker.getByRole('button', { name: 'Close' }).click();
      expect(sms.messages.some((m) => m.to === '+14155550102')).toBe(false);

      // 2. Settings → Billing: the plan with its bar full, and the pricing page.
      await page.goto(`${server.url}/engage/settings/billing`);
      await page.getByTestId('billing-plan').getByText('One text').waitFor();
      await expect
        .poll(() => page.getByRole('progressbar', { name: 'SMS' }).getAttribute('aria-valuenow'))
        .toBe('1');
      await page.getByRole('button', { name: 'Change plan' }).click();

      // 3. The simulator's pricing page: pay for Growth.
      await page.waitForURL((url) => url.toString().startsWith(cb.url));
      await page.getByRole('heading', { name: 'Choose your plan' }).waitFor();
      await page.getByRole('button', { name: 'Subscribe to Growth' }).click();

      // 4. Back on Titan: the payment page says what happened, with the subscription as it now is.
      await page.waitForURL((url) => url.pathname === '/confirm-payment/success');
      await page.getByText('Payment received').waitFor();
      await page
        .getByTestId('confirm-payment-status')
        .getByText(/subscription status is active/)
        .waitFor();
      await page.getByRole('link', { name: 'Back to billing' }).click();
      await page.getByTestId('billing-plan').getByText('Growth').waitFor();

      // 5. The text goes out now.
      await page.goto(`${server.url}/engage/settings/sms`);
      await test.getByLabel('To').fill('+14155550102');
      await test.getByLabel('Message').fill('Second');
      await test.getByRole('button', { name: 'Send test message' }).click();
      await page.getByText('Test message queued').waitFor();
      const sent = await sms.waitFor(() => sms.messages.find((m) => m.to === '+14155550102'), 20_000);
      expect(sent.body).toBe('Second');
      expect(problems).toEqual([]);
    });
  },
);
