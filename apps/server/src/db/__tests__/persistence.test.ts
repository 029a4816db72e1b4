import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, createTestStore, testDbKind, type TestStore } from '../../testing/test-runtime';
import { findRecentEvents } from '../../modules/analytics/analytics.service';
import { openDatabase } from '../client';
import { DataDirInUseError } from '../lock';

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store.destroy());

describe('data survives restarts', () => {
  it('keeps what was written through the API after the runtime stops and starts again', async () => {
    const first = await createTestRuntime({ store });
    const res = await first.app!.inject({
      method: 'POST',
      url: '/api/analytics/events/',
      payload: { event: 'ERROR', properties: { message: 'written before restart' } },
    });
    expect(res.statusCode).toBe(201);
    await first.close();

    const second = await createTestRuntime({ store });
    const events = await findRecentEvents(second.database.db, 'ERROR');
    expect(events.map((e) => e.properties.message)).toContain('written before restart');
    await second.close();
  });

  it('applies migrations once, however often it starts', async () => {
    const rt = await createTestRuntime({ store });
    const rows = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2);
    await rt.close();
    const again = await createTestRuntime({ store });
    const after = await again.database.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    expect(after[0]!.n).toBe(rows[0]!.n);
    await again.close();
  });
});

describe.runIf(testDbKind === 'pglite')('embedded data dir lock', () => {
  it('refuses a second opener of the same data dir with a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titan-lock-'));
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(DataDirInUseError);
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
      /already in use by another Titan process/,
    );
    await first.close();
    expect(existsSync(join(dir, 'titan.pid'))).toBe(false);
    const reopened = await openDatabase({ kind: 'pglite', dataDir: dir });
    await reopened.close();
  });

  it('takes over a lock left behind by a process that died', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titan-lock-'));
    writeFileSync(join(dir, 'titan.pid'), '2147483646'); // no such process
    const db = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
    await db.close();
  });
});
