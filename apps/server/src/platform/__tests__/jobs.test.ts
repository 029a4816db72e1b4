import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, createTestStore, type TestStore } from '../../testing/test-runtime';
import type { JobHandler, QueueDefinition } from '../jobs';

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store.destroy());

function queue<T>(name: string, handler: JobHandler<T>, extra: Partial<QueueDefinition<T>> = {}) {
  return { name, handler, pollingIntervalSeconds: 0.5, ...extra } as QueueDefinition<never>;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('jobs', () => {
  it('runs a job enqueued before a restart once the next process starts its workers', async () => {
    const unused: JobHandler<{ to: string }> = async () => {
      throw new Error('the first process runs no workers');
    };
    const before = await createTestRuntime({
      store,
      workers: false,
      queues: [queue('test-restart', unused)],
    });
    const jobId = await before.jobs.send('test-restart', { to: 'after the restart' });
    expect(jobId).toBeTruthy();
    await before.close();

    const ran = deferred<{ to: string }>();
    const after = await createTestRuntime({
      store,
      workers: true,
      queues: [queue<{ to: string }>('test-restart', async (data) => ran.resolve(data))],
    });
    try {
      expect(await ran.promise).toEqual({ to: 'after the restart' });
    } finally {
      await after.close();
    }
  });

  it('leaves queue maintenance and schedules to the processes that run workers', async () => {
    const fresh = await createTestStore();
    // pg-boss turns schedules into jobs through its own queue, made by the process that does it.
    const cronQueues = async (rt: Awaited<ReturnType<typeof createTestRuntime>>) =>
      (
        await rt.database.query<{ n: number }>(
          `select count(*)::int as n from pgboss.queue where name = '__pgboss__send-it'`,
        )
      )[0]!.n;
    try {
      const api = await createTestRuntime({ store: fresh, workers: false });
      try {
        expect(await cronQueues(api)).toBe(0);
      } finally {
        await api.close();
      }
      const worker = await createTestRuntime({ store: fresh, workers: true });
      try {
        expect(await cronQueues(worker)).toBe(1);
      } finally {
        await worker.close();
      }
    } finally {
      await fresh.destroy();
    }
  });

  it('retries a failing job with growing delays until it succeeds', async () => {
    const attempts: number[] = [];
    const done = deferred<void>();
    const rt = await createTestRuntime({
      store,
      workers: true,
      queues: [
        queue(
          'test-flaky',
          async () => {
            attempts.push(Date.now());
            if (attempts.length < 3) throw new Error(`attempt ${attempts.length} fails`);
            done.resolve();
          },
          { retryLimit: 4, retryDelay: 1, retryBackoff: true },
        ),
      ],
    });
    try {
      const id = await rt.jobs.send('test-flaky', {});
      await done.promise;
      expect(attempts).toHaveLength(3);
      // pg-boss schedules retry n no earlier than retryDelay·2^(n-1) seconds after the failure.
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(1000);
      expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(2000);
      await expect
        .poll(async () => (await rt.jobs.getJob('test-flaky', id!))?.state, { timeout: 10_000 })
        .toBe('completed');
      expect((await rt.jobs.getJob('test-flaky', id!))?.retryCount).toBe(2);
    } finally {
      await rt.close();
    }
  });

  it("runs a burst of jobs on all of a queue's workers, each job once", async () => {
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    const all = deferred<void>();
    const rt = await createTestRuntime({
      store,
      workers: true,
      queues: [
        queue<{ n: number }>(
          'test-burst',
          async ({ n }) => {
            running++;
            most = Math.max(most, running);
            await new Promise((r) => setTimeout(r, 150));
            running--;
            ran.push(n);
            if (ran.length === 12) all.resolve();
          },
          // Siblings poll every 0.5 s × SIBLING_POLL_FACTOR: only wake-ups reach them in time.
          { concurrency: 4 },
        ),
      ],
    });
    try {
      for (let n = 0; n < 12; n++) await rt.jobs.send('test-burst', { n });
      await all.promise;
      expect([...ran].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
      expect(most).toBe(4);
    } finally {
      await rt.close();
    }
  });

  it('refuses to enqueue into a queue nobody defined', async () => {
    const rt = await createTestRuntime({ store, http: false });
    try {
      await expect(rt.jobs.send('no-such-queue', {})).rejects.toThrow(/not defined/);
    } finally {
      await rt.close();
    }
  });
});
