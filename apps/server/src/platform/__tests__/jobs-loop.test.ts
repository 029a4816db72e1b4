import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Loop, SIBLING_POLL_FACTOR } from '../jobs';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let loops: Loop[] = [];
afterEach(async () => {
  await Promise.all(loops.map((l) => l.stop(1_000)));
  loops = [];
});

function startLoop(run: () => Promise<number>, concurrency: number, pollIntervalMs: number): Loop {
  const loop = new Loop({ name: 'test-loop', run, concurrency, pollIntervalMs }, logger);
  loops.push(loop);
  loop.start();
  return loop;
}

describe('background loops', () => {
  it('asks for work once a poll interval while idle, not once per pass', async () => {
    let passes = 0;
    startLoop(async () => (passes++, 0), 4, 25);
    await sleep(1_000);
    // The lead pass looks every 25 ms (at most ~40 times in a second, fewer on a busy machine); the
    // three others once at the start and then every 250 ms. Four passes each on the timer: ~160.
    expect(SIBLING_POLL_FACTOR).toBeGreaterThanOrEqual(4);
    expect(passes).toBeLessThanOrEqual(40 + 3 * 5 + 4);
    expect(passes).toBeGreaterThan(4);
  });

  it('has every pass working while there is work, and does it all once', async () => {
    let items = 0;
    let passes = 0;
    let running = 0;
    let most = 0;
    const done: number[] = [];
    // Long polls: once asleep, the passes can only be reached by wake-ups — the one below and
    // those a pass that found work sends its siblings.
    const loop = startLoop(
      async () => {
        passes++;
        if (items === 0) return 0;
        const item = items--;
        running++;
        most = Math.max(most, running);
        await sleep(10);
        running--;
        done.push(item);
        return 1;
      },
      4,
      60_000,
    );
    await expect.poll(() => passes).toBe(4);
    items = 60;
    loop.wake();
    await expect.poll(() => done.length, { timeout: 4_000 }).toBe(60);
    expect(new Set(done).size).toBe(60);
    expect(most).toBe(4);
  });

  it('runs a pass at once when woken, whatever its poll interval', async () => {
    let passes = 0;
    const loop = startLoop(async () => (passes++, 0), 2, 60_000);
    await expect.poll(() => passes).toBe(2);
    loop.wake();
    await expect.poll(() => passes, { timeout: 2_000 }).toBe(3);
  });
});
