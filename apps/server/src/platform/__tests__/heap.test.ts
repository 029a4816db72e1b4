import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapCeiling } from '../heap';

const used = () => getHeapStatistics().used_heap_size;

describe('HeapCeiling', () => {
  it('collects the garbage once the heap grew past its headroom, and sets the next ceiling above what lives', () => {
    const heap = new HeapCeiling(4 * 2 ** 20);
    let junk: { i: number; s: string }[] | null = Array.from({ length: 300_000 }, (_, i) => ({
      i,
      s: `garbage ${i}`,
    }));
    expect(junk.length).toBe(300_000);
    junk = null; // dead, but not collected yet: nothing has allocated since
    const before = used();
    heap.check();
    const after = used();
    expect(before - after).toBeGreaterThan(8 * 2 ** 20);
    // Just collected: the heap is under the new ceiling, so the next check leaves it alone.
    let kept: number[] | null = Array.from({ length: 1000 }, (_, i) => i);
    heap.check();
    expect(used()).toBeGreaterThanOrEqual(after);
    kept = null;
    expect(kept).toBeNull();
  });
});
