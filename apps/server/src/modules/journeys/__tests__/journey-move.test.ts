// Moving customers in flight to a new version (issue 32: "customers in flight finish on theirs or move
// at a chosen step"): by default they finish on the version they entered; moved, their open step ends
// as `moved` and they go on in the live version at the chosen step — a step they passed before (same
// id) runs again for them, once. Bad moves are refused with the field named; another business's
// journey is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TJourney, TJourneyCustomerPath, TJourneyStats } from '@titan/contracts';
import { JOURNEY_ERRORS } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys } from '../journeys.engine';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
// The routes run on the real clock; the test's passes on this one, moved past theirs when needed.
let now = new Date(Date.now() - 60_000);

const deps = (): JourneyDeps => ({ ...rt.services.journeys, clock: () => now, wake: () => undefined });
const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, b = business, s = owner) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

const tag = (id: string, value: string) => ({ id, type: 'update', config: { fields: { path: value } } });
const v1 = {
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'event', event: 'club.joined' } },
    tag('greet', 'v1 greeting'),
    { id: 'pause', type: 'wait', config: { kind: 'duration', seconds: 3600 } },
    tag('later', 'v1 later'),
    { id: 'done', type: 'exit', config: {} },
  ],
  edges: [
    { from: 'start', to: 'greet' },
    { from: 'greet', to: 'pause' },
    { from: 'pause', to: 'later' },
    { from: 'later', to: 'done' },
  ],
};
const v2 = {
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'event', event: 'club.joined' } },
    tag('greet', 'v2 greeting'),
    { id: 'done', type: 'exit', config: {} },
  ],
  edges: [
    { from: 'start', to: 'greet' },
    { from: 'greet', to: 'done' },
  ],
};

async function customer(name: string): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name) values ($1, $2) returning id`,
    [business.id, name],
  );
  return Number(row!.id);
}
const pathField = async (id: number) =>
  (
    await rt.database.query<{ path: string | null }>(
      `select fields->>'path' as path from customers where id = $1`,
      [id],
    )
  )[0]!.path;
const stats = async (id: number) =>
  (await api('GET', `/api/journeys/${id}/stats/`)).json().result as TJourneyStats;
const path = async (id: number, customerId: number) =>
  (await api('GET', `/api/journeys/${id}/customers/${customerId}/`)).json().result as TJourneyCustomerPath;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Move Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Move Co') };
});
afterAll(async () => {
  await rt?.destroy();
});

describe('moving customers in flight', () => {
  it('moves those waiting on an older version to the chosen step of the live one, once each', async () => {
    const created = await api('POST', '/api/journeys/', { name: 'Club', reentry: 'always', graph: v1 });
    expect(created.statusCode, created.body).toBe(201);
    const journey = created.json().result as TJourney;
    // A draft has nobody in flight to move.
    const draft = await api('POST', `/api/journeys/${journey.id}/move-in-flight/`, { to_node: 'greet' });
    expect(draft.statusCode).toBe(409);
    expect(draft.json().message).toBe(JOURNEY_ERRORS.moveNotLive);
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);

    const ana = await customer('Ana');
    const bo = await customer('Bo');
    for (const id of [ana, bo])
      expect((await api('POST', '/api/events/', { name: 'club.joined', customer: { id } })).statusCode).toBe(
        202,
      );
    await drainJourneys(deps());
    expect(await pathField(ana)).toBe('v1 greeting');

    const edited = await api('PUT', `/api/journeys/${journey.id}/`, {
      name: 'Club',
      reentry: 'always',
      graph: v2,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().result).toMatchObject({ version: 2, live_version: 2 });
    expect((await stats(journey.id)).in_flight_on_older_versions).toBe(2);

    // Bad moves: a step the live version lacks, the trigger, another business's journey.
    const missing = await api('POST', `/api/journeys/${journey.id}/move-in-flight/`, { to_node: 'later' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().result).toEqual({ to_node: [JOURNEY_ERRORS.moveNode] });
    const trigger = await api('POST', `/api/journeys/${journey.id}/move-in-flight/`, { to_node: 'start' });
    expect(trigger.statusCode).toBe(400);
    expect(trigger.json().result).toEqual({ to_node: [JOURNEY_ERRORS.moveToTrigger] });
    const stranger = await api(
      'POST',
      `/api/journeys/${journey.id}/move-in-flight/`,
      { to_node: 'greet' },
      other.business,
      other.owner,
    );
    expect(stranger.statusCode).toBe(404);
    // An agent-role member may not move anyone (engage.write).
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const refused = await api(
      'POST',
      `/api/journeys/${journey.id}/move-in-flight/`,
      { to_node: 'greet' },
      business,
      agent,
    );
    expect(refused.statusCode).toBe(403);
    expect((await stats(journey.id)).in_flight_on_older_versions).toBe(2);

    const moved = await api('POST', `/api/journeys/${journey.id}/move-in-flight/`, { to_node: 'greet' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().result).toEqual({ moved: 2, left: 0 });
    // Moving again finds nobody left on the old version.
    const again = await api('POST', `/api/journeys/${journey.id}/move-in-flight/`, { to_node: 'greet' });
    expect(again.json().result).toEqual({ moved: 0, left: 0 });
    now = new Date();
    await drainJourneys(deps());
    // `greet` again (a second visit of that id), in version 2's words; v1's `later` never comes.
    now = new Date(now.getTime() + 2 * 3600_000);
    await drainJourneys(deps());
    for (const id of [ana, bo]) {
      expect(await pathField(id)).toBe('v2 greeting');
      const runs = (await path(journey.id, id)).runs;
      expect(runs.map((r) => [r.version, r.status])).toEqual([[2, 'exited']]);
      expect(runs[0]!.steps.map((s) => [s.node_id, s.status, s.outcome])).toEqual([
        ['start', 'passed', null],
        ['greet', 'passed', null],
        ['pause', 'exited', 'moved'],
        ['greet', 'passed', null],
        ['done', 'exited', null],
      ]);
      expect(runs[0]!.steps[2]!.reason).toBe('Moved to step greet of version 2.');
      // Each step named by the version it ran in: v1's wait is still a wait (no longer in v2).
      expect(runs[0]!.steps.map((s) => s.type)).toEqual(['trigger', 'update', 'wait', 'update', 'exit']);
    }
    const s = await stats(journey.id);
    expect(s.in_flight_on_older_versions).toBe(0);
    expect(s.customers).toEqual({ active: 0, exited: 2, failed: 0 });
  });
});
