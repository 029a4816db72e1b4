// Billing end to end over real HTTP: Titan → tools/chargebee-sim (Chargebee's API v2, hosted pages)
// and back (webhooks with basic auth) → Titan listening on its PUBLIC_URL; texts go to
// tools/sms-sim, so a send refused or counted is one a business would make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BILLING_DIALOGS, type TBillingState, type TBusiness } from '@titan/contracts';
import { DEFAULT_ITEM_PRICES, startChargebeeSim, type ChargebeeSim } from '@titan/chargebee-sim';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { freePort, waitForSend } from '../../email/__tests__/email-helpers';
import * as sends from '../../sends/sends.service';
import { WEBHOOK_FAILURES } from '../billing.chargebee';

const SMS = {
  account_sid: 'AC0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c',
  auth_token: 'c-auth-token-0123456789abcdef0123',
  from_number: '+15550100400',
};
const WEBHOOK = { username: 'chargebee', password: 'webhook-password-for-tests' };
const API_KEY = 'test_key_for_the_billing_suite';

let cb: ChargebeeSim;
let smsSim: SmsSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  cb = await startChargebeeSim({
    apiKey: API_KEY,
    itemPrices: [
      ...DEFAULT_ITEM_PRICES,
      { id: 'tiny-USD-monthly', name: 'Tiny', item_type: 'plan', price: 100, metadata: { sms_quota: 3 } },
      {
        id: 'five-USD-monthly',
        name: 'Five',
        item_type: 'plan',
        price: 100,
        metadata: { sms_quota: 99 },
        // Entitlements win over metadata.
        entitlements: { 'sms-quota': '5' },
      },
      {
        id: 'sms-2-USD',
        name: '2 texts',
        item_type: 'charge',
        price: 50,
        metadata: { top_up_channel: 'sms', top_up_units: 2 },
      },
    ],
    webhook: { url: `${base}/api/chargebee/webhook/`, ...WEBHOOK },
  });
  smsSim = await startSmsSim({
    accounts: [{ accountSid: SMS.account_sid, authToken: SMS.auth_token, numbers: [SMS.from_number] }],
  });
  rt = await createTestRuntime({
    workers: true,
    env: {
      PUBLIC_URL: base,
      SMS_API_URL: smsSim.apiUrl,
      SMS_RETRY_DELAYS_MS: '50',
      CHARGEBEE_SITE: 'titan-test',
      CHARGEBEE_API_KEY: API_KEY,
      CHARGEBEE_API_URL: cb.apiUrl,
      CHARGEBEE_WEBHOOK_USERNAME: WEBHOOK.username,
      CHARGEBEE_WEBHOOK_PASSWORD: WEBHOOK.password,
    },
  });
  await rt.app!.listen({ port, host: '127.0.0.1' });
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Acme');
  const otherOwner = await signUp(rt.app!, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(rt.app!, otherOwner, 'Other Co') };
  const connected = await call('PUT', '/api/sms/account/', SMS);
  expect(connected.statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await cb?.close();
  await smsSim?.close();
});

const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: Record<string, unknown>,
  who: { owner: Session; business: TBusiness } = { owner, business },
) => rt.app!.inject({ method, url, headers: as(who.owner, who.business), ...(payload ? { payload } : {}) });

const state = async (who = { owner, business }): Promise<TBillingState> => {
  const res = await call('GET', '/api/chargebee/subscription/', undefined, who);
  expect(res.statusCode).toBe(200);
  return res.json().result;
};
const smsUsage = async () => (await state()).usage.find((u) => u.channel === 'sms')!;

let phones = 0;
const phone = () => `+1415555${String(2000 + ++phones).slice(-4)}`;
const text = (to = phone()) => call('POST', '/api/sms/account/test/', { to, body: 'Hello' });

const customerId = () => `titan-${business.unique_code}`;
const subscriptionOf = (id: string) => [...cb.subscriptions.values()].find((s) => s.customer_id === id)!;

const RIGHT_AUTH = `Basic ${Buffer.from(`${WEBHOOK.username}:${WEBHOOK.password}`).toString('base64')}`;

async function webhook(body: unknown, auth = RIGHT_AUTH, remoteAddress?: string) {
  return rt.app!.inject({
    method: 'POST',
    url: '/api/chargebee/webhook/',
    headers: { authorization: auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

describe('before a plan', () => {
  it('answers an inactive subscription that cannot send, and refuses a text with the dialog', async () => {
    const s = await state();
    expect(s).toMatchObject({ enabled: true, status: 'inactive', can_send: false, plan: null });
    const refused = await text();
    expect(refused.statusCode).toBe(402);
    expect(refused.json().result.dialog).toEqual(BILLING_DIALOGS.inactive);
    // Nothing was queued: the refusal undid the send's transaction.
    const logs = await call('GET', '/api/sms/events/');
    expect(logs.json().result.count).toBe(0);
  });
});

describe('the pricing page, paid', () => {
  it('returns to /confirm-payment/success, and the webhook makes the plan active with its quotas', async () => {
    const session = await call('POST', '/api/chargebee/pricing-page-session/');
    expect(session.statusCode).toBe(200);
    const url: string = session.json().result.url;
    expect(url.startsWith(cb.url)).toBe(true);
    // Titan made the business a Chargebee customer, speaking the API as Chargebee takes it.
    const created = cb.requests.find((r) => r.method === 'POST' && r.path === '/customers')!;
    expect(created).toMatchObject({ authorized: true, params: { id: customerId(), company: 'Acme' } });
    expect(
      cb.requests.find((r) => r.path === '/pricing_page_sessions/create_for_new_subscription')?.params,
    ).toMatchObject({
      'customer[id]': customerId(),
      'pricing_page[id]': 'titan',
      redirect_url: `${base}/confirm-payment/success`,
    });

    const page = await fetch(url);
    expect(await page.text()).toContain('Subscribe to Starter');
    const paid = await fetch(`${url}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ plan: 'starter-USD-monthly', card: '4111 1111 1111 1111' }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(new RegExp(`^${base}/confirm-payment/success\\?id=`));
    expect(cb.deliveries.at(-1)).toMatchObject({ event_type: 'subscription_created', status: 200 });

    const s = await state();
    expect(s).toMatchObject({
      status: 'active',
      can_send: true,
      plan: { id: 'starter-USD-monthly', name: 'Starter' },
    });
    expect(s.usage).toEqual([
      { channel: 'email', used: 0, reserved: 0, quota: 1000, extra: 0, remaining: 1000 },
      { channel: 'sms', used: 0, reserved: 0, quota: 100, extra: 0, remaining: 100 },
      { channel: 'whatsapp', used: 0, reserved: 0, quota: 250, extra: 0, remaining: 250 },
    ]);
    expect((await call('GET', '/api/business/')).json().result.subscription_status).toBe('active');
  });

  it('a declined card returns to /confirm-payment/failed and changes nothing', async () => {
    const { url } = (await call('POST', '/api/chargebee/pricing-page-session/')).json().result;
    const declined = await fetch(`${url}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ plan: 'growth-USD-monthly', card: '4000 0000 0000 0002' }).toString(),
      redirect: 'manual',
    });
    expect(declined.headers.get('location')).toBe(`${base}/confirm-payment/failed`);
    expect((await state()).plan?.id).toBe('starter-USD-monthly');
  });

  it('opens the portal for the business’s own customer', async () => {
    const res = await call('POST', '/api/chargebee/portal-session/');
    expect(res.statusCode).toBe(200);
    const portal = await fetch(res.json().result.access_url);
    expect(await portal.text()).toContain('Starter');
  });
});

describe('quotas', () => {
  it('counts accepted texts as sms_count, refuses beyond the quota with 402, and gives back failed ones', async () => {
    await cb.subscribe(customerId(), 'tiny-USD-monthly');
    expect((await smsUsage()).quota).toBe(3);
    const first = await text();
    expect(first.statusCode).toBe(202);
    await waitForSend(
      rt.database.db,
      first.json().result.id,
      (s) => s.status !== 'queued' && s.status !== 'sending',
    );
    // Twilio refuses this number outright: the send fails before the provider took it.
    const refusedByTwilio = await text('+15005550001');
    expect(refusedByTwilio.statusCode).toBe(202);
    await waitForSend(rt.database.db, refusedByTwilio.json().result.id, (s) => s.status === 'failed');
    expect(await smsUsage()).toMatchObject({ used: 1, reserved: 1, remaining: 2 });

    expect((await text()).statusCode).toBe(202);
    expect((await text()).statusCode).toBe(202);
    const over = await text();
    expect(over.statusCode).toBe(402);
    const dialog = over.json().result.dialog;
    expect(dialog.title).toBe('You have used all your text messages for this period');
    expect(dialog.description).toMatch(/Your plan includes 3 text messages per billing period/);
    expect(dialog.description).toMatch(/Settings → Billing/);
    // The refused text was not recorded; the business's counter is the accepted ones of the period.
    await expect.poll(async () => (await call('GET', '/api/business/')).json().result.sms_count).toBe(3);
    expect((await call('GET', '/api/business/', undefined, other)).json().result.sms_count).toBe(0);
  });

  it('a top-up charged to the card on file is credited at once and lets the business send again', async () => {
    const s = await state();
    expect(s.top_ups.map((t) => t.id)).toEqual(['sms-500-USD', 'whatsapp-1000-USD', 'sms-2-USD']);
    const bad = await call('POST', '/api/chargebee/charge/', { top_up: 'starter-USD-monthly' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.top_up).toEqual(['No such top-up.']);
    const charged = await call('POST', '/api/chargebee/charge/', { top_up: 'sms-2-USD' });
    expect(charged.statusCode).toBe(200);
    expect(charged.json().result).toMatchObject({
      invoice_status: 'paid',
      channel: 'sms',
      units: 2,
      credited: true,
    });
    expect(
      cb.requests.find((r) => r.path === '/invoices/create_for_charge_items_and_charges')?.params,
    ).toMatchObject({
      customer_id: customerId(),
      'item_prices[item_price_id][0]': 'sms-2-USD',
    });
    // The payment_succeeded webhook for the same invoice credits nothing twice.
    expect(await smsUsage()).toMatchObject({ extra: 2, remaining: 2 });
    expect((await text()).statusCode).toBe(202);
  });

  it('refuses a list larger than what the plan has left before anything is queued, and sends one that fits', async () => {
    expect(await smsUsage()).toMatchObject({ remaining: 1 });
    const person = async (name: string) =>
      (
        await rt.app!.inject({
          method: 'POST',
          url: '/api/public/customers/',
          payload: { business_code: business.unique_code, name, phone: phone() },
        })
      ).json().result.customer.id as number;
    const list = async (name: string, ids: number[]) => {
      const made = (await call('POST', '/api/business/customer-lists/', { name })).json().result;
      await call('POST', `/api/business/customer-lists/${made.id}/members/`, { customer_ids: ids });
      return made.id as number;
    };
    const two = await list('Two people', [await person('Ann'), await person('Bob')]);
    const tooLarge = await call('POST', '/api/agents/send-sms/', { list_id: two, body: 'Sale' });
    expect(tooLarge.statusCode).toBe(402);
    expect(tooLarge.json().result.dialog).toEqual(BILLING_DIALOGS.listTooLarge('sms', 2, 1));
    const one = await list('One person', [await person('Cy')]);
    // Cy's consent is unknown: the send takes the business's legitimate interest to reach them.
    const fits = await call('POST', '/api/agents/send-sms/', {
      list_id: one,
      body: 'Sale',
      consent: 'legitimate_interest',
    });
    expect(fits.statusCode).toBe(202);
    await expect
      .poll(
        async () => (await call('GET', `/api/agents/send-sms/${fits.json().result.batch_id}/`)).json().result,
      )
      .toMatchObject({ total: 1, pending: 0, done: true });
    expect(await smsUsage()).toMatchObject({ remaining: 0 });
  });

  it('concurrent sends never overshoot the quota', async () => {
    await cb.subscribe(customerId(), 'five-USD-monthly');
    expect((await smsUsage()).quota).toBe(5);
    await rt.database.db.execute(
      sql`update billing_usage set reserved = 0, extra = 0 where business_id = ${business.id}`,
    );
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        sends.recordOnce(
          rt.database.db,
          {
            businessId: business.id,
            channel: 'sms',
            cause: 'test',
            recipient: `+1415555${String(7000 + i)}`,
            providerRequest: { Body: 'race' },
          },
          null,
        ),
      ),
    );
    const accepted = attempts.filter((a) => a.status === 'fulfilled');
    const refused = attempts.filter((a) => a.status === 'rejected');
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 402 });
    expect((await smsUsage()).reserved).toBe(5);
  });
});

describe('subscription statuses', () => {
  const cases = [
    { status: 'paused', allowed: false, dialog: BILLING_DIALOGS.paused },
    { status: 'cancelled', allowed: false, dialog: BILLING_DIALOGS.cancelled },
    { status: 'non_renewing', allowed: true },
    { status: 'in_trial', allowed: true },
    { status: 'active', allowed: true },
  ] as const;
  for (const c of cases) {
    it(`${c.status}: ${c.allowed ? 'sends' : 'refuses with its dialog'}`, async () => {
      await cb.subscribe(customerId(), 'growth-USD-monthly');
      await cb.setStatus(subscriptionOf(customerId()).id, c.status);
      expect((await state()).status).toBe(c.status);
      expect((await call('GET', '/api/business/')).json().result.subscription_status).toBe(c.status);
      const res = await text();
      if (c.allowed) expect(res.statusCode).toBe(202);
      else {
        expect(res.statusCode).toBe(402);
        expect(res.json().result.dialog).toEqual('dialog' in c ? c.dialog : null);
      }
    });
  }
});

describe('the webhook', () => {
  it('refuses wrong or missing credentials and changes nothing', async () => {
    const before = await state();
    const event = {
      id: 'ev_forged',
      event_type: 'subscription_cancelled',
      content: {
        subscription: {
          ...subscriptionOf(customerId()),
          status: 'cancelled',
          resource_version: Date.now() * 2,
        },
      },
    };
    for (const auth of ['', 'Basic ' + Buffer.from('chargebee:wrong').toString('base64'), 'Bearer x']) {
      const res = await webhook(event, auth);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    }
    expect((await state()).status).toBe(before.status);
  });

  it('refuses an IP that failed too often (429), whatever it sends next; successes never count', async () => {
    const event = { id: 'ev_guess', event_type: 'customer_changed', content: {} };
    const guesser = '203.0.113.7';
    const chargebee = '203.0.113.8';
    // Chargebee's deliveries, more than the failure allowance, all go through.
    for (let i = 0; i < WEBHOOK_FAILURES.max + 2; i++)
      expect((await webhook({ ...event, id: `ev_ok_${i}` }, RIGHT_AUTH, chargebee)).statusCode).toBe(200);
    const wrong = `Basic ${Buffer.from('chargebee:guess').toString('base64')}`;
    for (let i = 0; i < WEBHOOK_FAILURES.max; i++)
      expect((await webhook(event, wrong, guesser)).statusCode).toBe(401);
    const refused = await webhook(event, wrong, guesser);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Guessing right now is refused too, so the allowance is all a guesser gets.
    expect((await webhook(event, RIGHT_AUTH, guesser)).statusCode).toBe(429);
    // Chargebee's own address is untouched by the guesser's failures.
    expect((await webhook({ ...event, id: 'ev_ok_after' }, RIGHT_AUTH, chargebee)).statusCode).toBe(200);
  });

  it('takes each event once', async () => {
    const sub = subscriptionOf(customerId());
    await cb.setStatus(sub.id, 'active');
    const last = cb.events.at(-1)!;
    const again = await cb.redeliver(last.id);
    expect(again.status).toBe(200);
    const res = await webhook(last);
    expect(res.json().result.outcome).toBe('duplicate');
  });

  it('keeps the newest subscription whatever order events arrive in', async () => {
    const sub = subscriptionOf(customerId());
    cb.hold(true);
    await cb.setStatus(sub.id, 'paused');
    await cb.setStatus(sub.id, 'active');
    await cb.setStatus(sub.id, 'cancelled');
    const deliveries = await cb.release('reverse');
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    // The cancellation (newest) came first; the older pause and activation changed nothing.
    expect((await state()).status).toBe('cancelled');
    await cb.setStatus(sub.id, 'active');
    expect((await state()).status).toBe('active');
  });

  it('answers 400 to what is not a Chargebee event, and records events for unknown customers without effect', async () => {
    expect((await webhook({ hello: 'world' })).statusCode).toBe(400);
    expect((await webhook('not json at all')).statusCode).toBe(400);
    const stranger = await webhook({
      id: 'ev_stranger',
      event_type: 'subscription_created',
      content: {
        subscription: { id: 'sub_x', customer_id: 'someone-else', status: 'active', resource_version: 1 },
      },
    });
    expect(stranger.json().result.outcome).toBe('unknown_customer');
  });
});

describe('a top-up waiting for payment', () => {
  it('is credited once when its payment_succeeded webhook arrives', async () => {
    // This business has no card on file: the invoice waits.
    const charged = await call('POST', '/api/chargebee/charge/', { top_up: 'sms-500-USD' }, other);
    expect(charged.statusCode).toBe(200);
    const { invoice_id: invoiceId, invoice_status: status, credited } = charged.json().result;
    expect({ status, credited }).toEqual({ status: 'payment_due', credited: false });
    const sms = async () => (await state(other)).usage.find((u) => u.channel === 'sms')!;
    expect((await sms()).extra).toBe(0);
    const paid = {
      id: 'ev_paid_later',
      event_type: 'payment_succeeded',
      content: {
        invoice: { id: invoiceId, customer_id: `titan-${other.business.unique_code}`, status: 'paid' },
      },
    };
    expect((await webhook(paid)).json().result.outcome).toBe('credited');
    expect((await webhook(paid)).json().result.outcome).toBe('duplicate');
    expect((await webhook({ ...paid, id: 'ev_paid_again' })).json().result.outcome).toBe('ignored');
    expect((await sms()).extra).toBe(500);
  });
});

describe('another business', () => {
  it('has its own plan and usage; its owner cannot reach this business’s billing', async () => {
    const mine = await state(other);
    expect(mine).toMatchObject({ status: 'inactive', plan: null });
    const foreign = await rt.app!.inject({
      method: 'POST',
      url: '/api/chargebee/portal-session/',
      headers: as(other.owner, business),
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('agents and admins without billing.manage cannot open sessions or charge', async () => {
    const admin = await addMember(rt.app!, rt.mailer, owner, business, 'admin');
    for (const url of ['/api/chargebee/portal-session/', '/api/chargebee/pricing-page-session/']) {
      const res = await rt.app!.inject({ method: 'POST', url, headers: as(admin, business) });
      expect(res.statusCode).toBe(403);
    }
    expect(
      (
        await rt.app!.inject({
          method: 'GET',
          url: '/api/chargebee/subscription/',
          headers: as(admin, business),
        })
      ).statusCode,
    ).toBe(200);
  });
});
