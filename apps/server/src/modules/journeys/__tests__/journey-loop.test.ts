// The loop guard: an update step's label is an event (label.added) that may start another journey,
// whose label may start the first again. An event a journey's step caused carries the chain of
// journeys that led to it; a journey in the chain is not started by it, and the update step whose
// change made the event says so on the customer's path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TJourney, TJourneyCustomerPath } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys, LOOP_WORDS } from '../journeys.engine';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
const now = new Date('2026-12-01T10:00:00Z');

const deps = (): JourneyDeps => ({ ...rt.services.journeys, clock: () => now, wake: () => undefined });

const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: as(owner, business),
    ...(payload ? { payload: payload as object } : {}),
  });

async function label(name: string): Promise<number> {
  const res = await api('POST', '/api/msg/labels/', { name, color: '#22c55e' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result.id as number;
}

/** A live journey, re-entered whenever its event comes: on `event`, add `labelId`, exit. */
async function labelling(name: string, event: string, labelId: number): Promise<TJourney> {
  const res = await api('POST', '/api/journeys/', {
    name,
    reentry: 'always',
    graph: {
      nodes: [
        { id: 'start', type: 'trigger', config: { kind: 'event', event } },
        { id: 'tag', type: 'update', config: { add_label_ids: [labelId] } },
        { id: 'done', type: 'exit', config: {} },
      ],
      edges: [
        { from: 'start', to: 'tag' },
        { from: 'tag', to: 'done' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json().result as TJourney).id;
  const published = await api('POST', `/api/journeys/${id}/publish/`);
  expect(published.statusCode, published.body).toBe(200);
  return published.json().result as TJourney;
}

async function path(id: number, customerId: number): Promise<TJourneyCustomerPath> {
  const res = await api('GET', `/api/journeys/${id}/customers/${customerId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyCustomerPath;
}

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  rt.services.journeys.clock = () => now;
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Loop Co');
});
afterAll(async () => {
  await rt?.destroy();
});

describe('the loop guard', () => {
  it('two journeys that label each other stop where the chain comes back; the step says why', async () => {
    const [first, a, b] = [await label('First'), await label('By A'), await label('By B')];
    const kick = await labelling('Kick', 'go', first);
    const ja = await labelling('A labels', 'label.added', a);
    const jb = await labelling('B labels', 'label.added', b);
    const [row] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, name) values ($1, 'Ada') returning id`,
      [business.id],
    );
    const ada = Number(row!.id);
    const posted = await api('POST', '/api/events/', { name: 'go', customer: { id: ada } });
    expect(posted.statusCode, posted.body).toBe(202);
    await drainJourneys(deps(), 50);

    // Kick's label starts A and B; A's label starts B (not A again), B's starts A (not B again);
    // the second passes' labels are already on the customer. Nothing is left to do.
    const pa = await path(ja.id, ada);
    const pb = await path(jb.id, ada);
    expect(pa.runs.map((r) => r.status)).toEqual(['exited', 'exited']);
    expect(pb.runs.map((r) => r.status)).toEqual(['exited', 'exited']);
    expect(pa.runs[0]!.steps.find((s) => s.node_id === 'tag')).toMatchObject({
      status: 'passed',
      reason: LOOP_WORDS.again(ja.id),
    });
    expect(pb.runs[0]!.steps.find((s) => s.node_id === 'tag')).toMatchObject({
      status: 'passed',
      reason: LOOP_WORDS.again(jb.id),
    });
    expect((await path(kick.id, ada)).runs).toHaveLength(1);
    const [pending] = await rt.database.query<{ n: string }>(
      `select count(*) as n from customer_events where processed_at is null`,
    );
    expect(Number(pending!.n)).toBe(0);
  });
});
