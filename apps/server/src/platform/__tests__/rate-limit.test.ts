import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../testing/test-runtime';
import { pruneRateLimits } from '../rate-limiter';

let store: TestStore;
let rt: TestRuntime;
let app: FastifyInstance;
beforeAll(async () => {
  store = await createTestStore();
  rt = await createTestRuntime({ store });
  app = rt.app!;
  await app.ready();
});
afterAll(async () => {
  await rt.destroy();
  await store.destroy();
});

const report = (target: FastifyInstance, ip: string) =>
  target.inject({
    method: 'POST',
    url: '/api/analytics/events/',
    remoteAddress: ip,
    payload: { event: 'ERROR', properties: { message: 'loop' } },
  });

describe('route rate limits', () => {
  it('counts in the database, per route and client, in windows every instance shares', async () => {
    for (let i = 0; i < 3; i++) expect((await report(app, '198.51.100.1')).statusCode).toBe(201);
    expect((await report(app, '198.51.100.2')).statusCode).toBe(201);
    const rows = await rt.database.query<{ key: string; count: number }>(
      `select key, count from rate_limits where key like 'route:POST /api/analytics/events/|%' order by key`,
    );
    expect(rows).toEqual([
      { key: 'route:POST /api/analytics/events/|198.51.100.1', count: 3 },
      { key: 'route:POST /api/analytics/events/|198.51.100.2', count: 1 },
    ]);
  });
});

describe('pruning', () => {
  it('forgets windows that started before the cut-off and keeps the others', async () => {
    await rt.database.query(
      `insert into rate_limits (key, window_start, count) values
         ('prune-test:old', now() - interval '2 days', 5),
         ('prune-test:recent', now() - interval '10 minutes', 5)`,
    );
    await pruneRateLimits(rt.database.db, new Date(Date.now() - 24 * 60 * 60 * 1000));
    const left = await rt.database.query<{ key: string }>(
      `select key from rate_limits where key like 'prune-test:%' order by key`,
    );
    expect(left).toEqual([{ key: 'prune-test:recent' }]);
  });

  it('runs hourly on the job schedule', async () => {
    const rows = await rt.database.query<{ cron: string }>(
      `select cron from pgboss.schedule where name = 'platform.prune-rate-limits'`,
    );
    expect(rows).toEqual([{ cron: '23 * * * *' }]);
  });
});

describe.runIf(testDbKind === 'postgres')('across instances', () => {
  it('one client gets the limit once, not once per instance', async () => {
    const b = await createTestRuntime({ store });
    try {
      const appB = b.app!;
      await appB.ready();
      const ip = '198.51.100.77';
      // 30 a minute: half on each instance, then both refuse.
      for (let i = 0; i < 15; i++) {
        expect((await report(app, ip)).statusCode).toBe(201);
        expect((await report(appB, ip)).statusCode).toBe(201);
      }
      const refusedB = await report(appB, ip);
      expect(refusedB.statusCode).toBe(429);
      expect(Number(refusedB.headers['retry-after'])).toBeGreaterThan(0);
      expect((await report(app, ip)).statusCode).toBe(429);
    } finally {
      await b.destroy();
    }
  });
});
