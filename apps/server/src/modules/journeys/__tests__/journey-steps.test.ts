// Steps and triggers beyond events and sends, with a clock the test moves: a webhook step POSTs
// the customer, the journey and its trigger event to a real local server through the one SSRF gate
// (a refused or failing call is said why and the customer goes on; the gate refuses at save time and
// again at call time); a conversation step opens a conversation for the customer (or takes their
// open one) and assigns it; another business's chat group or member is not found. A date trigger
// (a birthday at 9:00 on the customer's own clock, once a year), a segment trigger (entering,
// leaving and coming back), test mode (a draft with a fast clock, outside the counts) and a goal's
// conversion.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MCP_ERRORS, type TBusiness, type TJourney, type TJourneyCustomerPath } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { journeyPorts } from '../../../journey-ports';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys } from '../journeys.engine';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let hooks: Server;
let hookUrl = '';
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let now = new Date('2026-12-01T10:00:00Z');

function deps(over: Partial<JourneyDeps> = {}): JourneyDeps {
  return { ...rt.services.journeys, clock: () => now, wake: () => undefined, ...over };
}

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, b = business, s = owner) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

async function customer(name: string, email: string, b = business): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, email, email_status, fields)
       values ($1, $2, $3, 'subscribed', '{"plan": "pro"}') returning id`,
    [b.id, name, email],
  );
  return Number(row!.id);
}

const onEvent = (event: string) => ({ id: 'start', type: 'trigger', config: { kind: 'event', event } });
const exit = { id: 'done', type: 'exit', config: {} };
const line = (step: Record<string, unknown>) => ({
  nodes: [onEvent(`e.${String(step.id)}`), step, exit],
  edges: [
    { from: 'start', to: step.id as string },
    { from: step.id as string, to: 'done' },
  ],
});

async function live(body: Record<string, unknown>): Promise<TJourney> {
  const res = await api('POST', '/api/journeys/', body);
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json().result as TJourney).id;
  const published = await api('POST', `/api/journeys/${id}/publish/`);
  expect(published.statusCode, published.body).toBe(200);
  return published.json().result as TJourney;
}

async function post(name: string, customerId: number, properties: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/events/', { name, customer: { id: customerId }, properties });
  expect(res.statusCode, res.body).toBe(202);
}

async function path(id: number, customerId: number): Promise<TJourneyCustomerPath> {
  const res = await api('GET', `/api/journeys/${id}/customers/${customerId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyCustomerPath;
}

beforeAll(async () => {
  hooks = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = req.url === '/fail' ? 503 : 200;
      res.end(req.url === '/fail' ? 'down for maintenance' : 'ok');
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
  // The routes' engine reads the test's clock too (test mode starts its runs at the route).
  rt.services.journeys.clock = () => now;
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Steps Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Steps') };
});
afterAll(async () => {
  await rt?.destroy();
  await new Promise((r) => hooks?.close(r));
});

describe('a webhook step', () => {
  it('POSTs the customer, the journey and the trigger event once, with the step as idempotency key', async () => {
    const journey = await live({
      name: 'Tell the shop',
      graph: line({ id: 'hook', type: 'webhook', config: { url: `${hookUrl}/ok` } }),
    });
    const ada = await customer('Ada', 'ada@example.test');
    await post('e.hook', ada, { order: 'A-17', total: 42 });
    await drainJourneys(deps());
    const calls = received.filter((r) => r.path === '/ok');
    expect(calls).toHaveLength(1);
    const run = (await path(journey.id, ada)).runs[0]!;
    expect(calls[0]!.headers['content-type']).toBe('application/json');
    expect(calls[0]!.headers['idempotency-key']).toBe(`journey:${run.id}:hook:1`);
    expect(JSON.parse(calls[0]!.body)).toMatchObject({
      type: 'journey.webhook',
      timestamp: now.toISOString(),
      data: {
        journey_id: journey.id,
        version: 1,
        run_id: run.id,
        node_id: 'hook',
        customer: { id: ada, name: 'Ada', email: 'ada@example.test', fields: { plan: 'pro' } },
        event: { name: 'e.hook', properties: { order: 'A-17', total: 42 } },
      },
    });
    expect(run.status).toBe('exited');
    expect(run.steps.map((s) => [s.node_id, s.status, s.reason])).toEqual([
      ['start', 'passed', null],
      ['hook', 'passed', null],
      ['done', 'exited', null],
    ]);
    // Drained again: nothing is called twice.
    await drainJourneys(deps());
    expect(received.filter((r) => r.path === '/ok')).toHaveLength(1);
  });

  it('a call answered with an error fails the step with the reason; the customer goes on', async () => {
    const journey = await live({
      name: 'Tell a broken shop',
      graph: line({ id: 'hook2', type: 'webhook', config: { url: `${hookUrl}/fail` } }),
    });
    const bo = await customer('Bo', 'bo@example.test');
    await post('e.hook2', bo);
    await drainJourneys(deps());
    expect(received.filter((r) => r.path === '/fail')).toHaveLength(1);
    const run = (await path(journey.id, bo)).runs[0]!;
    expect(run.steps.map((s) => [s.node_id, s.status, s.reason])).toEqual([
      ['start', 'passed', null],
      ['hook2', 'failed', 'The webhook answered 503.'],
      ['done', 'exited', null],
    ]);
    const stats = await api('GET', `/api/journeys/${journey.id}/stats/`);
    expect(stats.json().result.nodes.hook2).toEqual({
      entered: 1,
      waiting: 0,
      passed: 0,
      exited: 0,
      failed: 1,
    });
  });

  it('the SSRF gate refuses at save time (400 on the url) and again at call time', async () => {
    for (const url of ['http://hooks.example.test/x', 'https://titan.example.com/api/events/', 'not a url']) {
      const res = await api('POST', '/api/journeys/', {
        name: 'Refused',
        graph: line({ id: 'h', type: 'webhook', config: { url } }),
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().result)).toEqual(['graph.nodes.1.config.url']);
    }
    // Saved where Titan listens only on this machine (no address check), then run by a guarded
    // worker: the name now resolves to a private address, and the call is refused before it leaves.
    const journey = await live({
      name: 'Rebound',
      graph: line({ id: 'h3', type: 'webhook', config: { url: 'https://hooks.example.test/x' } }),
    });
    const guarded = journeyPorts({
      ...rt.services,
      webhooks: {
        outbound: {
          guarded: true,
          publicUrl: 'https://titan.example.com',
          resolveHost: async () => ['10.0.0.5'],
        },
      },
    });
    const cy = await customer('Cy', 'cy@example.test');
    await post('e.h3', cy);
    await drainJourneys(deps({ ports: guarded }));
    const run = (await path(journey.id, cy)).runs[0]!;
    expect(run.steps[1]).toMatchObject({
      node_id: 'h3',
      status: 'failed',
      reason: MCP_ERRORS.privateAddress,
    });
    expect(run.status).toBe('exited');
  });
});

describe('a conversation step', () => {
  it('opens a conversation for the customer in the chosen group, assigned; a second pass takes the open one', async () => {
    const group = await api('POST', '/api/msg/chat-groups/', { name: 'Sales', slug: 'sales' });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json().result.id as number;
    const journey = await live({
      name: 'Call me back',
      reentry: 'always',
      graph: line({
        id: 'talk',
        type: 'conversation',
        config: { chat_group_id: groupId, assignee_id: owner.user.pk },
      }),
    });
    const dee = await customer('Dee', 'dee@example.test');
    await post('e.talk', dee);
    await drainJourneys(deps());
    const conversations = () =>
      rt.database.query<{
        id: string;
        channel: string;
        assignee_id: string | null;
        assigned_chat_group_id: string | null;
        title: string;
        status: string;
      }>(
        `select id, channel, assignee_id, assigned_chat_group_id, title, status
           from conversations where initiator_id = $1 order by id`,
        [dee],
      );
    const [opened, ...more] = await conversations();
    expect(more).toEqual([]);
    expect(opened).toMatchObject({
      channel: 'titan_message',
      status: 'active',
      title: `Journey ${journey.id}: e.talk`,
    });
    expect(Number(opened!.assignee_id)).toBe(owner.user.pk);
    expect(Number(opened!.assigned_chat_group_id)).toBe(groupId);
    // Staff see it in the inbox, assigned to them.
    const seen = await api('GET', `/api/msg/conversations/${opened!.id}/`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().result).toMatchObject({ id: Number(opened!.id) });
    expect((await path(journey.id, dee)).runs[0]!.steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['talk', 'passed'],
      ['done', 'exited'],
    ]);
    // Unassigned by staff, then the journey again: the open conversation is taken and assigned.
    await rt.database.query(`update conversations set assignee_id = null where id = $1`, [opened!.id]);
    await post('e.talk', dee);
    await drainJourneys(deps());
    const after = await conversations();
    expect(after.map((c) => c.id)).toEqual([opened!.id]);
    expect(Number(after[0]!.assignee_id)).toBe(owner.user.pk);
    expect((await path(journey.id, dee)).runs).toHaveLength(2);
  });

  it("refuses another business's chat group and member with 404 on the field", async () => {
    const theirs = await api(
      'POST',
      '/api/msg/chat-groups/',
      { name: 'Theirs', slug: 'theirs' },
      other.business,
      other.owner,
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const res = await api('POST', '/api/journeys/', {
      name: 'Not ours',
      graph: line({
        id: 'c',
        type: 'conversation',
        config: { chat_group_id: theirs.json().result.id, assignee_id: other.owner.user.pk },
      }),
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(Object.keys(res.json().result).sort()).toEqual([
      'graph.nodes.1.config.assignee_id',
      'graph.nodes.1.config.chat_group_id',
    ]);
  });
});

describe('a date trigger', () => {
  async function withBirthday(name: string, birthday: string, zone: string, b = business): Promise<number> {
    const [row] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, name, email, email_status, fields)
         values ($1, $2, $3, 'subscribed', $4::jsonb) returning id`,
      [b.id, name, `${name.toLowerCase()}@example.test`, JSON.stringify({ birthday, timezone: zone })],
    );
    return Number(row!.id);
  }
  const runsOf = async (journeyId: number, customerId: number) =>
    (await path(journeyId, customerId)).runs.map((r) => r.entered_at);

  it('enters each customer at 9:00 on their own clock on their birthday, once a year (re-entry after exit)', async () => {
    const journey = await live({
      name: 'Happy birthday',
      reentry: 'after_exit',
      graph: {
        nodes: [
          {
            id: 'start',
            type: 'trigger',
            config: { kind: 'date', field: 'customer.fields.birthday', local_time: '09:00' },
          },
          { id: 'tag', type: 'update', config: { fields: { greeted: 'yes' } } },
        ],
        edges: [{ from: 'start', to: 'tag' }],
      },
    });
    const berlin = await withBirthday('Berta', '1990-12-02', 'Europe/Berlin');
    const york = await withBirthday('Yorick', '1985-12-02', 'America/New_York');
    const tomorrow = await withBirthday('Tomas', '1990-12-03', 'Europe/Berlin');
    const leapling = await withBirthday('Leah', '2000-02-29', 'Europe/Berlin');
    const theirs = await withBirthday('Otto', '1990-12-02', 'Europe/Berlin', other.business);
    // 08:59 in Berlin: nobody yet.
    now = new Date('2026-12-02T07:59:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, berlin)).toEqual([]);
    // 09:00 in Berlin (03:00 in New York): Berta enters, Yorick does not yet.
    now = new Date('2026-12-02T08:00:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, berlin)).toEqual([now.toISOString()]);
    expect(await runsOf(journey.id, york)).toEqual([]);
    // Later the same day, scanned again: still once.
    now = new Date('2026-12-02T13:00:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, berlin)).toHaveLength(1);
    expect(await runsOf(journey.id, york)).toEqual([]);
    // 09:00 in New York.
    now = new Date('2026-12-02T14:00:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, york)).toEqual([now.toISOString()]);
    expect(await runsOf(journey.id, berlin)).toHaveLength(1);
    expect(await runsOf(journey.id, tomorrow)).toEqual([]);
    const p = await path(journey.id, berlin);
    expect(p.runs[0]!.steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['tag', 'passed'],
    ]);
    const [greeted] = await rt.database.query<{ fields: Record<string, unknown> }>(
      'select fields from customers where id = $1',
      [berlin],
    );
    expect(greeted!.fields.greeted).toBe('yes');
    // The day after, Tomas's turn (in Berlin: 09:00 is 08:00 UTC).
    now = new Date('2026-12-03T08:00:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, tomorrow)).toHaveLength(1);
    // 28 February of a year without a 29th: Leah's birthday.
    now = new Date('2027-02-28T08:00:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, leapling)).toHaveLength(1);
    // A year on: Berta again (her first pass ended).
    now = new Date('2027-12-02T08:00:00Z');
    await drainJourneys(deps());
    expect(await runsOf(journey.id, berlin)).toHaveLength(2);
    // Another business's customer with the same birthday never entered this journey.
    const foreign = await api('GET', `/api/journeys/${journey.id}/customers/${theirs}/`);
    expect(foreign.statusCode).toBe(404);
    const [{ n }] = (await rt.database.query<{ n: number }>(
      'select count(*)::int as n from journey_runs where customer_id = $1',
      [theirs],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('answers 400 on a date field that is not a custom field key; a posted event may not take a journey. name', async () => {
    const res = await api('POST', '/api/journeys/', {
      name: 'Bad date',
      graph: {
        nodes: [
          {
            id: 'start',
            type: 'trigger',
            config: { kind: 'date', field: 'customer.fields.{x}', local_time: '09:00' },
          },
        ],
        edges: [],
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().result)).toEqual(['graph.nodes.0.config.field']);
    const ada = await customer('Ada2', 'ada2@example.test');
    const posted = await api('POST', '/api/events/', { name: 'journey.date:1', customer: { id: ada } });
    expect(posted.statusCode).toBe(400);
    expect(posted.json().result).toHaveProperty('name');
  });
});

describe('test mode', () => {
  it('takes a chosen customer through a draft with a fast clock, outside the counts', async () => {
    const created = await api('POST', '/api/journeys/', {
      name: 'Try me',
      graph: {
        nodes: [
          onEvent('never.posted'),
          { id: 'wait', type: 'wait', config: { kind: 'duration', seconds: 2 * 86400 } },
          { id: 'tag', type: 'update', config: { fields: { tested: 'yes' } } },
          exit,
        ],
        edges: [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'tag' },
          { from: 'tag', to: 'done' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const journey = created.json().result as TJourney;
    expect(journey.status).toBe('draft');
    const eve = await customer('Eve', 'eve@example.test');
    now = new Date('2028-01-10T10:00:00Z');
    const started = await api('POST', `/api/journeys/${journey.id}/test/`, {
      customer_id: eve,
      clock_speed: 86400,
    });
    expect(started.statusCode, started.body).toBe(201);
    // Two days at 86,400 times: two seconds.
    expect(started.json().result).toMatchObject({
      version: 1,
      status: 'active',
      clock_speed: 86400,
      entered_at: now.toISOString(),
      steps: [
        { node_id: 'start', status: 'passed' },
        { node_id: 'wait', status: 'waiting', due_at: new Date(now.getTime() + 2000).toISOString() },
      ],
    });
    now = new Date(now.getTime() + 1999);
    await drainJourneys(deps());
    expect((await path(journey.id, eve)).runs[0]!.steps.at(-1)).toMatchObject({
      node_id: 'wait',
      status: 'waiting',
    });
    now = new Date(now.getTime() + 1);
    await drainJourneys(deps());
    const run = (await path(journey.id, eve)).runs[0]!;
    expect(run.status).toBe('exited');
    expect(run.steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['wait', 'passed'],
      ['tag', 'passed'],
      ['done', 'exited'],
    ]);
    const [row] = await rt.database.query<{ fields: Record<string, unknown> }>(
      'select fields from customers where id = $1',
      [eve],
    );
    expect(row!.fields.tested).toBe('yes');
    // A test run stays out of the journey's counts.
    const stats = await api('GET', `/api/journeys/${journey.id}/stats/`);
    expect(stats.json().result.customers).toEqual({ active: 0, exited: 0, failed: 0 });
    expect(stats.json().result.nodes.tag).toEqual({
      entered: 0,
      waiting: 0,
      passed: 0,
      exited: 0,
      failed: 0,
    });
    // Another business's customer is not found; nor is this journey for another business.
    const otherCustomer = await customer('Mallory', 'mallory@example.test', other.business);
    const foreign = await api('POST', `/api/journeys/${journey.id}/test/`, { customer_id: otherCustomer });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().result).toHaveProperty('customer_id');
    const theirs = await api(
      'POST',
      `/api/journeys/${journey.id}/test/`,
      { customer_id: otherCustomer },
      other.business,
      other.owner,
    );
    expect(theirs.statusCode).toBe(404);
    const bad = await api('POST', `/api/journeys/${journey.id}/test/`, { customer_id: eve, clock_speed: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toHaveProperty('clock_speed');
  });
});

describe('a goal', () => {
  it('counts the passes whose goal event came within its days, and shows when on the path', async () => {
    now = new Date('2028-03-01T10:00:00Z');
    const journey = await live({
      name: 'Win back the cart',
      goal: { event: 'order.paid', within_days: 3 },
      graph: line({ id: 'note', type: 'update', config: { fields: { nudged: 'yes' } } }),
    });
    expect(journey.goal).toEqual({ event: 'order.paid', within_days: 3 });
    const fay = await customer('Fay', 'fay@example.test');
    const gus = await customer('Gus', 'gus@example.test');
    await post('e.note', fay);
    await post('e.note', gus);
    await drainJourneys(deps());
    const paid = async (who: number, at: Date) => {
      const res = await api('POST', '/api/events/', {
        name: 'order.paid',
        customer: { id: who },
        occurred_at: at.toISOString(),
      });
      expect(res.statusCode, res.body).toBe(202);
    };
    const fayPaid = new Date('2028-03-02T12:00:00Z');
    await paid(fay, fayPaid);
    await paid(gus, new Date('2028-03-05T12:00:00Z')); // four days on: too late
    await drainJourneys(deps());
    const stats = await api('GET', `/api/journeys/${journey.id}/stats/`);
    expect(stats.json().result.goal).toEqual({
      event: 'order.paid',
      within_days: 3,
      entered: 2,
      converted: 1,
    });
    expect((await path(journey.id, fay)).runs[0]!.goal_reached_at).toBe(fayPaid.toISOString());
    expect((await path(journey.id, gus)).runs[0]!.goal_reached_at).toBeNull();
    // A journey without a goal says so.
    const none = await live({
      name: 'No goal',
      graph: line({ id: 'x', type: 'update', config: { fields: { seen: 'yes' } } }),
    });
    expect(none.goal).toBeNull();
  });
});

describe('a segment trigger', () => {
  it('enters everyone in the segment, then each customer who comes into it; leaving and coming back enters again', async () => {
    const segment = await api('POST', '/api/business/customer-lists/', {
      name: 'VIPs',
      kind: 'segment',
      rules: { all: [{ field: 'customer.fields.vip', op: 'eq', value: 'yes' }] },
    });
    expect(segment.statusCode, segment.body).toBe(201);
    const segmentId = segment.json().result.id as number;
    const vip = async (name: string, value: string) => {
      const [row] = await rt.database.query<{ id: string }>(
        `insert into customers (business_id, name, email, fields) values ($1, $2, $3, $4::jsonb) returning id`,
        [business.id, name, `${name.toLowerCase()}@example.test`, JSON.stringify({ vip: value })],
      );
      return Number(row!.id);
    };
    const setVip = (id: number, value: string) =>
      rt.database.query(`update customers set fields = $2::jsonb where id = $1`, [
        id,
        JSON.stringify({ vip: value }),
      ]);
    const already = await vip('Ivy', 'yes');
    const notYet = await vip('Jon', 'no');
    now = new Date('2028-06-01T10:00:00Z');
    const journey = await live({
      name: 'Welcome to VIP',
      reentry: 'after_exit',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'segment', segment_id: segmentId } },
          { id: 'tag', type: 'update', config: { fields: { welcomed: 'yes' } } },
        ],
        edges: [{ from: 'start', to: 'tag' }],
      },
    });
    const runs = async (id: number) => (await path(journey.id, id)).runs.map((r) => r.status);
    await drainJourneys(deps());
    expect(await runs(already)).toEqual(['exited']);
    expect(await runs(notYet)).toEqual([]);
    // Scanned again a minute on: nobody new.
    now = new Date(now.getTime() + 60_000);
    await drainJourneys(deps());
    expect(await runs(already)).toEqual(['exited']);
    // Jon comes into the segment: he enters, Ivy (still in it) does not again.
    await setVip(notYet, 'yes');
    now = new Date(now.getTime() + 60_000);
    await drainJourneys(deps());
    expect(await runs(notYet)).toEqual(['exited']);
    expect(await runs(already)).toEqual(['exited']);
    // Ivy leaves; a minute on she is out; back again, she enters again (after_exit).
    await setVip(already, 'no');
    now = new Date(now.getTime() + 60_000);
    await drainJourneys(deps());
    expect(await runs(already)).toEqual(['exited']);
    await setVip(already, 'yes');
    now = new Date(now.getTime() + 60_000);
    await drainJourneys(deps());
    expect(await runs(already)).toEqual(['exited', 'exited']);
    const stats = await api('GET', `/api/journeys/${journey.id}/stats/`);
    expect(stats.json().result.nodes.tag).toMatchObject({ entered: 3, passed: 3 });
  });

  it("refuses a static list and another business's segment with 404 on the field", async () => {
    const theirs = await api(
      'POST',
      '/api/business/customer-lists/',
      {
        name: 'Their VIPs',
        kind: 'segment',
        rules: { all: [{ field: 'customer.fields.vip', op: 'eq', value: 'yes' }] },
      },
      other.business,
      other.owner,
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const stat = await api('POST', '/api/business/customer-lists/', { name: 'Plain list' });
    for (const id of [theirs.json().result.id as number, stat.json().result.id as number]) {
      const res = await api('POST', '/api/journeys/', {
        name: 'Not a segment of ours',
        graph: {
          nodes: [{ id: 'start', type: 'trigger', config: { kind: 'segment', segment_id: id } }],
          edges: [],
        },
      });
      expect(res.statusCode, res.body).toBe(404);
      expect(Object.keys(res.json().result)).toEqual(['graph.nodes.0.config.segment_id']);
    }
  });
});
