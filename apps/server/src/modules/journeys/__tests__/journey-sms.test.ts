// A journey's SMS step over real HTTP (Titan → tools/sms-sim as Twilio, signed status callbacks
// back): Twilio's delivered status becomes the customer's sms.delivered once, however often Twilio
// reports it, and ends the journey's wait for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TJourney, TJourneyCustomerPath } from '@titan/contracts';
import { signatureFor, startSmsSim, type SmsSim } from '@titan/sms-sim';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { freePort } from '../../email/__tests__/email-helpers';
import { zoneAt } from '../../../testing/zones';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys, QUIET_HOURS_WORDS } from '../journeys.engine';

const A = {
  account_sid: 'AC0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c',
  auth_token: 'c-auth-token-0123456789abcdef0123',
  from_number: '+15550100400',
};

let sim: SmsSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;

/** The test drives the engine itself: the process's own journey loop takes nothing (batch 0). */
function deps(): JourneyDeps {
  return { ...rt.services.journeys, batchSize: 100, clock: () => new Date(), wake: () => undefined };
}

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  rt.app!.inject({ method, url, headers: as(owner, business), ...(payload ? { payload } : {}) });

async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  sim = await startSmsSim({
    accounts: [
      {
        accountSid: A.account_sid,
        authToken: A.auth_token,
        numbers: [A.from_number],
        inboundUrl: `${base}/api/sms/webhook/inbound/`,
      },
    ],
    switches: { statusDelayMs: 5 },
  });
  rt = await createTestRuntime({
    workers: true,
    env: { PUBLIC_URL: base, SMS_API_URL: sim.apiUrl, SMS_RETRY_DELAYS_MS: '50,50' },
  });
  await rt.app!.listen({ port, host: '127.0.0.1' });
  rt.services.journeys.batchSize = 0;
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Journey SMS Co');
  expect((await api('PUT', '/api/sms/account/', A)).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
});

describe('SMS delivered as an event', () => {
  it('is stored once per send however often Twilio reports it, and ends a wait for it', async () => {
    const created = await api('POST', '/api/journeys/', {
      name: 'Ready for pickup',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'order.ready' } },
          {
            id: 'text',
            type: 'send',
            config: { channel: 'sms', body: 'Your order is ready, {{ customer.name }}.' },
          },
          {
            id: 'arrived',
            type: 'wait',
            config: { kind: 'until_event', event: 'sms.delivered', timeout_seconds: 3600 },
          },
          { id: 'done', type: 'exit', config: {} },
          { id: 'lost', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'text' },
          { from: 'text', to: 'arrived' },
          { from: 'arrived', to: 'done', label: 'event' },
          { from: 'arrived', to: 'lost', label: 'timeout' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const journey = created.json().result as TJourney;
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);
    const [row] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, name, phone, sms_status, fields)
       values ($1, 'Kim', '+14155550199', 'subscribed', $2::jsonb) returning id`,
      // Kim's clock reads midday: out of the quiet hours texts wait out.
      [business.id, JSON.stringify({ timezone: zoneAt(12) })],
    );
    const kim = Number(row!.id);
    expect(
      (await api('POST', '/api/events/', { name: 'order.ready', customer: { id: kim } })).statusCode,
    ).toBe(202);
    await drainJourneys(deps());

    const send = await until(async () => {
      const [s] = await rt.database.query<{ id: string; status: string; provider_message_id: string }>(
        `select id, status, provider_message_id from sends where cause = 'journey' and cause_id = $1`,
        [String(journey.id)],
      );
      return s?.status === 'delivered' && s;
    }, 'the text delivered');
    // Twilio reports delivered again (it retries callbacks it thinks were lost).
    const params = {
      MessageSid: send.provider_message_id,
      MessageStatus: 'delivered',
      AccountSid: A.account_sid,
      From: A.from_number,
      To: '+14155550199',
    };
    const url = `${base}/api/sms/webhook/status/`;
    const again = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signatureFor(A.auth_token, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(again.status).toBeLessThan(300);
    const events = await rt.database.query<{ properties: Record<string, unknown> }>(
      `select properties from customer_events where customer_id = $1 and name = 'sms.delivered'`,
      [kim],
    );
    expect(events).toEqual([
      { properties: { send_id: send.id, channel: 'sms', cause: 'journey', cause_id: String(journey.id) } },
    ]);
    await drainJourneys(deps());
    const res = await api('GET', `/api/journeys/${journey.id}/customers/${kim}/`);
    const path = res.json().result as TJourneyCustomerPath;
    expect(path.runs[0]!.steps.map((s) => [s.node_id, s.status, s.outcome])).toEqual([
      ['start', 'passed', null],
      ['text', 'passed', null],
      ['arrived', 'passed', 'event'],
      ['done', 'exited', null],
    ]);
  });
});

describe('quiet hours', () => {
  it('a text due in the customer’s night waits until 08:00 on their clock, then goes once', async () => {
    const created = await api('POST', '/api/journeys/', {
      name: 'Late reminder',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'late.reminder' } },
          { id: 'text', type: 'send', config: { channel: 'sms', body: 'A reminder, {{ customer.name }}.' } },
          { id: 'done', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'text' },
          { from: 'text', to: 'done' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const journey = created.json().result as TJourney;
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);
    // Lee's clock reads 23:xx now: quiet hours (21:00–08:00) until 08:00, about 9 hours on.
    const now = new Date();
    const [row] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, name, phone, sms_status, fields)
       values ($1, 'Lee', '+14155550142', 'subscribed', $2::jsonb) returning id`,
      [business.id, JSON.stringify({ timezone: zoneAt(23, now) })],
    );
    const lee = Number(row!.id);
    expect(
      (await api('POST', '/api/events/', { name: 'late.reminder', customer: { id: lee } })).statusCode,
    ).toBe(202);
    await drainJourneys(deps());

    const sentTo = () => sim.messages.filter((m) => m.to === '+14155550142');
    const pathOf = async () =>
      (
        (await api('GET', `/api/journeys/${journey.id}/customers/${lee}/`)).json()
          .result as TJourneyCustomerPath
      ).runs[0]!.steps;
    let steps = await pathOf();
    expect(steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['text', 'waiting'],
    ]);
    const [waiting] = await rt.database.query<{ due_at: Date; detail: { reason: string } }>(
      `select due_at, detail from journey_steps where run_id = (
         select id from journey_runs where journey_id = $1 and customer_id = $2) and node_id = 'text'`,
      [journey.id, lee],
    );
    const endsAt = new Date(waiting!.due_at);
    const hoursOn = (endsAt.getTime() - now.getTime()) / 3_600_000;
    expect(hoursOn).toBeGreaterThan(8);
    expect(hoursOn).toBeLessThanOrEqual(9);
    expect(endsAt.getUTCMinutes()).toBe(0);
    expect(waiting!.detail.reason).toBe(QUIET_HOURS_WORDS.waiting(endsAt));
    expect(
      await rt.database.query(`select id from sends where cause = 'journey' and cause_id = $1`, [
        String(journey.id),
      ]),
    ).toEqual([]);

    // An hour before the end: still waiting, nothing sent.
    const at = (t: Date): JourneyDeps => ({ ...deps(), clock: () => t });
    await drainJourneys(at(new Date(endsAt.getTime() - 3_600_000)));
    expect((await pathOf()).map((s) => s.status)).toEqual(['passed', 'waiting']);
    // 08:00 on Lee's clock: sent, once, however often the loop runs.
    await drainJourneys(at(endsAt));
    await drainJourneys(at(new Date(endsAt.getTime() + 60_000)));
    steps = await pathOf();
    expect(steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['text', 'passed'],
      ['done', 'exited'],
    ]);
    await until(async () => sentTo().length === 1, 'the text sent');
    expect(sentTo()).toHaveLength(1);
  });
});
