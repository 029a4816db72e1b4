// A journey's WhatsApp step against the WhatsApp Cloud API simulator: an approved template with its
// variables filled from the customer reaches their phone once, even when the step dies before its
// commit and is taken again, or its send is handed on twice; a customer without WhatsApp consent
// gets nothing and the step says why. Meta's delivered and read statuses become the customer's
// whatsapp.delivered (the journey's goal) and whatsapp.read (ending the journey's wait) once each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness, TJourney, TJourneyCustomerPath, TJourneyStats } from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import type { Session } from '../../../testing/identity';
import { as } from '../../../testing/identity';
import { startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { zoneAt } from '../../../testing/zones';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys, runJourneyPass } from '../journeys.engine';

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;

/** The test drives the engine itself: the process's own journey loop takes nothing (batch 0). */
function deps(over: Partial<JourneyDeps> = {}): JourneyDeps {
  return { ...rt.services.journeys, batchSize: 100, clock: () => new Date(), wake: () => undefined, ...over };
}

const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  rt.app!.inject({
    method,
    url,
    headers: as(owner, business),
    ...(payload ? { payload: payload as object } : {}),
  });

async function customer(name: string, phone: string, whatsapp: 'subscribed' | 'unknown'): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, phone, whatsapp_status, fields)
       values ($1, $2, $3, $4, $5::jsonb) returning id`,
    // Their clock reads midday: out of the quiet hours texts wait out.
    [business.id, name, phone, whatsapp, JSON.stringify({ order: '#2001', timezone: zoneAt(12) })],
  );
  return Number(row!.id);
}

async function path(id: number, customerId: number): Promise<TJourneyCustomerPath> {
  const res = await api('GET', `/api/journeys/${id}/customers/${customerId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyCustomerPath;
}

const journeySends = (journeyId: number) =>
  rt.database.query<{ id: string; customer_id: string; status: string; provider_message_id: string | null }>(
    `select id, customer_id, status, provider_message_id from sends
      where cause = 'journey' and cause_id = $1 order by created_at, id`,
    [String(journeyId)],
  );

const eventsOf = (customerId: number, name: string) =>
  rt.database.query<{ properties: Record<string, unknown> }>(
    `select properties from customer_events where customer_id = $1 and name = $2`,
    [customerId, name],
  );

async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const template = {
  name: 'order_update',
  language: 'en_US',
  variables: {
    'header.1': 'fields.order',
    '1': 'customer.name',
    '2': 'on its way',
    'button.1': 'fields.order',
  },
};

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Journey WhatsApp Co' });
  ({ sim, rt, owner, business } = bench);
  rt.services.journeys.batchSize = 0;
  sim.set({ autoRead: false });
  const synced = await api('POST', '/api/whatsapp/template/sync/');
  expect(synced.statusCode, synced.body).toBe(200);
}, 60_000);
afterAll(() => bench?.close());

describe('a WhatsApp template step', () => {
  it('refuses a template the business cannot send, with the words on the field', async () => {
    const res = await api('POST', '/api/journeys/', {
      name: 'Unknown template',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'order.shipped' } },
          {
            id: 'tell',
            type: 'send',
            config: { channel: 'whatsapp', whatsapp_template: { name: 'no_such', language: 'en_US' } },
          },
        ],
        edges: [{ from: 'start', to: 'tell' }],
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().result['graph.nodes.1.config.whatsapp_template']).toEqual([
      'No WhatsApp template “no_such” in en_US. Sync templates in Settings → WhatsApp and choose one.',
    ]);
  });

  it('sends once to a subscribed customer even when the step is retried; delivered and read are events', async () => {
    const label = (await api('POST', '/api/msg/labels/', { name: 'Read it', color: '#22c55e' })).json().result
      .id as number;
    const created = await api('POST', '/api/journeys/', {
      name: 'Shipped on WhatsApp',
      goal: { event: 'whatsapp.delivered', within_days: 1 },
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'order.shipped' } },
          { id: 'tell', type: 'send', config: { channel: 'whatsapp', whatsapp_template: template } },
          {
            id: 'seen',
            type: 'wait',
            config: { kind: 'until_event', event: 'whatsapp.read', timeout_seconds: 86_400 },
          },
          { id: 'mark', type: 'update', config: { add_label_ids: [label] } },
          { id: 'unread', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'tell' },
          { from: 'tell', to: 'seen' },
          { from: 'seen', to: 'mark', label: 'event' },
          { from: 'seen', to: 'unread', label: 'timeout' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const journey = created.json().result as TJourney;
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);

    const ada = await customer('Ada', '+15550102001', 'subscribed');
    const bo = await customer('Bo', '+15550102002', 'unknown');
    for (const id of [ada, bo]) {
      const posted = await api('POST', '/api/events/', { name: 'order.shipped', customer: { id } });
      expect(posted.statusCode, posted.body).toBe(202);
    }

    // A worker records the send and dies before its commit: nothing kept, nothing handed on.
    const real = rt.services.journeys.ports;
    const dying = deps({
      leaseMs: 50,
      ports: {
        ...real,
        recordSend: async (tx, input) => {
          await real.recordSend(tx, input);
          throw new Error('killed');
        },
      },
    });
    await runJourneyPass(dying); // hears the events
    await runJourneyPass(dying); // runs both send steps, which die before committing
    expect(await journeySends(journey.id)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100)); // the dead worker's lease runs out
    await drainJourneys(deps());
    const [send] = await journeySends(journey.id);
    expect((await journeySends(journey.id)).map((s) => Number(s.customer_id))).toEqual([ada]);

    // The step's send handed on a second time (a recovery racing the first hand-on), and the same
    // step key recorded again: still the one send.
    await real.dispatchSends([{ id: send!.id, channel: 'whatsapp' }]);
    const [adaRow] = await real.findCustomers(rt.database.db, business.id, [ada]);
    const again = await real.recordSend(rt.database.db, {
      businessId: business.id,
      customer: adaRow!,
      config: { channel: 'whatsapp', whatsapp_template: template, consent: 'subscribed' },
      idempotencyKey: (
        await rt.database.query<{ idempotency_key: string }>(
          'select idempotency_key from sends where id = $1',
          [send!.id],
        )
      )[0]!.idempotency_key,
      causeId: String(journey.id),
    });
    expect(again).toMatchObject({ sendId: send!.id, dispatch: false });

    const delivered = await until(async () => {
      const [s] = await journeySends(journey.id);
      return s?.status === 'delivered' && s;
    }, 'the send delivered');
    await new Promise((r) => setTimeout(r, 300));
    const toAda = sim.outbound.filter((o) => o.to === '15550102001');
    expect(toAda).toHaveLength(1);
    expect(toAda[0]!.body).toMatchObject({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '#2001' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'on its way' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: '#2001' }] },
        ],
      },
    });
    expect(sim.outbound.filter((o) => o.to === '15550102002')).toEqual([]);
    expect((await path(journey.id, bo)).runs[0]!.steps.map((s) => [s.node_id, s.status, s.reason])).toEqual([
      ['start', 'passed', null],
      ['tell', 'failed', 'Not sent: the customer has not subscribed to WhatsApp.'],
      ['seen', 'waiting', null],
    ]);

    // Delivered: the goal's event, once. Not yet read: Ada still waits.
    expect(await eventsOf(ada, 'whatsapp.delivered')).toEqual([
      {
        properties: {
          send_id: delivered.id,
          channel: 'whatsapp',
          cause: 'journey',
          cause_id: String(journey.id),
        },
      },
    ]);
    await drainJourneys(deps());
    expect((await path(journey.id, ada)).runs[0]!.steps.at(-1)).toMatchObject({
      node_id: 'seen',
      status: 'waiting',
    });
    const stats = (await api('GET', `/api/journeys/${journey.id}/stats/`)).json().result as TJourneyStats;
    expect(stats.goal).toMatchObject({ entered: 2, converted: 1 });

    // Ada reads it (Meta reports it twice): whatsapp.read once, and her wait ends by its event.
    sim.set({ duplicate: true });
    await sim.readMessage(delivered.provider_message_id!);
    await until(async () => (await eventsOf(ada, 'whatsapp.read')).length > 0, 'whatsapp.read');
    await new Promise((r) => setTimeout(r, 200));
    expect(await eventsOf(ada, 'whatsapp.read')).toHaveLength(1);
    await drainJourneys(deps());
    expect((await path(journey.id, ada)).runs[0]!.steps.map((s) => [s.node_id, s.status, s.outcome])).toEqual(
      [
        ['start', 'passed', null],
        ['tell', 'passed', null],
        ['seen', 'passed', 'event'],
        ['mark', 'passed', null],
      ],
    );
    const seen = (await api('GET', `/api/business/customer-directory/${ada}/`)).json().result;
    expect(seen.labels.map((l: { id: number }) => l.id)).toEqual([label]);
    expect(sim.outbound.filter((o) => o.to === '15550102001')).toHaveLength(1);
  });
});
