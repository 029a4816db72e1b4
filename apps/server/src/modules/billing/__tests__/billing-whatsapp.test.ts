// Billing on the WhatsApp channel: a staff reply through the send spine is refused with 402 and the
// dialog while the subscription does not allow it (nothing reaches Meta), is sent and counted in
// whatsapp_count once the plan is active, and is refused again past the plan's WhatsApp quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_DIALOGS, type TConversation } from '@titan/contracts';
import { DEFAULT_ITEM_PRICES, startChargebeeSim, type ChargebeeSim } from '@titan/chargebee-sim';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';

const WEBHOOK = { username: 'chargebee', password: 'whatsapp-suite-password' };
const API_KEY = 'test_key_for_the_whatsapp_billing_suite';

let cb: ChargebeeSim;
let bench: WhatsappBench;

beforeAll(async () => {
  cb = await startChargebeeSim({
    apiKey: API_KEY,
    itemPrices: [
      ...DEFAULT_ITEM_PRICES,
      {
        id: 'two-wa-USD-monthly',
        name: 'Two',
        item_type: 'plan',
        price: 100,
        metadata: { whatsapp_quota: 2 },
      },
    ],
  });
  bench = await startWhatsappBench({
    businessName: 'Billed WhatsApp Co',
    env: {
      CHARGEBEE_SITE: 'titan-test',
      CHARGEBEE_API_KEY: API_KEY,
      CHARGEBEE_API_URL: cb.apiUrl,
      CHARGEBEE_WEBHOOK_USERNAME: WEBHOOK.username,
      CHARGEBEE_WEBHOOK_PASSWORD: WEBHOOK.password,
    },
  });
  cb.setWebhook({ url: `${bench.base}/api/chargebee/webhook/`, ...WEBHOOK });
}, 120_000);
afterAll(async () => {
  await bench?.close();
  await cb?.close();
});

const call = <T = unknown>(method: string, path: string, payload?: unknown) =>
  callAs<T>(bench.base, method, path, bench.owner, bench.business, payload);

async function conversation(): Promise<TConversation> {
  expect(
    (await bench.sim.sendInbound({ from: '4915100000001', name: 'Wanda', type: 'text', text: 'Hi' })).status,
  ).toBe(200);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = await call<{ results: TConversation[] }>('GET', '/api/msg/conversations/?page_size=10');
    const found = list.body.result.results.find((c) => c.channel === 'whatsapp');
    if (found) return found;
    if (Date.now() > deadline) throw new Error('no conversation');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const reply = (id: number, text: string) =>
  call('POST', `/api/whatsapp/conversations/${id}/messages/`, { type: 'text', text: { body: text } });
const sentToMeta = () =>
  bench.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).length;

describe('WhatsApp under billing', () => {
  it('refuses, then sends and counts, then refuses past the quota', async () => {
    const c = await conversation();
    const before = sentToMeta();
    const refused = await reply(c.id, 'Hello from the shop');
    expect(refused.status).toBe(402);
    expect((refused.body.result as { dialog: unknown }).dialog).toEqual(BILLING_DIALOGS.inactive);
    expect(sentToMeta()).toBe(before);

    expect((await call('POST', '/api/chargebee/pricing-page-session/')).status).toBe(200);
    await cb.subscribe(`titan-${bench.business.unique_code}`, 'two-wa-USD-monthly');
    expect((await reply(c.id, 'One')).status).toBeLessThan(300);
    expect((await reply(c.id, 'Two')).status).toBeLessThan(300);
    expect(sentToMeta()).toBe(before + 2);
    const over = await reply(c.id, 'Three');
    expect(over.status).toBe(402);
    expect((over.body.result as { dialog: { title: string } }).dialog.title).toBe(
      'You have used all your WhatsApp messages for this period',
    );
    expect(sentToMeta()).toBe(before + 2);
    const me = await call<{ whatsapp_count: number }>('GET', '/api/business/');
    expect(me.body.result.whatsapp_count).toBe(2);
  });
});
