// The load generator: autocannon's programmatic API, in the bench process itself.
// A warm-up run is discarded, then a measured run gives throughput and exact latency percentiles.
import autocannon from 'autocannon';

/** The autocannon runs in flight, so an interrupt can stop them. */
const running = new Set();

export function stopAllLoad() {
  for (const instance of running) instance.stop();
}

/** Float64 samples that grow by doubling: a few hundred thousand responses cost a few MB. */
export class Samples {
  constructor() {
    this.values = new Float64Array(1 << 16);
    this.length = 0;
  }
  push(v) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = v;
  }
  /** Nearest-rank percentiles of the recorded values, in the same unit. */
  percentiles(...ps) {
    const sorted = this.values.slice(0, this.length).sort();
    return ps.map((p) =>
      sorted.length ? sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] : NaN,
    );
  }
}

function runOnce(options, onResponse) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (err, result) => {
      running.delete(instance);
      if (err) reject(err);
      else resolve(result);
    });
    running.add(instance);
    if (onResponse) instance.on('response', onResponse);
  });
}

/**
 * Loads `url` for `warmupS` seconds (discarded) and then `durationS` seconds (measured).
 * req/s counts 2xx responses only; latencies are those of 2xx responses, measured to the
 * microsecond (autocannon's own histogram keeps whole milliseconds, too coarse here).
 */
export async function measure({ url, connections, pipelining = 1, durationS, warmupS, method = 'GET' }) {
  const base = { url, method, connections, pipelining, timeout: 10 };
  if (warmupS > 0) await runOnce({ ...base, duration: warmupS });

  const latencies = new Samples();
  const result = await runOnce(
    { ...base, duration: durationS },
    (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    },
  );
  const [p50, p90, p99] = latencies.percentiles(50, 90, 99);
  return {
    url,
    connections,
    pipelining,
    durationS: result.duration,
    responses2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    reqPerSec: result['2xx'] / result.duration,
    latencyMs: { p50, p90, p99, mean: result.latency.mean, max: result.latency.max },
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    ),
  };
}
