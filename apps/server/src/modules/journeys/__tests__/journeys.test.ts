// Journeys end to end on the real email channel (no workers: sends stay queued where a mail server
// would take them), with a clock the test moves: a welcome on joining a list or on a posted event
// sent once however often the event comes; a wait for an event with a timeout branch; a kill before
// and after a send's record sends once; a new version leaving customers in flight on theirs;
// another business's events starting nothing here; graphs Titan cannot take answered with the
// dotted path of the bad field.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TJourney, TJourneyCustomerPath, TJourneyStats } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { dkimKey, verifiedDomains } from '../../email/__tests__/email-helpers';
import { setSendingIdentityLookupForTests } from '../../email/sending-identity';
import { recordSendEvent, recoverSends } from '../../sends/sends.service';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys, runJourneyPass, STEP_ATTEMPTS } from '../journeys.engine';
import { signToken, trackingKey } from '../../email-tracking/email-tracking.tokens';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let welcome: number;
let reminder: number;
let now = new Date('2026-12-01T10:00:00Z');
const key = dkimKey();

function deps(over: Partial<JourneyDeps> = {}): JourneyDeps {
  return { ...rt.services.journeys, clock: () => now, wake: () => undefined, ...over };
}
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  b = business,
  s = owner,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

async function customer(name: string, email: string, b = business, subscribed = true): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, email, email_status) values ($1, $2, $3, $4) returning id`,
    [b.id, name, email, subscribed ? 'subscribed' : 'unknown'],
  );
  return Number(row!.id);
}

async function template(name: string, subject: string, b = business, s = owner): Promise<number> {
  const res = await api(
    'POST',
    '/api/template/',
    { name, subject, format: 'html', content: `<p>${subject}</p>` },
    b,
    s,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result.id as number;
}

const sender = 'Acme <hello@acme.test>';
const send = (id: string, templateId: number) => ({
  id,
  type: 'send',
  config: { channel: 'email', template_id: templateId, from: sender },
});
const onEvent = (event: string) => ({ id: 'start', type: 'trigger', config: { kind: 'event', event } });

async function create(body: Record<string, unknown>, b = business, s = owner): Promise<TJourney> {
  const res = await api('POST', '/api/journeys/', body, b, s);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result as TJourney;
}

async function publish(id: number, b = business, s = owner): Promise<TJourney> {
  const res = await api('POST', `/api/journeys/${id}/publish/`, undefined, b, s);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourney;
}

async function postEvent(body: Record<string, unknown>, b = business, s = owner) {
  return api('POST', '/api/events/', body, b, s);
}

/** The journey's sends, by customer. */
const sendsOf = (journeyId: number) =>
  rt.database.query<{
    id: string;
    customer_id: string;
    status: string;
    subject: string;
    template_id: string;
    error_message: string | null;
  }>(
    `select id, customer_id, status, subject, template_id, error_message from sends
      where cause = 'journey' and cause_id = $1 order by created_at, id`,
    [String(journeyId)],
  );

async function stats(id: number): Promise<TJourneyStats> {
  const res = await api('GET', `/api/journeys/${id}/stats/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyStats;
}

async function path(id: number, customerId: number): Promise<TJourneyCustomerPath> {
  const res = await api('GET', `/api/journeys/${id}/customers/${customerId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyCustomerPath;
}

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Journey Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Journeys') };
  verifiedDomains([
    { businessId: business.id, domain: 'acme.test', pem: key.pem },
    { businessId: other.business.id, domain: 'acme.test', pem: key.pem },
  ]);
  welcome = await template('Welcome', 'Welcome aboard');
  reminder = await template('Reminder', 'Still thinking it over?');
});
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
});

describe('a welcome on joining a list', () => {
  it('sends once: joining, leaving and joining again does not welcome twice (re-entry never)', async () => {
    const listRes = await api('POST', '/api/business/customer-lists/', { name: 'Newsletter' });
    const listId = listRes.json().result.id as number;
    const journey = await create({
      name: 'Welcome',
      graph: {
        nodes: [onEvent('list.joined'), send('hello', welcome), { id: 'done', type: 'exit', config: {} }],
        edges: [
          { from: 'start', to: 'hello' },
          { from: 'hello', to: 'done' },
        ],
      },
    });
    expect(journey).toMatchObject({ status: 'draft', version: 1, live_version: null, reentry: 'never' });
    // Before publishing, nothing listens: joining stores no event and starts nothing.
    const early = await customer('Early', 'early@example.test');
    await api('POST', `/api/business/customer-lists/${listId}/members/`, { customer_ids: [early] });
    await publish(journey.id);
    const ann = await customer('Ann', 'ann@example.test');
    const join = () =>
      api('POST', `/api/business/customer-lists/${listId}/members/`, { customer_ids: [ann] });
    expect((await join()).statusCode).toBe(200);
    await drainJourneys(deps());
    await api('POST', `/api/business/customer-lists/${listId}/members/remove/`, { customer_ids: [ann] });
    await join();
    await drainJourneys(deps());
    const sent = await sendsOf(journey.id);
    expect(sent.map((s) => [Number(s.customer_id), s.subject, s.status])).toEqual([
      [ann, 'Welcome aboard', 'queued'],
    ]);
    const s = await stats(journey.id);
    expect(s.nodes).toEqual({
      start: { entered: 1, waiting: 0, passed: 1, exited: 0, failed: 0 },
      hello: { entered: 1, waiting: 0, passed: 1, exited: 0, failed: 0 },
      done: { entered: 1, waiting: 0, passed: 0, exited: 1, failed: 0 },
    });
    expect(s.customers).toEqual({ active: 0, exited: 1, failed: 0 });
    const p = await path(journey.id, ann);
    expect(p.runs).toHaveLength(1);
    expect(p.runs[0]!.steps.map((x) => [x.node_id, x.type, x.status])).toEqual([
      ['start', 'trigger', 'passed'],
      ['hello', 'send', 'passed'],
      ['done', 'exit', 'exited'],
    ]);
    expect(p.runs[0]!.steps[1]!.send_id).toBe(sent[0]!.id);
    expect(p.runs[0]!.steps[0]!.entered_at).toBe(now.toISOString());
  });

  it('sends once when the same event is posted twice (one idempotency key), and once more per re-entry rule', async () => {
    const journey = await create({
      name: 'Signed up',
      reentry: 'after_exit',
      graph: {
        nodes: [onEvent('signed_up'), send('hello', welcome)],
        edges: [{ from: 'start', to: 'hello' }],
      },
    });
    await publish(journey.id);
    const bo = await customer('Bo', 'bo@example.test');
    const body = {
      name: 'signed_up',
      customer: { email: 'BO@example.test' },
      idempotency_key: 'signup-bo-1',
    };
    const first = await postEvent(body);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().result.created).toBe(true);
    const again = await postEvent(body);
    expect(again.statusCode).toBe(202);
    expect(again.json().result).toEqual({ id: first.json().result.id, created: false });
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((s) => Number(s.customer_id))).toEqual([bo]);
    // A new event after the first pass ended: after_exit lets the customer in again.
    await postEvent({ ...body, idempotency_key: 'signup-bo-2' });
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((s) => Number(s.customer_id))).toEqual([bo, bo]);
  });

  it('does not send to a customer without consent: the step fails with the reason and the customer goes on', async () => {
    const journey = await create({
      name: 'No consent',
      graph: {
        nodes: [onEvent('asked'), send('hello', welcome), { id: 'done', type: 'exit', config: {} }],
        edges: [
          { from: 'start', to: 'hello' },
          { from: 'hello', to: 'done' },
        ],
      },
    });
    await publish(journey.id);
    const cy = await customer('Cy', 'cy@example.test', business, false);
    await postEvent({ name: 'asked', customer: { id: cy } });
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    const p = await path(journey.id, cy);
    expect(p.runs[0]!.steps[1]).toMatchObject({
      node_id: 'hello',
      status: 'failed',
      reason: 'Not sent: the customer has not subscribed to email.',
    });
    expect(p.runs[0]!.status).toBe('exited');
  });
});

describe('a wait for an event with a timeout', () => {
  it('follows "event" when the event comes in time and "timeout" after two days', async () => {
    const journey = await create({
      name: 'Book or remind',
      graph: {
        nodes: [
          onEvent('quote.sent'),
          {
            id: 'wait',
            type: 'wait',
            config: { kind: 'until_event', event: 'booked', timeout_seconds: 2 * 86400 },
          },
          send('remind', reminder),
          { id: 'thanks', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'thanks', label: 'event' },
          { from: 'wait', to: 'remind', label: 'timeout' },
        ],
      },
    });
    await publish(journey.id);
    const booker = await customer('Booker', 'booker@example.test');
    const idle = await customer('Idle', 'idle@example.test');
    await postEvent({ name: 'quote.sent', customer: { id: booker } });
    await postEvent({ name: 'quote.sent', customer: { id: idle } });
    await drainJourneys(deps());
    expect((await stats(journey.id)).nodes.wait).toMatchObject({ entered: 2, waiting: 2 });
    later(86400);
    // When it happened, on the test's clock (an event from before a wait began does not end it).
    await postEvent({
      name: 'booked',
      customer: { id: booker },
      properties: { slot: 'Tue' },
      occurred_at: now.toISOString(),
    });
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    later(86400 - 1);
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    later(1);
    await drainJourneys(deps());
    const sent = await sendsOf(journey.id);
    expect(sent.map((s) => [Number(s.customer_id), s.subject])).toEqual([[idle, 'Still thinking it over?']]);
    expect((await stats(journey.id)).nodes).toMatchObject({
      wait: { entered: 2, waiting: 0, passed: 2 },
      remind: { entered: 1, passed: 1 },
      thanks: { entered: 1, exited: 1 },
    });
    const p = await path(journey.id, idle);
    expect(p.runs[0]!.steps.map((s) => [s.node_id, s.outcome])).toEqual([
      ['start', null],
      ['wait', 'timeout'],
      ['remind', null],
    ]);
    expect(p.runs[0]!.steps[1]!.finished_at).toBe(now.toISOString());
    expect((await path(journey.id, booker)).runs[0]!.steps.map((s) => [s.node_id, s.outcome])).toEqual([
      ['start', null],
      ['wait', 'event'],
      ['thanks', null],
    ]);
  });
});

describe('a wait until the mail is opened', () => {
  const CHROME =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
  /** The mail's open pixel (or a link in it) fetched by `userAgent`, at the test's clock. */
  async function hit(sendId: string, kind: 'open' | 'click', userAgent: string) {
    const key = trackingKey(rt.config.APP_SECRET);
    const url =
      kind === 'open'
        ? `/t/o/${signToken(key, { kind: 'open', sendId })}.gif`
        : `/t/c/${signToken(key, { kind: 'click', sendId, url: 'https://acme.test/book' })}`;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    try {
      const res = await app.inject({ url, headers: { 'user-agent': userAgent } });
      expect(res.statusCode).toBeLessThan(400);
      await rt.services.emailTracking.recorder.flush();
    } finally {
      vi.useRealTimers();
    }
  }

  it('a reader who opens (or clicks) goes on at once; a proxy fetching the pixel is no reader, so the timeout reminds', async () => {
    const journey = await create({
      name: 'Offer, then remind who did not open',
      graph: {
        nodes: [
          onEvent('offer.requested'),
          send('offer', welcome),
          {
            id: 'wait',
            type: 'wait',
            config: { kind: 'until_event', event: 'email.opened', timeout_seconds: 2 * 86400 },
          },
          send('remind', reminder),
          { id: 'read', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'offer' },
          { from: 'offer', to: 'wait' },
          { from: 'wait', to: 'read', label: 'event' },
          { from: 'wait', to: 'remind', label: 'timeout' },
        ],
      },
    });
    await publish(journey.id);
    const reader = await customer('Reader', 'reader@example.test');
    const clicker = await customer('Clicker', 'clicker@example.test');
    const proxied = await customer('Proxied', 'proxied@example.test');
    for (const id of [reader, clicker, proxied])
      await postEvent({ name: 'offer.requested', customer: { id } });
    await drainJourneys(deps());
    const offers = await sendsOf(journey.id);
    expect(offers).toHaveLength(3);
    const offerOf = (id: number) => offers.find((o) => Number(o.customer_id) === id)!.id;

    later(3600);
    await hit(offerOf(reader), 'open', CHROME);
    await hit(offerOf(reader), 'open', CHROME); // opened again: nothing new
    await hit(offerOf(clicker), 'click', CHROME); // images off, the link followed
    await hit(
      offerOf(proxied),
      'open',
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    );
    await drainJourneys(deps());
    expect((await stats(journey.id)).nodes).toMatchObject({
      wait: { entered: 3, waiting: 1, passed: 2 },
      read: { entered: 2, exited: 2 },
    });
    const [opened] = await rt.database.query<{ n: string }>(
      `select count(*) as n from customer_events where business_id = $1 and name = 'email.opened' and customer_id = $2`,
      [business.id, reader],
    );
    expect(Number(opened!.n)).toBe(1);

    later(2 * 86400);
    await drainJourneys(deps());
    const reminded = (await sendsOf(journey.id)).filter((s) => s.subject === 'Still thinking it over?');
    expect(reminded.map((s) => Number(s.customer_id))).toEqual([proxied]);
    expect((await path(journey.id, clicker)).runs[0]!.steps.map((s) => [s.node_id, s.outcome])).toEqual([
      ['start', null],
      ['offer', null],
      ['wait', 'event'],
      ['read', null],
    ]);
  });
});

describe('a wait until the mail arrives or bounces', () => {
  it('a bounce (email.bounced) ends its wait, told once however often reported; a mail that arrived waits out its timeout', async () => {
    const journey = await create({
      name: 'Offer, then ask for a phone number if it bounced',
      graph: {
        nodes: [
          onEvent('offer.sent'),
          send('offer', welcome),
          {
            id: 'wait',
            type: 'wait',
            config: { kind: 'until_event', event: 'email.bounced', timeout_seconds: 86400 },
          },
          { id: 'bounced', type: 'exit', config: {} },
          { id: 'fine', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'offer' },
          { from: 'offer', to: 'wait' },
          { from: 'wait', to: 'bounced', label: 'event' },
          { from: 'wait', to: 'fine', label: 'timeout' },
        ],
      },
    });
    await publish(journey.id);
    const gone = await customer('Gone', 'gone@example.test');
    const here = await customer('Here', 'here@example.test');
    for (const id of [gone, here]) await postEvent({ name: 'offer.sent', customer: { id } });
    await drainJourneys(deps());
    const offers = await sendsOf(journey.id);
    const offerOf = (id: number) => offers.find((o) => Number(o.customer_id) === id)!.id;
    later(60);
    // The reports arrive now on the test's clock (Titan stamps the events when it hears them).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    try {
      for (const type of ['sent', 'delivered']) {
        await recordSendEvent(rt.database.db, { sendId: offerOf(here), type, occurredAt: now });
      }
      for (let i = 0; i < 2; i++) {
        await recordSendEvent(rt.database.db, { sendId: offerOf(gone), type: 'bounced', occurredAt: now });
      }
    } finally {
      vi.useRealTimers();
    }
    await drainJourneys(deps());
    const events = await rt.database.query<{ customer_id: string; name: string }>(
      `select customer_id, name from customer_events where business_id = $1 and name like 'email.%'
         and customer_id = any($2::bigint[]) order by name, customer_id`,
      [business.id, [gone, here]],
    );
    // Only what a journey listens for is kept: nobody here waits for email.delivered.
    expect(events.map((e) => [e.name, Number(e.customer_id)])).toEqual([['email.bounced', gone]]);
    expect((await stats(journey.id)).nodes).toMatchObject({
      wait: { entered: 2, waiting: 1, passed: 1 },
      bounced: { entered: 1, exited: 1 },
    });
    later(86400);
    await drainJourneys(deps());
    expect((await stats(journey.id)).nodes).toMatchObject({ fine: { entered: 1, exited: 1 } });
  });
});

describe('a wait until a time of day', () => {
  it("sends at 9:00 on the customer's own clock (their stored zone)", async () => {
    const journey = await create({
      name: 'Morning',
      graph: {
        nodes: [
          onEvent('asked.morning'),
          { id: 'nine', type: 'wait', config: { kind: 'until_time', local_time: '09:00' } },
          send('mail', welcome),
        ],
        edges: [
          { from: 'start', to: 'nine' },
          { from: 'nine', to: 'mail' },
        ],
      },
    });
    await publish(journey.id);
    const ny = await customer('New Yorker', 'newyorker@example.test');
    await rt.database.query(
      `update customers set fields = '{"timezone": "America/New_York"}' where id = $1`,
      [ny],
    );
    now = new Date('2026-12-10T10:00:00Z'); // 05:00 in New York
    await postEvent({ name: 'asked.morning', customer: { id: ny } });
    await drainJourneys(deps());
    const waiting = (await path(journey.id, ny)).runs[0]!.steps[1]!;
    expect(waiting).toMatchObject({ node_id: 'nine', status: 'waiting', due_at: '2026-12-10T14:00:00.000Z' });
    now = new Date('2026-12-10T13:59:59Z');
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    now = new Date('2026-12-10T14:00:00Z');
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((s) => Number(s.customer_id))).toEqual([ny]);
  });
});

describe('a kill around a send', () => {
  async function sendJourney(event: string) {
    const journey = await create({
      name: `Kill ${event}`,
      graph: { nodes: [onEvent(event), send('hello', welcome)], edges: [{ from: 'start', to: 'hello' }] },
    });
    await publish(journey.id);
    return journey;
  }

  it('killed after the send is recorded, before it is handed on: the recovery sends it once', async () => {
    const journey = await sendJourney('kill.after');
    const dee = await customer('Dee', 'dee@example.test');
    await postEvent({ name: 'kill.after', customer: { id: dee } });
    const dying = deps({
      ports: {
        ...rt.services.journeys.ports,
        dispatchSends: () => Promise.reject(new Error('killed')),
      },
    });
    await expect(drainJourneys(dying)).rejects.toThrow('killed');
    later(120);
    await drainJourneys(deps());
    const sent = await sendsOf(journey.id);
    expect(sent.map((s) => s.status)).toEqual(['queued']);
    const handed: string[] = [];
    const enqueue = async (s: { id: string }) => void handed.push(s.id);
    await recoverSends(rt.database.db, enqueue, { now: new Date(Date.now() + 5 * 60_000) });
    expect(handed.filter((id) => id === sent[0]!.id)).toHaveLength(1);
    expect(await sendsOf(journey.id)).toHaveLength(1);
  });

  it('killed inside the step before its commit: the step is taken again after its lease and sends once', async () => {
    const journey = await sendJourney('kill.before');
    const eve = await customer('Eve', 'eve@example.test');
    await postEvent({ name: 'kill.before', customer: { id: eve } });
    const real = rt.services.journeys.ports;
    const dying = deps({
      ports: {
        ...real,
        recordSend: async (tx, input) => {
          await real.recordSend(tx, input);
          throw new Error('killed');
        },
      },
    });
    await runJourneyPass(dying); // hears the event
    await runJourneyPass(dying); // runs the send step, which dies before committing
    expect(await sendsOf(journey.id)).toEqual([]);
    // Held by the dead worker's lease until it runs out.
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    later(61);
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((s) => Number(s.customer_id))).toEqual([eve]);
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toHaveLength(1);
  });
});

describe('a step that keeps failing for a reason Titan cannot explain', () => {
  it('is taken again after each lease, then fails for good naming the error, and the run ends', async () => {
    const journey = await create({
      name: 'Broken key',
      graph: {
        nodes: [onEvent('broken.key'), send('hello', welcome)],
        edges: [{ from: 'start', to: 'hello' }],
      },
    });
    await publish(journey.id);
    const fay = await customer('Fay', 'fay@example.test');
    await postEvent({ name: 'broken.key', customer: { id: fay } });
    let tries = 0;
    const broken = deps({
      ports: {
        ...rt.services.journeys.ports,
        recordSend: () => {
          tries++;
          return Promise.reject(new Error('Unsupported state or unable to authenticate data'));
        },
      },
    });
    await drainJourneys(broken);
    for (let i = 1; i < STEP_ATTEMPTS; i++) {
      // Still open, with no reason yet: it waits for its lease to run out.
      const open = await path(journey.id, fay);
      expect(open.runs[0]!.status).toBe('active');
      expect(open.runs[0]!.steps[1]).toMatchObject({ node_id: 'hello', status: 'pending' });
      later(61);
      await drainJourneys(broken);
    }
    expect(tries).toBe(STEP_ATTEMPTS);
    const p = await path(journey.id, fay);
    expect(p.runs[0]!.steps[1]).toMatchObject({
      node_id: 'hello',
      status: 'failed',
      reason: `Titan could not run this step (${STEP_ATTEMPTS} attempts): Unsupported state or unable to authenticate data`,
    });
    expect(p.runs[0]!.status).toBe('failed');
    // Taken no more.
    later(61);
    await drainJourneys(broken);
    expect(tries).toBe(STEP_ATTEMPTS);
    expect(await sendsOf(journey.id)).toEqual([]);
  });
});

describe("Titan's own facts", () => {
  it('a message from the widget starts a journey; a branch reads the event and the customer; an update step labels and lists', async () => {
    const group = await api('POST', '/api/msg/chat-groups/', { name: 'Front desk', slug: 'front-desk' });
    expect(group.statusCode, group.body).toBe(201);
    const label = (await api('POST', '/api/msg/labels/', { name: 'Wrote in', color: '#22c55e' })).json()
      .result.id as number;
    const list = (await api('POST', '/api/business/customer-lists/', { name: 'Writers' })).json().result
      .id as number;
    const journey = await create({
      name: 'Wrote in',
      graph: {
        nodes: [
          onEvent('message.received'),
          {
            id: 'web',
            type: 'branch',
            config: {
              kind: 'condition',
              rules: [
                { field: 'event.properties.channel', op: 'eq', value: 'titan_message' },
                { field: 'customer.fields.plan', op: 'eq', value: 'pro' },
              ],
            },
          },
          {
            id: 'tag',
            type: 'update',
            config: { add_label_ids: [label], add_list_ids: [list], fields: { wrote: true } },
          },
          { id: 'other', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'web' },
          { from: 'web', to: 'tag', label: 'yes' },
          { from: 'web', to: 'other', label: 'no' },
        ],
      },
    });
    await publish(journey.id);
    const visitor = async (name: string, plan: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: {
          business_code: business.unique_code,
          group_slug: 'front-desk',
          name,
          email: `${name.toLowerCase()}@example.test`,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { customer, token } = res.json().result;
      await rt.database.query(`update customers set fields = $2::jsonb where id = $1`, [
        customer.id,
        JSON.stringify({ plan }),
      ]);
      const headers = { authorization: `Visitor ${token}` };
      const started = await app.inject({
        method: 'POST',
        url: '/api/public/conversations/',
        headers,
        payload: { group_slug: 'front-desk', title: 'Question' },
      });
      const said = await app.inject({
        method: 'POST',
        url: `/api/public/conversations/${started.json().result.id}/messages/`,
        headers,
        payload: { message_type: 'text', content: 'Hello there' },
      });
      expect(said.statusCode, said.body).toBe(201);
      return customer.id as number;
    };
    const pro = await visitor('Prue', 'pro');
    const free = await visitor('Fred', 'free');
    await drainJourneys(deps());
    expect((await path(journey.id, pro)).runs[0]!.steps.map((s) => [s.node_id, s.outcome, s.status])).toEqual(
      [
        ['start', null, 'passed'],
        ['web', 'yes', 'passed'],
        ['tag', null, 'passed'],
      ],
    );
    expect((await path(journey.id, free)).runs[0]!.steps.map((s) => [s.node_id, s.outcome])).toEqual([
      ['start', null],
      ['web', 'no'],
      ['other', null],
    ]);
    const seen = (await api('GET', `/api/business/customer-directory/${pro}/`)).json().result;
    expect(seen.fields).toMatchObject({ plan: 'pro', wrote: true });
    expect(seen.labels.map((l: { id: number }) => l.id)).toEqual([label]);
    const members = (await api('GET', `/api/business/customer-lists/${list}/members/`)).json().result.results;
    expect(members.map((m: { id: number }) => m.id)).toEqual([pro]);
  });
});

describe('a resolved conversation', () => {
  it('starts a journey for its customer once, when staff resolve it (not when it is resolved again)', async () => {
    const journey = await create({
      name: 'How did we do?',
      graph: {
        nodes: [onEvent('conversation.resolved'), { id: 'asked', type: 'exit', config: {} }],
        edges: [{ from: 'start', to: 'asked' }],
      },
    });
    await publish(journey.id);
    const started = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: {
        business_code: business.unique_code,
        group_slug: 'front-desk',
        name: 'Rosa',
        email: 'rosa@example.test',
      },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { customer: rosa, token } = started.json().result;
    const conversation = await app.inject({
      method: 'POST',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
      payload: { group_slug: 'front-desk', title: 'A question' },
    });
    expect(conversation.statusCode, conversation.body).toBe(201);
    const id = conversation.json().result.id as number;
    for (let i = 0; i < 2; i++) {
      const res = await api('PUT', `/api/msg/conversations/${id}/`, { status: 'resolved' });
      expect(res.statusCode, res.body).toBe(200);
    }
    await drainJourneys(deps());
    const p = await path(journey.id, rosa.id);
    expect(p.runs.map((r) => r.steps.map((s) => s.node_id))).toEqual([['start', 'asked']]);
  });
});

describe('versions', () => {
  it('a new version of a live journey takes new customers; those in flight finish on theirs', async () => {
    const journey = await create({
      name: 'Versions',
      graph: {
        nodes: [
          onEvent('joined.club'),
          { id: 'pause', type: 'wait', config: { kind: 'duration', seconds: 3600 } },
          send('mail', welcome),
        ],
        edges: [
          { from: 'start', to: 'pause' },
          { from: 'pause', to: 'mail' },
        ],
      },
    });
    await publish(journey.id);
    const early = await customer('Early bird', 'earlybird@example.test');
    await postEvent({ name: 'joined.club', customer: { id: early } });
    await drainJourneys(deps());
    const res = await api('PUT', `/api/journeys/${journey.id}/`, {
      name: 'Versions',
      graph: {
        nodes: [onEvent('joined.club'), send('mail', reminder)],
        edges: [{ from: 'start', to: 'mail' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ version: 2, live_version: 2, status: 'live' });
    const late = await customer('Late comer', 'latecomer@example.test');
    await postEvent({ name: 'joined.club', customer: { id: late } });
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((s) => [Number(s.customer_id), s.subject])).toEqual([
      [late, 'Still thinking it over?'],
    ]);
    later(3600);
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((s) => [Number(s.customer_id), s.subject])).toEqual([
      [late, 'Still thinking it over?'],
      [early, 'Welcome aboard'],
    ]);
    expect((await path(journey.id, early)).runs.map((r) => [r.version, r.status])).toEqual([[1, 'exited']]);
    expect((await path(journey.id, late)).runs.map((r) => [r.version, r.status])).toEqual([[2, 'exited']]);
    // A draft edit of a paused journey does not change what runs until it is published.
    expect((await api('POST', `/api/journeys/${journey.id}/pause/`)).json().result.status).toBe('paused');
    expect((await api('POST', `/api/journeys/${journey.id}/pause/`)).statusCode).toBe(409);
  });
});

describe('workers at once, and pause', () => {
  it('four passes at once send each customer once (skip locked claims)', async () => {
    const journey = await create({
      name: 'Crowd',
      graph: { nodes: [onEvent('crowd'), send('hello', welcome)], edges: [{ from: 'start', to: 'hello' }] },
    });
    await publish(journey.id);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await customer(`Crowd ${i}`, `crowd${i}@example.test`));
    for (const id of ids) await postEvent({ name: 'crowd', customer: { id } });
    const d = deps({ batchSize: 3 });
    for (let round = 0; round < 10; round++)
      await Promise.all([runJourneyPass(d), runJourneyPass(d), runJourneyPass(d), runJourneyPass(d)]);
    await drainJourneys(d);
    const sent = (await sendsOf(journey.id)).map((x) => Number(x.customer_id)).sort((a, b) => a - b);
    expect(sent).toEqual(ids);
  });

  it('a paused journey takes nobody in and moves nobody on until published again', async () => {
    const journey = await create({
      name: 'Held',
      graph: {
        nodes: [
          onEvent('held'),
          { id: 'wait', type: 'wait', config: { kind: 'duration', seconds: 60 } },
          send('mail', welcome),
        ],
        edges: [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'mail' },
        ],
      },
    });
    await publish(journey.id);
    const inside = await customer('Inside', 'inside@example.test');
    await postEvent({ name: 'held', customer: { id: inside } });
    await drainJourneys(deps());
    await api('POST', `/api/journeys/${journey.id}/pause/`);
    const outside = await customer('Outside', 'outside@example.test');
    await postEvent({ name: 'held', customer: { id: outside } });
    later(120);
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    expect((await path(journey.id, outside)).runs).toEqual([]);
    expect((await publish(journey.id)).status).toBe('live');
    await drainJourneys(deps());
    expect((await sendsOf(journey.id)).map((x) => Number(x.customer_id))).toEqual([inside]);
  });
});

describe('tenancy', () => {
  it("another business's events never start this business's journeys, and its ids are not found", async () => {
    const journey = await create({
      name: 'Ours',
      graph: {
        nodes: [onEvent('shared.name'), send('hello', welcome)],
        edges: [{ from: 'start', to: 'hello' }],
      },
    });
    await publish(journey.id);
    const theirs = await customer('Theirs', 'theirs@example.test', other.business);
    const res = await postEvent(
      { name: 'shared.name', customer: { id: theirs } },
      other.business,
      other.owner,
    );
    expect(res.statusCode, res.body).toBe(202);
    // The same address in both businesses: their event names their customer only.
    await customer('Ours twin', 'theirs@example.test');
    await postEvent(
      { name: 'shared.name', customer: { email: 'theirs@example.test' } },
      other.business,
      other.owner,
    );
    await drainJourneys(deps());
    expect(await sendsOf(journey.id)).toEqual([]);
    expect((await stats(journey.id)).customers).toEqual({ active: 0, exited: 0, failed: 0 });
    // Our customer named from their business: not found.
    const ours = await customer('Ours', 'ours@example.test');
    const foreign = await postEvent(
      { name: 'shared.name', customer: { id: ours } },
      other.business,
      other.owner,
    );
    expect(foreign.statusCode).toBe(404);
    expect(
      (await api('GET', `/api/journeys/${journey.id}/`, undefined, other.business, other.owner)).statusCode,
    ).toBe(404);
    expect((await api('GET', `/api/journeys/${journey.id}/customers/${theirs}/`)).statusCode).toBe(404);
  });
});

describe('validation', () => {
  const base = (nodes: unknown[], edges: unknown[]) => ({ name: 'Bad', graph: { nodes, edges } });

  it('answers 400 with the dotted path of the bad field', async () => {
    const cases: [unknown, string][] = [
      [
        base(
          [onEvent('x'), { id: 'w', type: 'wait', config: { kind: 'duration', seconds: 0 } }],
          [{ from: 'start', to: 'w' }],
        ),
        'graph.nodes.1.config.seconds',
      ],
      [
        base(
          [
            onEvent('x'),
            {
              id: 'b',
              type: 'branch',
              config: {
                kind: 'condition',
                rules: [{ field: 'event.properties.plan', op: 'eq', value: 'pro' }],
              },
            },
            { id: 'e', type: 'exit', config: {} },
          ],
          [
            { from: 'start', to: 'b' },
            { from: 'b', to: 'e', label: 'maybe' },
          ],
        ),
        'graph.edges.1.label',
      ],
      [
        base([onEvent('x'), { id: 'e', type: 'exit', config: {} }], [{ from: 'start', to: 'nowhere' }]),
        'graph.edges.0.to',
      ],
      [base([onEvent('x'), { id: 'e', type: 'exit', config: {} }], []), 'graph.nodes.1.id'],
      [base([{ id: 'e', type: 'exit', config: {} }], []), 'graph.nodes'],
      [
        base(
          [onEvent('x'), { id: 's', type: 'send', config: { channel: 'email', template_id: welcome } }],
          [{ from: 'start', to: 's' }],
        ),
        'graph.nodes.1.config.from',
      ],
      [
        base(
          [
            onEvent('x'),
            { id: 'b', type: 'branch', config: { kind: 'condition', rules: [{ field: 'plan', op: 'eq' }] } },
          ],
          [{ from: 'start', to: 'b' }],
        ),
        'graph.nodes.1.config.rules.0.field',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await api('POST', '/api/journeys/', body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().result), res.body).toContain(field);
    }
  });

  it("refuses another business's template and list with 404 on the field", async () => {
    const theirTemplate = await template('Theirs', 'Theirs', other.business, other.owner);
    const res = await api(
      'POST',
      '/api/journeys/',
      base([onEvent('x'), send('s', theirTemplate)], [{ from: 'start', to: 's' }]),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().result).toHaveProperty(['graph.nodes.1.config.template_id']);
    const list = await api(
      'POST',
      '/api/business/customer-lists/',
      { name: 'Theirs' },
      other.business,
      other.owner,
    );
    const upd = await api(
      'POST',
      '/api/journeys/',
      base(
        [onEvent('x'), { id: 'u', type: 'update', config: { add_list_ids: [list.json().result.id] } }],
        [{ from: 'start', to: 'u' }],
      ),
    );
    expect(upd.statusCode).toBe(404);
    expect(upd.json().result).toHaveProperty(['graph.nodes.1.config.add_list_ids.0']);
  });

  it('refuses a posted event under one of Titan’s own names or naming no customer', async () => {
    const a = await postEvent({ name: 'list.joined', customer: { id: 1 } });
    expect(a.statusCode).toBe(400);
    expect(a.json().result).toHaveProperty('name');
    const b = await postEvent({ name: 'ok', customer: {} });
    expect(b.statusCode).toBe(400);
    expect(b.json().result).toHaveProperty('customer');
  });
});

describe('journey.* webhook events', () => {
  it('records journey.entered, journey.step_completed and journey.exited with the change, only for a business that listens', async () => {
    const RANK = { 'journey.entered': 0, 'journey.step_completed': 1, 'journey.exited': 2 } as const;
    const hooked = async (journeyId: number) =>
      (
        await rt.database.query<{
          business_id: string;
          type: keyof typeof RANK;
          payload: { type: string; data: Record<string, unknown> };
          created_at: Date;
        }>(
          `select business_id, type, payload, created_at from webhook_events
            where type like 'journey.%' and (payload -> 'data' ->> 'journey_id')::bigint = $1`,
          [journeyId],
        )
      )
        .sort((a, b) => +a.created_at - +b.created_at || RANK[a.type] - RANK[b.type])
        .map((e) => ({ business: Number(e.business_id), type: e.type, data: e.payload.data }));
    const graph = {
      nodes: [
        onEvent('hooked'),
        {
          id: 'pro',
          type: 'branch',
          config: { kind: 'condition', rules: [{ field: 'event.properties.plan', op: 'eq', value: 'pro' }] },
        },
        { id: 'mark', type: 'update', config: { fields: { tier: 'pro' } } },
        { id: 'done', type: 'exit', config: {} },
      ],
      edges: [
        { from: 'start', to: 'pro' },
        { from: 'pro', to: 'mark', label: 'yes' },
        { from: 'mark', to: 'done' },
      ],
    };
    const journey = await create({ name: 'Hooked', graph });
    await publish(journey.id);
    const theirs = await create({ name: 'Theirs hooked', graph }, other.business, other.owner);
    await publish(theirs.id, other.business, other.owner);

    // Nobody listens yet: a customer going through builds no event.
    const quiet = await customer('Quiet', 'quiet@example.test');
    expect(
      (await postEvent({ name: 'hooked', customer: { id: quiet }, properties: { plan: 'pro' } })).statusCode,
    ).toBe(202);
    await drainJourneys(deps());
    expect((await path(journey.id, quiet)).runs[0]!.status).toBe('exited');
    expect(await hooked(journey.id)).toEqual([]);

    const hook = await api('POST', '/api/webhooks/endpoints/', {
      url: 'https://hooks.example.com/journeys',
      event_types: ['journey.entered', 'journey.step_completed', 'journey.exited'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const pro = await customer('Pro', 'pro@example.test');
    const free = await customer('Free', 'free@example.test');
    await postEvent({ name: 'hooked', customer: { id: pro }, properties: { plan: 'pro' } });
    await postEvent({ name: 'hooked', customer: { id: free }, properties: { plan: 'free' } });
    const otherCustomer = await customer('Elsewhere', 'elsewhere@example.test', other.business);
    await postEvent(
      { name: 'hooked', customer: { id: otherCustomer }, properties: { plan: 'pro' } },
      other.business,
      other.owner,
    );
    await drainJourneys(deps());

    const runOf = async (c: number) => (await path(journey.id, c)).runs[0]!.id;
    const [proRun, freeRun] = [await runOf(pro), await runOf(free)];
    const events = await hooked(journey.id);
    expect(events.every((e) => e.business === business.id)).toBe(true);
    const base = (customerId: number, runId: number) => ({
      journey_id: journey.id,
      version: 1,
      run_id: runId,
      customer_id: customerId,
    });
    expect(events.filter((e) => e.data.customer_id === pro)).toEqual([
      {
        business: business.id,
        type: 'journey.entered',
        data: { ...base(pro, proRun), trigger_event: 'hooked', trigger_event_id: expect.any(Number) },
      },
      {
        business: business.id,
        type: 'journey.step_completed',
        data: {
          ...base(pro, proRun),
          node_id: 'pro',
          node_type: 'branch',
          status: 'passed',
          outcome: 'yes',
          send_id: null,
          reason: null,
        },
      },
      {
        business: business.id,
        type: 'journey.step_completed',
        data: {
          ...base(pro, proRun),
          node_id: 'mark',
          node_type: 'update',
          status: 'passed',
          outcome: null,
          send_id: null,
          reason: null,
        },
      },
      {
        business: business.id,
        type: 'journey.exited',
        data: { ...base(pro, proRun), status: 'exited', node_id: 'done' },
      },
    ]);
    // "no" leads nowhere: the customer leaves after the branch, at no exit step.
    expect(
      events.filter((e) => e.data.customer_id === free).map((e) => [e.type, e.data.outcome ?? e.data.status]),
    ).toEqual([
      ['journey.entered', undefined],
      ['journey.step_completed', 'no'],
      ['journey.exited', 'exited'],
    ]);
    expect(events.find((e) => e.data.customer_id === free && e.type === 'journey.exited')!.data).toEqual({
      ...base(free, freeRun),
      status: 'exited',
      node_id: null,
    });
    // The other business has journeys running too, and no endpoint: nothing built for it.
    const theirPath = await api(
      'GET',
      `/api/journeys/${theirs.id}/customers/${otherCustomer}/`,
      undefined,
      other.business,
      other.owner,
    );
    expect(theirPath.json().result.runs[0].status).toBe('exited');
    expect(await hooked(theirs.id)).toEqual([]);
  });
});
