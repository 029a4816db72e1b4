import { describe, expect, it } from 'vitest';
import { createTestRuntime } from '../testing/test-runtime';

describe('graceful shutdown', () => {
  it('finishes an in-flight request, then refuses new connections and closes the database', async () => {
    const rt = await createTestRuntime();
    const app = rt.app!;
    let release!: () => void;
    const started = new Promise<void>((resolveStarted) => {
      app.get('/api/test/slow/', { config: { public: true } }, async () => {
        resolveStarted();
        await new Promise<void>((r) => (release = r));
        return { status: 200, message: 'OK', result: 'finished' };
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    const inFlight = fetch(`http://127.0.0.1:${port}/api/test/slow/`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await started;
    const closing = rt.destroy();
    release();
    expect(await inFlight).toEqual({ status: 200, body: { status: 200, message: 'OK', result: 'finished' } });
    await closing;

    await expect(fetch(`http://127.0.0.1:${port}/api/health/`)).rejects.toThrow();
    await expect(rt.database.query('select 1')).rejects.toThrow();
  });
});
