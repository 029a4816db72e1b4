// A closed-loop load of a fixed number of calls: `concurrency` workers each await `fn()` in turn
// until `total` calls are done; each call's latency is measured here with performance.now(), so
// HTTP requests and raw SQL queries are timed the same way.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Samples } from './load.mjs';

let stopped = false;
/** Makes every running fixedLoad finish after its calls in flight (for an interrupt). */
export function stopFixedLoad() {
  stopped = true;
}

async function runCalls(n, concurrency, fn, onDone) {
  let next = 0;
  const worker = async () => {
    while (!stopped && next < n) {
      next++;
      const t = performance.now();
      let ok = true;
      let error = null;
      try {
        await fn();
      } catch (err) {
        ok = false;
        error = err;
      }
      onDone(performance.now() - t, ok, error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/**
 * Runs `warmup` calls (discarded) then `total` measured calls of `fn` with `concurrency` in
 * flight. Returns { count, errors, firstError, wallS, callsPerSec, p50, p90, p95, p99, max, mean }
 * (milliseconds; failed calls are not in the percentiles).
 */
export async function fixedLoad({ total, concurrency, warmup = 0, fn }) {
  if (warmup > 0) await runCalls(warmup, concurrency, fn, () => {});
  const samples = new Samples();
  let errors = 0;
  let firstError = null;
  let sum = 0;
  const t0 = performance.now();
  await runCalls(total, concurrency, fn, (ms, ok, error) => {
    if (ok) {
      samples.push(ms);
      sum += ms;
    } else {
      errors++;
      firstError ??= error;
    }
  });
  return {
    ...loadSummary(samples, { errors, firstError, wallS: (performance.now() - t0) / 1000 }),
    mean: samples.length ? sum / samples.length : NaN,
  };
}

/** The figures of a measured load: counts, rate and latency percentiles (ms) of its samples. */
export function loadSummary(samples, { errors, firstError, wallS }) {
  const [p50, p90, p95, p99, max] = samples.percentiles(50, 90, 95, 99, 100);
  return {
    count: samples.length,
    errors,
    firstError: firstError ? String(firstError.message ?? firstError) : null,
    wallS,
    callsPerSec: samples.length / wallS,
    p50,
    p90,
    p95,
    p99,
    max,
  };
}

/**
 * A GET client on keep-alive sockets (at most `sockets`): `get(path)` resolves with
 * { status, body } once the whole response is read, and rejects unless the status is 2xx.
 */
export function httpClient(baseUrl, { headers = {}, sockets = 10 } = {}) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const get = (path) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path, method: 'GET', headers, agent },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode >= 200 && res.statusCode < 300) resolve({ status: res.statusCode, body });
            else reject(new Error(`GET ${path} answered HTTP ${res.statusCode}: ${body.slice(0, 300)}`));
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error(`GET ${path} timed out after 30 s`)));
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}
