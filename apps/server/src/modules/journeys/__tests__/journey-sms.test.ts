// A journey's SMS step over real HTTP (Titan → tools/sms-sim as Twilio, signed status callbacks
// back): Twilio's delivered status becomes the customer's sms.delivered once, however often Twilio
// reports it, and ends the journey's wait for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TJourney, TJourneyCustomerPath } from '@titan/contracts';
import { signatureFor, startSmsSim, type SmsSim } from '@titan/sms-sim';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { freePort } from '../../email/__tests__/email-helpers';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys } from '../journeys.engine';

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
      `insert into customers (business_id, name, phone, sms_status) values ($1, 'Kim', '+14155550199', 'subscribed')
       returning id`,
      [business.id],
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
