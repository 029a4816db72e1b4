// A closed-loop load of a fixed number of calls: `concurrency` workers each await `fn()` in turn
// until `total` calls are done; each call's latency is measured here with performance.now(), so
// HTTP requests and raw SQL queries are timed the same way.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
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

/**
 * Like fixedLoad for several sides compared with each other ({ name: fn }): after `warmup` calls
 * of each, their `total` calls each are run in `rounds` alternating rounds (the sides' order
 * rotating), so a drift of the machine's speed during the run falls on every side alike instead of
 * on whichever ran in the slow minute. Returns { name: fixedLoad's figures }.
 */
export async function interleavedLoads({ sides, total, rounds, concurrency, warmup = 0 }) {
  const names = Object.keys(sides);
  const state = Object.fromEntries(
    names.map((n) => [n, { samples: new Samples(), errors: 0, firstError: null, sum: 0, wallMs: 0 }]),
  );
  for (const n of names) if (warmup > 0) await runCalls(warmup, concurrency, sides[n], () => {});
  for (let round = 0; round < rounds; round++) {
    const calls = Math.floor(total / rounds) + (round < total % rounds ? 1 : 0);
    for (let i = 0; i < names.length; i++) {
      const st = state[names[(round + i) % names.length]];
      const t0 = performance.now();
      await runCalls(calls, concurrency, sides[names[(round + i) % names.length]], (ms, ok, error) => {
        if (ok) {
          st.samples.push(ms);
          st.sum += ms;
        } else {
          st.errors++;
          st.firstError ??= error;
        }
      });
      st.wallMs += performance.now() - t0;
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const st = state[n];
      const figures = loadSummary(st.samples, { ...st, wallS: st.wallMs / 1000 });
      return [n, { ...figures, mean: st.samples.length ? st.sum / st.samples.length : NaN }];
    }),
  );
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
 * A GET (and POST) client on keep-alive connections (at most `sockets`): `get(path)` resolves with
 * { status, body } once the whole response is read, and rejects unless the status is 2xx. It is
 * undici's (the client Node's fetch is built on): node:http's client costs the bench process
 * several times what the pg client beside it costs per call, on the same two cores as the servers.
 */
export function httpClient(baseUrl, { headers = {}, sockets = 10, timeoutMs = 30_000 } = {}) {
  const pool = new Pool(baseUrl, { connections: sockets, pipelining: 1 });
  const get = async (path) => {
    const res = await pool.request({
      path,
      method: 'GET',
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, body };
    throw new Error(`GET ${path} answered HTTP ${res.statusCode}: ${body.slice(0, 300)}`);
  };
  /** POST of a JSON body (a string), read the same way. */
  const post = async (path, body) => {
    const res = await pool.request({
      path,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, body: text };
    throw new Error(`POST ${path} answered HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  };
  return { get, post, close: () => pool.destroy() };
}
