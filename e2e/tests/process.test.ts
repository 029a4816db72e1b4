// The server as an operator runs it: fail-fast config, restarts, the data-dir lock, graceful stop.
import { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverWorker, startScript } from '../support/paths';
import { runNode, startTitan, tempDataDir, type TitanServer } from '../support/server';

const running: TitanServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

describe('starting and stopping Titan', () => {
  it('fails fast naming PORT when PORT=abc', async () => {
    const started = Date.now();
    const proc = runNode(startScript, { PORT: 'abc', DATA_DIR: tempDataDir() });
    const { code } = await proc.exited;
    expect(code).toBe(1);
    expect(proc.output()).toContain('PORT: expected a port number (1-65535) (got "abc")');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('keeps data across a stop and a start, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const first = await startTitan({ dataDir });
    const res = await fetch(`${first.url}/api/analytics/events/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'ERROR', properties: { message: 'survives restarts' } }),
    });
    expect(res.status).toBe(201);
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await startTitan({ dataDir });
    expect(await second.stop()).toBe(0);

    // Read the embedded database directly, as a backup tool would, once no server holds it.
    const db = await PGlite.create(join(dataDir, 'pglite'));
    const rows = await db.query<{ message: string }>(
      "select properties->>'message' as message from analytics_events where event = 'ERROR'",
    );
    await db.close();
    expect(rows.rows.map((r) => r.message)).toEqual(['survives restarts']);
  });

  it('refuses a second process on the same data dir with a clear message and leaves the first serving', async () => {
    const first = await startTitan();
    running.push(first);
    const second = runNode(process.env.TITAN_MAIN ?? (await import('../support/paths')).serverMain, {
      NODE_ENV: 'production',
      APP_SECRET: 'x'.repeat(40),
      PORT: String(first.port + 1),
      HOST: '127.0.0.1',
      DATA_DIR: first.dataDir,
    });
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain('is already in use by another Titan process');
    const health = await fetch(`${first.url}/api/health/`);
    expect(health.status).toBe(200);
  });

  it('runs a worker-only process that stops cleanly', async () => {
    const worker = runNode(serverWorker, {
      NODE_ENV: 'production',
      APP_SECRET: 'y'.repeat(40),
      DATA_DIR: tempDataDir(),
      LOG_LEVEL: 'info',
    });
    await expect.poll(() => worker.output(), { timeout: 60_000 }).toContain('Titan worker is running');
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });
});
