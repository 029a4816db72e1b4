import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../testing/test-runtime';

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
