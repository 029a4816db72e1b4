// The simulator as Titan and a browser see it: Chargebee's API v2 over HTTP (basic auth with the
// API key, form-encoded bodies, Chargebee's error shape), the hosted pricing page returning to the
// redirect URL, and webhooks with basic auth — held, released in reverse, redelivered.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ITEM_PRICES, startChargebeeSim, type ChargebeeSim } from '../index';

const KEY = 'test_sim_key';
let sim: ChargebeeSim;
let receiver: Server;
const received: {
  auth: string | undefined;
  body: { id: string; event_type: string; content: Record<string, unknown> };
}[] = [];

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  sim = await startChargebeeSim({
    apiKey: KEY,
    itemPrices: DEFAULT_ITEM_PRICES,
    webhook: { url: `http://127.0.0.1:${port}/hook`, username: 'u', password: 'p' },
  });
});
afterAll(async () => {
  await sim.close();
  receiver.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const json = async (res: Response): Promise<Json> => res.json();
const api = (method: string, path: string, params: Record<string, string> = {}, key = KEY) =>
  fetch(
    `${sim.apiUrl}${path}${method === 'GET' && Object.keys(params).length ? `?${new URLSearchParams(params)}` : ''}`,
    {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
    },
  );

describe('the API', () => {
  it('refuses a wrong key with Chargebee’s error shape', async () => {
    const res = await api('GET', '/item_prices', {}, 'wrong');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      api_error_code: 'api_authentication_failed',
      http_status_code: 401,
    });
  });

  it('creates customers once, and answers item prices with their metadata', async () => {
    expect((await api('POST', '/customers', { id: 'c1', company: 'Acme' })).status).toBe(200);
    const dup = await api('POST', '/customers', { id: 'c1' });
    expect(dup.status).toBe(400);
    expect(await dup.json()).toMatchObject({ api_error_code: 'duplicate_entry', param: 'id' });
    const price = await json(await api('GET', '/item_prices/starter-USD-monthly'));
    expect(price.item_price).toMatchObject({ item_type: 'plan', metadata: { sms_quota: 100 } });
    const charges = await json(await api('GET', '/item_prices', { 'item_type[is]': 'charge' }));
    expect(charges.list.map((l: { item_price: { id: string } }) => l.item_price.id)).toEqual([
      'sms-500-USD',
      'whatsapp-1000-USD',
    ]);
  });

  it('runs a pricing page checkout back to the redirect URL, with a webhook carrying basic auth', async () => {
    const session = await json(
      await api('POST', '/pricing_page_sessions/create_for_new_subscription', {
        'pricing_page[id]': 'titan',
        'customer[id]': 'c1',
        redirect_url: 'http://titan.test/confirm-payment/success',
      }),
    );
    const url = session.pricing_page_session.url as string;
    expect(await (await fetch(url)).text()).toContain('Choose your plan');
    const back = await fetch(`${url}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'plan=scale-USD-monthly&card=4111111111111111',
      redirect: 'manual',
    });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toMatch(/^http:\/\/titan\.test\/confirm-payment\/success\?id=pps_/);
    const event = received.at(-1)!;
    expect(event.auth).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(event.body).toMatchObject({
      event_type: 'subscription_created',
      content: { subscription: { customer_id: 'c1', status: 'active' } },
    });
    const subId = (event.body.content.subscription as { id: string }).id;
    const ent = await json(await api('GET', `/subscriptions/${subId}/subscription_entitlements`));
    expect(ent.list[0].subscription_entitlement).toMatchObject({
      feature_id: 'whatsapp-quota',
      value: 'unlimited',
    });
    // The card is on file now: a one-off charge is paid at once.
    const invoice = await json(
      await api('POST', '/invoices/create_for_charge_items_and_charges', {
        customer_id: 'c1',
        'item_prices[item_price_id][0]': 'sms-500-USD',
        'item_prices[quantity][0]': '1',
      }),
    );
    expect(invoice.invoice).toMatchObject({ status: 'paid', total: 1500 });
  });

  it('holds events and releases them in reverse; redelivers one again', async () => {
    const sub = [...sim.subscriptions.values()][0]!;
    sim.hold(true);
    await sim.setStatus(sub.id, 'paused');
    await sim.setStatus(sub.id, 'active');
    const before = received.length;
    await sim.release('reverse');
    const types = received.slice(before).map((r) => r.body.event_type);
    expect(types).toEqual(['subscription_resumed', 'subscription_paused']);
    const versions = received
      .slice(before)
      .map((r) => (r.body.content.subscription as { resource_version: number }).resource_version);
    expect(versions[0]).toBeGreaterThan(versions[1]!);
    await sim.redeliver(received.at(-1)!.body.id);
    expect(received.at(-1)!.body.id).toBe(received.at(-2)!.body.id);
  });
});
