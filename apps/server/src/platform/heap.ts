// A ceiling on the JavaScript heap for long jobs that make much short-lived garbage (imports).
// V8 lets its old space grow to a multiple of what survived the last full collection before it
// collects again — after start-up, to about twice the live heap —, so a job whose batches live
// across a few scavenges (promoted, then dead) lifts the process's resident memory by a hundred
// megabytes or more of garbage, whatever it keeps. Collecting whenever the heap has grown by
// `headroom` since the job began keeps that growth bounded, at the cost of a full collection each
// `headroom` of garbage (tens of milliseconds), which V8 would have made later anyway. Used by the
// jobs that make such garbage in a stream: customer imports, webhook bursts, email sends (the
// `email.send` job and each SMTP thread) and campaign passes.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** A full collection now (V8's own `gc`, taken once from a fresh context). */
function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** This isolate's heap in use (V8's count alone: ~1 µs, where process.memoryUsage() reads /proc too). */
const heapUsed = () => getHeapStatistics().used_heap_size;

export class HeapCeiling {
  private ceiling: number;

  constructor(private readonly headroomBytes: number) {
    this.ceiling = heapUsed() + headroomBytes;
  }

  /**
   * Collects when the heap has reached the ceiling; call where the job's garbage just died. What
   * survives the collection is live: the next ceiling is `headroom` above it, so a heap that grew
   * for good (other work in the process) is not collected again at every call.
   */
  check(): void {
    if (heapUsed() <= this.ceiling) return;
    collectGarbage();
    this.ceiling = heapUsed() + this.headroomBytes;
  }
}
