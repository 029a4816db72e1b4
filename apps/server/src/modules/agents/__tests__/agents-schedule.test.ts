// Agent schedules: slots in the schedule's time zone across DST changes, interval and once, the
// one-minute tick recording each fired slot once (even with two ticks at once), missed slots after
// downtime by policy, agents that are not active, end_at, and a failed fire still moving on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TAgent, TAgentScheduleRequest, TBusiness } from '@titan/contracts';
import { createTestRuntime, testDbKind, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { listFires } from '../agents.repository';
import { runScheduleTick, slotAfter, type ScheduleSpec } from '../agents.schedule';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.inject({ method, url, headers: as(owner, business), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Schedules Co');
});
afterAll(() => rt.destroy());

const cron = (expression: string, timezone: string): ScheduleSpec => ({
  kind: 'cron',
  cron: expression,
  everyMinutes: null,
  runAt: null,
  timezone,
  startAt: null,
  endAt: null,
  anchorAt: new Date(0),
});
const iso = (d: Date | null) => d?.toISOString() ?? null;
const at = (s: string) => new Date(s);

/** An active agent (with a config) and its schedule. */
async function scheduled(schedule: TAgentScheduleRequest, status: TAgent['status'] = 'active') {
  const created = await call('POST', '/api/agents/', {
    name: `Agent ${Math.random()}`,
    status,
    config: { instructions: '', goal: 'Hello', audience: { segment: {} }, channels: [{ channel: 'email' }] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const agent: TAgent = created.json().result;
  const res = await call('PUT', `/api/agents/${agent.id}/schedule/`, schedule);
  expect(res.statusCode, res.body).toBe(200);
  return agent.id;
}
const scheduleOf = async (id: number) => (await call('GET', `/api/agents/${id}/schedule/`)).json().result;
const firesOf = async (id: number) =>
  (await listFires(rt.database.db, business.id, id)).map((f) => ({ slot: iso(f.slot), catch_up: f.catchUp }));
const tick = (now: string) => runScheduleTick(rt.database.db, at(now));

describe('schedule slots', () => {
  it('keeps the wall-clock time across the spring DST change in Berlin and New York', () => {
    const berlin = cron('30 9 * * *', 'Europe/Berlin');
    // 28 March 2027 is the last Sunday of March: 09:30 is 08:30 UTC before, 07:30 UTC after.
    expect(iso(slotAfter(berlin, at('2027-03-27T00:00:00Z')))).toBe('2027-03-27T08:30:00.000Z');
    expect(iso(slotAfter(berlin, at('2027-03-27T12:00:00Z')))).toBe('2027-03-28T07:30:00.000Z');
    const ny = cron('0 9 * * *', 'America/New_York');
    // 14 March 2027: New York moves from UTC-5 to UTC-4.
    expect(iso(slotAfter(ny, at('2027-03-13T00:00:00Z')))).toBe('2027-03-13T14:00:00.000Z');
    expect(iso(slotAfter(ny, at('2027-03-13T15:00:00Z')))).toBe('2027-03-14T13:00:00.000Z');
  });

  it('fires a time the spring change skips once, and a time the autumn change repeats once', () => {
    const nightly = cron('30 2 * * *', 'Europe/Berlin');
    // 02:30 does not exist on 28 March 2027: it runs at 03:00 CEST (01:00 UTC).
    expect(iso(slotAfter(nightly, at('2027-03-27T12:00:00Z')))).toBe('2027-03-28T01:00:00.000Z');
    // 02:30 happens twice on 31 October 2027: one slot that day.
    const slots: string[] = [];
    for (
      let s = slotAfter(nightly, at('2027-10-30T12:00:00Z'));
      s && s < at('2027-11-01T12:00:00Z');
      s = slotAfter(nightly, s)
    )
      slots.push(iso(s)!);
    expect(slots).toHaveLength(2);
    expect(slots[0]!.startsWith('2027-10-31T0')).toBe(true);
    expect(slots[1]).toBe('2027-11-01T01:30:00.000Z');
  });

  it('counts intervals from start_at and honours end_at', () => {
    const every = {
      ...cron('', 'UTC'),
      kind: 'interval' as const,
      everyMinutes: 90,
      startAt: at('2030-01-01T00:00:00Z'),
      endAt: at('2030-01-01T03:00:00Z'),
    };
    expect(iso(slotAfter(every, at('2029-12-31T00:00:00Z')))).toBe('2030-01-01T00:00:00.000Z');
    expect(iso(slotAfter(every, at('2030-01-01T00:00:00Z')))).toBe('2030-01-01T01:30:00.000Z');
    expect(slotAfter(every, at('2030-01-01T01:30:00Z'))).toBeNull();
  });
});

describe('the schedule tick', () => {
  it('records the due slot and moves next_run_at in the schedule time zone across DST', async () => {
    // 30 March 2031 is the last Sunday of March.
    const id = await scheduled({
      kind: 'cron',
      cron: '30 9 * * *',
      timezone: 'Europe/Berlin',
      start_at: '2031-03-29T00:00:00Z',
    });
    expect((await scheduleOf(id)).next_run_at).toBe('2031-03-29T08:30:00.000Z');
    await tick('2031-03-29T08:29:00Z');
    expect(await firesOf(id)).toEqual([]);
    await tick('2031-03-29T08:30:20Z');
    expect(await firesOf(id)).toEqual([{ slot: '2031-03-29T08:30:00.000Z', catch_up: false }]);
    expect(await scheduleOf(id)).toMatchObject({
      next_run_at: '2031-03-30T07:30:00.000Z',
      last_fired_at: '2031-03-29T08:30:00.000Z',
    });
    // The agent shows it too.
    expect((await call('GET', `/api/agents/${id}/`)).json().result.schedule.next_run_at).toBe(
      '2031-03-30T07:30:00.000Z',
    );
  });

  it('fires an interval each slot and a one-time schedule once', async () => {
    const every = await scheduled({
      kind: 'interval',
      every_minutes: 30,
      timezone: 'UTC',
      start_at: '2031-05-01T10:00:00Z',
    });
    const once = await scheduled({ kind: 'once', run_at: '2031-05-01T10:15:00Z', timezone: 'Asia/Tokyo' });
    await tick('2031-05-01T10:00:30Z');
    await tick('2031-05-01T10:15:10Z');
    await tick('2031-05-01T10:16:10Z');
    await tick('2031-05-01T10:30:05Z');
    expect((await firesOf(every)).map((f) => f.slot)).toEqual([
      '2031-05-01T10:00:00.000Z',
      '2031-05-01T10:30:00.000Z',
    ]);
    expect(await firesOf(once)).toEqual([{ slot: '2031-05-01T10:15:00.000Z', catch_up: false }]);
    expect((await scheduleOf(once)).next_run_at).toBeNull();
    expect((await scheduleOf(every)).next_run_at).toBe('2031-05-01T11:00:00.000Z');
  });

  it('after downtime, skip jumps to the next future slot and run_once fires one catch-up', async () => {
    const hourly = {
      kind: 'interval' as const,
      every_minutes: 60,
      timezone: 'UTC',
      start_at: '2031-06-01T00:00:00Z',
    };
    const skip = await scheduled({ ...hourly, missed: 'skip' });
    const runOnce = await scheduled({ ...hourly, missed: 'run_once' });
    // Down from before midnight until 05:30: six slots were missed.
    await tick('2031-06-01T05:30:00Z');
    expect(await firesOf(skip)).toEqual([]);
    expect(await firesOf(runOnce)).toEqual([{ slot: '2031-06-01T00:00:00.000Z', catch_up: true }]);
    for (const id of [skip, runOnce])
      expect((await scheduleOf(id)).next_run_at).toBe('2031-06-01T06:00:00.000Z');
    // Back to normal: both fire on time.
    await tick('2031-06-01T06:00:30Z');
    expect((await firesOf(skip)).map((f) => f.slot)).toEqual(['2031-06-01T06:00:00.000Z']);
    expect((await firesOf(runOnce)).map((f) => f.slot)).toEqual([
      '2031-06-01T00:00:00.000Z',
      '2031-06-01T06:00:00.000Z',
    ]);
    // Down again until two minutes past a slot: that slot is still on time, for both policies.
    await tick('2031-06-01T09:02:00Z');
    expect((await firesOf(skip)).at(-1)).toEqual({ slot: '2031-06-01T09:00:00.000Z', catch_up: true });
    expect((await firesOf(runOnce)).at(-1)).toEqual({ slot: '2031-06-01T09:00:00.000Z', catch_up: true });
  });

  it('does not fire paused, draft or archived agents, and stops at end_at', async () => {
    const base = {
      kind: 'interval' as const,
      every_minutes: 60,
      timezone: 'UTC',
      start_at: '2031-07-01T00:00:00Z',
    };
    const draft = await scheduled(base, 'draft');
    const paused = await scheduled(base, 'paused');
    const archived = await scheduled(base, 'archived');
    const ending = await scheduled({ ...base, end_at: '2031-07-01T01:30:00Z' });
    await tick('2031-07-01T00:00:10Z');
    await tick('2031-07-01T01:00:10Z');
    for (const id of [draft, paused, archived]) expect(await firesOf(id)).toEqual([]);
    expect((await firesOf(ending)).map((f) => f.slot)).toEqual([
      '2031-07-01T00:00:00.000Z',
      '2031-07-01T01:00:00.000Z',
    ]);
    expect((await scheduleOf(ending)).next_run_at).toBeNull();
    await tick('2031-07-01T02:00:10Z');
    expect(await firesOf(ending)).toHaveLength(2);
  });

  it('fires a slot once when two ticks claim at the same moment', async () => {
    const ids = await Promise.all(
      [0, 1, 2].map(() =>
        scheduled({ kind: 'interval', every_minutes: 10, timezone: 'UTC', start_at: '2031-08-01T00:00:00Z' }),
      ),
    );
    const fired = await Promise.all([tick('2031-08-01T00:00:30Z'), tick('2031-08-01T00:00:30Z')]);
    expect(fired[0]! + fired[1]!).toBeGreaterThanOrEqual(3);
    for (const id of ids)
      expect(await firesOf(id)).toEqual([{ slot: '2031-08-01T00:00:00.000Z', catch_up: false }]);
    for (const id of ids) expect((await scheduleOf(id)).next_run_at).toBe('2031-08-01T00:10:00.000Z');
  });

  it('moves next_run_at on even when recording the slot fails', async () => {
    const id = await scheduled({
      kind: 'interval',
      every_minutes: 15,
      timezone: 'UTC',
      start_at: '2031-09-01T00:00:00Z',
    });
    await rt.database.exec(`
      create function refuse_fire() returns trigger language plpgsql as $$
      begin
        if new.agent_id = ${id} then raise exception 'ledger unavailable'; end if;
        return new;
      end $$;
      create trigger refuse_fire before insert on agent_schedule_fires for each row execute function refuse_fire();`);
    try {
      await tick('2031-09-01T00:00:20Z');
    } finally {
      await rt.database.exec(
        `drop trigger refuse_fire on agent_schedule_fires; drop function refuse_fire();`,
      );
    }
    expect(await firesOf(id)).toEqual([]);
    expect((await scheduleOf(id)).next_run_at).toBe('2031-09-01T00:15:00.000Z');
    await tick('2031-09-01T00:15:20Z');
    expect((await firesOf(id)).map((f) => f.slot)).toEqual(['2031-09-01T00:15:00.000Z']);
  });
});

// Two connections only on PostgreSQL; on PGlite the claims above already run one after the other.
describe.runIf(testDbKind === 'postgres')('on PostgreSQL', () => {
  it('runs the two claims on separate connections, and the slot still fires once', async () => {
    const id = await scheduled({
      kind: 'interval',
      every_minutes: 5,
      timezone: 'UTC',
      start_at: '2031-10-01T00:00:00Z',
    });
    await Promise.all(Array.from({ length: 4 }, () => tick('2031-10-01T00:00:05Z')));
    expect(await firesOf(id)).toHaveLength(1);
  });
});
