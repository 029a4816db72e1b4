// Probe: Titan's GET /api/msg/search/ beside its raw SQL, one call at a time, on a kept seed
// (BENCH_SEARCH_DATABASE_URL of bench/suites/inbox-search.mjs). Usage:
//   node bench/profile/search-probe.mjs postgres://…/seeded-db "query" [calls]
// The SQL side runs as Titan does (a transaction with the search's settings); RAW=1 runs the
// statement alone, without them (as Titan did before).
import pg from 'pg';
import { startTitan } from '../lib/servers.mjs';
import { httpClient, fixedLoad } from '../lib/fixed-load.mjs';
import { authHeaders, login } from '../lib/identity.mjs';
import { inSearchTransaction } from '../suites/inbox-search.mjs';

const [url, q, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 200);
const engine = await import('../../apps/server/dist/conversations-search.js');
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query(`select id, unique_code from businesses where name = 'Bench Search Ltd'`);
await client.end();
const titan = await startTitan({ kind: 'postgres', url });
try {
  const session = await login(titan.url, 'search-owner@bench.test', 'bench search password 123');
  const http = httpClient(titan.url, {
    headers: authHeaders(session.access, rows[0].unique_code),
    sockets: 1,
  });
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' });
  const stmt = engine.searchStatementForQuery(Number(rows[0].id), { q });
  const path = `/api/msg/search/?q=${encodeURIComponent(q)}`;
  const health = httpClient(titan.url, { sockets: 1 });
  for (let round = 0; round < 2; round++) {
    const t = await fixedLoad({ total: calls, concurrency: 1, warmup: 20, fn: () => http.get(path) });
    const s = await fixedLoad({
      total: calls,
      concurrency: 1,
      warmup: 20,
      fn: () =>
        process.env.RAW === '1' ? pool.query(stmt) : inSearchTransaction(pool, (c) => c.query(stmt)),
    });
    const h = await fixedLoad({
      total: calls,
      concurrency: 1,
      warmup: 20,
      fn: () => health.get('/api/health/'),
    });
    console.log(
      `round ${round}: titan p50 ${t.p50.toFixed(2)} p95 ${t.p95.toFixed(2)} | sql p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} | health p50 ${h.p50.toFixed(2)}`,
    );
  }
  http.close();
  health.close();
  await pool.end();
} finally {
  await titan.stop();
}
