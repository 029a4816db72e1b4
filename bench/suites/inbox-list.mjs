// GET /api/msg/conversations/ on the seeded inbox (bench/seed/inbox.mjs: one business with
// 1,000,000 conversations, 5,000,000 messages) — latency percentiles per filter, beside the raw SQL
// of the same request: the one statement (page, count and joins) that the server's list engine
// (apps/server/src/modules/conversations/list/, imported built) runs, on a pg pool of the
// server's default size (10); same fixed number of calls, same concurrency, timed the same way.
// Targets: p95 <= 20 ms and p95 <= 2x the raw SQL. Rows missing them get EXPLAIN (ANALYZE, BUFFERS)
// of their statement in bench/results/inbox-list-plans.txt.
//
// Env: BENCH_INBOX_REQUESTS (measured calls per row and side, default 2000), BENCH_INBOX_ROUNDS
// (the sides alternate in this many rounds, default 10), BENCH_INBOX_WARMUP (per row and side,
// default 500: each row runs code paths and a statement the ones before did not), BENCH_INBOX_CONCURRENCY (default 10), BENCH_INBOX_DATABASE_URL (see lib/inbox-seed.mjs).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { fixedLoad, httpClient, interleavedLoads } from '../lib/fixed-load.mjs';
import { authHeaders, login } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';

const LIST_ENGINE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'apps',
  'server',
  'dist',
  'conversations-list.js',
);
const listEngine = await import(pathToFileURL(LIST_ENGINE).href).catch((err) => {
  throw new Error(
    `${LIST_ENGINE} is missing or broken: run \`npm run build -w @titan/server\` first (${err.message})`,
  );
});

export const name = 'inbox-list';

const here = dirname(fileURLToPath(import.meta.url));
const PLANS_FILE = join(here, '..', 'results', 'inbox-list-plans.txt');
const TARGET_P95_MS = 20;
const TARGET_RATIO = 2;
const PAGE_SIZE = 10; // the API's default page_size
const POOL_MAX = 10; // Titan's DATABASE_POOL_MAX default
// Every side's p95 settles after about 3,000 calls (JIT in the servers and the bench, the
// PostgreSQL backends' caches and plans); the first 1,000 measured ran 30-80% slower on all three.
const GLOBAL_WARMUP = 3000;

const DAY = 24 * 3600 * 1000;
const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');

export const columns = [
  { key: 'query', label: 'query' },
  { key: 'count', label: 'count', align: 'right', format: (v) => v.toLocaleString('en-US') },
  { key: 'titanP50', label: 'titan p50', align: 'right', format: ms },
  { key: 'titanP95', label: 'p95', align: 'right', format: ms },
  { key: 'titanP99', label: 'p99', align: 'right', format: ms },
  { key: 'sqlP50', label: 'sql p50', align: 'right', format: ms },
  { key: 'sqlP95', label: 'p95', align: 'right', format: ms },
  { key: 'sqlP99', label: 'p99', align: 'right', format: ms },
  { key: 'ratioP95', label: 'p95 ratio', align: 'right', format: x },
  { key: 'floorP95', label: 'floor p95', align: 'right', format: ms },
  { key: 'floorRatioP95', label: 'floor/sql', align: 'right', format: x },
  { key: 'verdict', label: 'target (p95 <= 20 ms, <= 2x)' },
];

/** The rows: a label and the list's query parameters. `now` = the seed's newest last_message_at. */
export function scenarios(now) {
  const ago = (days) => new Date(now.getTime() - days * DAY).toISOString();
  return [
    { query: 'no filter', params: {} },
    { query: 'status=active', params: { status: 'active' } },
    { query: 'status=resolved', params: { status: 'resolved' } },
    { query: 'is_read=false', params: { is_read: 'false' } },
    { query: 'business_replied=false', params: { business_replied: 'false' } },
    { query: 'channel__in=whatsapp', params: { channel__in: 'whatsapp' } },
    { query: 'created_at__gte=-6 months', params: { created_at__gte: ago(182) } },
    { query: 'created_at__lte=-18 months', params: { created_at__lte: ago(547) } },
    { query: 'last_message_at__gte=-1 week', params: { last_message_at__gte: ago(7) } },
    { query: 'last_message_at__lte=-1 year', params: { last_message_at__lte: ago(365) } },
    {
      query: 'active+unread+titan_message+lma>=-1 month',
      params: {
        status: 'active',
        is_read: 'false',
        channel__in: 'titan_message',
        last_message_at__gte: ago(30),
      },
    },
    { query: 'no filter, page=50', params: { page: '50' } },
  ];
}

// ---------------------------------------------------------------- the server's SQL, from the server

/**
 * The one statement the server runs for a list request: { statement, countKind }. Built by the
 * server's own list engine (apps/server/src/modules/conversations/list/), imported from the built
 * server (apps/server/dist/conversations-list.js, made by `npm run build -w @titan/server`), so the
 * bench runs the very text, values and statement name the server prepares — it cannot drift. Its
 * CTE "page" holds the page's ids (from the indexes; with a created_at range from a walk per
 * created month), its CTE "total" the count (buckets: the sum over conversation_counts; days: sums
 * over conversation_day_counts plus count(*) of the edge days; rows: count(*)), and it answers the
 * count and the page's rows as JSON text. A named statement on a page without offset runs on a
 * generic plan after five calls.
 */
export function listStatements(businessId, params) {
  const { name, text, values, count } = listEngine.listStatementForQuery(businessId, params);
  const edges = count === 'days' ? dateBounds(params) : 0;
  return {
    statement: { name, text, values, rowMode: 'array' },
    countKind:
      count === 'days'
        ? `days: conversation_day_counts month + day sums + ${edges} edge-day count(*)`
        : count,
  };
}

/** How many bounds the one ranged date column has (each is an edge day counted by rows). */
const dateBounds = (params) => {
  const created = Boolean(params.created_at__gte || params.created_at__lte);
  const [lo, hi] = created
    ? [params.created_at__gte, params.created_at__lte]
    : [params.last_message_at__gte, params.last_message_at__lte];
  return (lo ? 1 : 0) + (hi ? 1 : 0);
};

/** Runs one request's statement on the pool, as the server does: one row, [count, page JSON text]. */
async function runList(pool, stmts) {
  const { rows } = await pool.query(stmts.statement);
  return rows[0];
}

/** The count and the page's ids of runList's row (for the check that both sides agree). */
const answerOf = ([count, json]) => ({ count: Number(count), ids: JSON.parse(json).map((c) => c.id) });

// ---------------------------------------------------------------- the suite

export async function run(ctx) {
  const requests = intFromEnv('BENCH_INBOX_REQUESTS', 2000);
  const rounds = Math.min(requests, intFromEnv('BENCH_INBOX_ROUNDS', 10));
  const warmup = intFromEnv('BENCH_INBOX_WARMUP', 500, 0);
  const concurrency = intFromEnv('BENCH_INBOX_CONCURRENCY', 10);

  const { database, seed, seeded, seedSeconds, timings } = await ctx.inboxSeed();
  const notes = [];
  if (seeded) {
    notes.push(
      `seed: ${Object.entries(seed.counts)
        .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
        .join(', ')} in ${seedSeconds.toFixed(1)} s (${timings
        .map((t) => `${t.step} ${t.seconds.toFixed(1)} s`)
        .join('; ')})`,
    );
  } else {
    notes.push(`seed: reused ${database.describe}: ${JSON.stringify(seed.counts)}`);
  }

  ctx.progress('starting titan (production) on the seeded database');
  const titan = ctx.use(await ctx.startTitan(database));
  const floor = ctx.use(await ctx.startBareList(database.url));
  const floorHttp = httpClient(floor.url, { sockets: concurrency });
  ctx.defer(() => floorHttp.close());
  let session = await login(titan.url, seed.email, seed.password);
  let loggedInAt = Date.now();
  const client = () =>
    httpClient(titan.url, { headers: authHeaders(session.access, seed.businessCode), sockets: concurrency });

  const pool = new pg.Pool({
    connectionString: database.url,
    max: POOL_MAX,
    application_name: 'titan-bench-sql',
    options: '-c jit=off', // as Titan's pool
  });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const {
    rows: [meta],
  } = await pool.query(`select max(last_message_at) as now from conversations where business_id = $1`, [
    seed.businessId,
  ]);
  const now = new Date(meta.now);
  notes.push(
    `titan: apps/server/dist/main.js, NODE_ENV=production, default pool (10); ${concurrency} concurrent ` +
      `keep-alive connections, ${GLOBAL_WARMUP} warm-up requests, then per row ${warmup} warm-up + ${requests} ` +
      `measured requests (in ${rounds} rounds alternating with the sql and floor sides), page_size ${PAGE_SIZE}`,
    `sql: the server's own statement (its built list engine: same text, values and name) on a pg pool of ${POOL_MAX}, ` +
      `${concurrency} concurrent callers: the page's ids (from the indexes; with a created_at range from a ` +
      `walk per created month) and the count (conversation_counts sum without a date range; ` +
      `conversation_day_counts sum + edge-day count(*) with one; count(*) otherwise) in CTEs, joined to ` +
      `customers and chat_groups; dates relative to the seed's newest last_message_at (${now.toISOString()})`,
    `floor: bare Fastify (no authentication, validation, hooks or logging; bench/servers/bare-list.mjs) ` +
      `running the same statement on its own pg pool of ${POOL_MAX} and sending its JSON text in Titan's ` +
      `envelope — the same bytes as Titan's answer (checked) —, loaded like the other two: what any HTTP ` +
      `API over this statement costs on this machine; floor/sql is the part of the ratio that is HTTP alone`,
  );

  // One warm-up for the whole suite (JIT, pools, caches), on the unfiltered list.
  {
    const warm = scenarios(now)[0];
    const http = client();
    const stmts = listStatements(seed.businessId, warm.params);
    ctx.progress(`warming up: ${GLOBAL_WARMUP} unfiltered list requests on each side`);
    await fixedLoad({ total: GLOBAL_WARMUP, concurrency, fn: () => http.get('/api/msg/conversations/') });
    await fixedLoad({
      total: GLOBAL_WARMUP,
      concurrency,
      fn: () => runList(pool, stmts),
    });
    await fetch(`${floor.url}/statements/warm-up`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...stmts.statement, page: 1, pageSize: PAGE_SIZE }),
    });
    await fixedLoad({ total: GLOBAL_WARMUP, concurrency, fn: () => floorHttp.get('/list/warm-up') });
    http.close();
  }

  const rows = [];
  const slow = [];
  for (const sc of scenarios(now)) {
    if (Date.now() - loggedInAt > 10 * 60_000) {
      session = await login(titan.url, seed.email, seed.password); // access tokens live 15 minutes
      loggedInAt = Date.now();
    }
    const qs = new URLSearchParams(sc.params).toString();
    const path = `/api/msg/conversations/${qs ? `?${qs}` : ''}`;
    const stmts = listStatements(seed.businessId, sc.params);
    const sqlOnce = () => runList(pool, stmts);

    // Same answer from both sides: the count and the ids of the page.
    const http = client();
    const first = JSON.parse((await http.get(path)).body).result;
    const { ids: sqlIds, count: sqlCount } = answerOf(await sqlOnce());
    const apiIds = first.results.map((c) => c.id);
    // Every row of the page carries its assignee and labels (the seed gives every conversation both).
    const bare = first.results.filter((c) => !c.assignee || c.labels.length === 0).map((c) => c.id);
    if (bare.length > 0)
      notes.push(`WARNING ${sc.query}: rows without an assignee or labels: ${bare.join(',')}`);
    if (first.count !== sqlCount || JSON.stringify(apiIds) !== JSON.stringify(sqlIds)) {
      notes.push(
        `WARNING ${sc.query}: titan answered count ${first.count}, ids ${apiIds.join(',')}; ` +
          `the SQL ${sqlCount}, ${sqlIds.join(',')}`,
      );
    }

    const floorPath = `/list/${rows.length}`;
    const registered = await fetch(`${floor.url}/statements/${rows.length}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...stmts.statement, page: Number(sc.params.page ?? 1), pageSize: PAGE_SIZE }),
    });
    if (!registered.ok) throw new Error(`the floor refused the statement: HTTP ${registered.status}`);
    // The floor sends what Titan sends, byte for byte.
    const [titanBody, floorBody] = [(await http.get(path)).body, (await floorHttp.get(floorPath)).body];
    if (titanBody !== floorBody)
      notes.push(`WARNING ${sc.query}: the floor's answer differs from Titan's: ${floorBody.slice(0, 200)}`);

    ctx.progress(
      `${sc.query}: titan GET ${path}, sql (count: ${stmts.countKind}) and floor, in ${rounds} rounds`,
    );
    const {
      titan: t,
      sql: s,
      floor: f,
    } = await interleavedLoads({
      sides: { titan: () => http.get(path), sql: sqlOnce, floor: () => floorHttp.get(floorPath) },
      total: requests,
      rounds,
      concurrency,
      warmup,
    });
    http.close();
    for (const [side, m] of [
      ['titan', t],
      ['sql', s],
      ['floor', f],
    ]) {
      if (m.errors > 0)
        notes.push(`WARNING ${sc.query}: ${side} had ${m.errors} failed calls (${m.firstError})`);
      if (m.count === 0) throw new Error(`${sc.query}: no ${side} call succeeded: ${m.firstError}`);
    }
    const ratioP95 = t.p95 / s.p95;
    const misses = [];
    if (!(t.p95 <= TARGET_P95_MS)) misses.push(`p95 > ${TARGET_P95_MS} ms`);
    if (!(ratioP95 <= TARGET_RATIO)) misses.push(`> ${TARGET_RATIO}x sql`);
    const row = {
      query: sc.query,
      path,
      count: first.count,
      countKind: stmts.countKind,
      titanP50: t.p50,
      titanP95: t.p95,
      titanP99: t.p99,
      sqlP50: s.p50,
      sqlP95: s.p95,
      sqlP99: s.p99,
      ratioP95,
      ratioP50: t.p50 / s.p50,
      floorP50: f.p50,
      floorP95: f.p95,
      floorP99: f.p99,
      floorRatioP95: f.p95 / s.p95,
      verdict: misses.length ? `MISS: ${misses.join(', ')}` : 'ok',
      titan: t,
      sql: s,
      floor: f,
    };
    rows.push(row);
    ctx.progress(
      `${sc.query}: titan p95 ${ms(t.p95)} ms, sql p95 ${ms(s.p95)} ms, ratio ${x(ratioP95)} — ${row.verdict}`,
    );
    if (misses.length) slow.push({ sc, stmts, row });
  }

  // EXPLAIN (ANALYZE, BUFFERS) of what missed, run alone (no concurrent load).
  if (slow.length) {
    const out = [
      `EXPLAIN (ANALYZE, BUFFERS) of the inbox-list rows that missed the target (${new Date().toISOString()}),`,
      `database ${database.name}; run one at a time after the load, so times are without contention.`,
      '',
    ];
    for (const { sc, stmts, row } of slow) {
      const st = stmts.statement;
      const { rows: plan } = await pool.query({
        text: `explain (analyze, buffers) ${st.text}`,
        values: st.values,
      });
      const lines = plan.map((r) => r['QUERY PLAN']);
      const exec = lines.find((l) => l.startsWith('Execution Time')) ?? '';
      row.explainMs = Number(exec.replace(/[^\d.]/g, ''));
      out.push(
        `=== ${sc.query} — count: ${stmts.countKind} (titan p95 ${ms(row.titanP95)} ms, ${row.verdict})`,
      );
      out.push(`-- ${st.text}`);
      out.push(`-- params ${JSON.stringify(st.values)}`);
      out.push(...lines, '');
      notes.push(`${sc.query}: alone, the statement takes ${ms(row.explainMs)} ms (EXPLAIN ANALYZE)`);
    }
    await mkdir(dirname(PLANS_FILE), { recursive: true });
    await writeFile(PLANS_FILE, `${out.join('\n')}\n`);
    notes.push(`EXPLAIN (ANALYZE, BUFFERS) of the rows that missed: ${PLANS_FILE}`);
  }
  await titan.stop();

  const missed = rows.filter((r) => r.verdict !== 'ok').map((r) => r.query);
  notes.push(
    missed.length
      ? `${missed.length} of ${rows.length} rows miss the target: ${missed.join('; ')}`
      : `all ${rows.length} rows meet the target`,
  );
  return {
    title:
      `inbox-list — GET /api/msg/conversations/ on ${seed.counts.conversations.toLocaleString('en-US')} conversations ` +
      `vs the raw SQL (ms; ${concurrency} concurrent, ${requests} requests per row)`,
    rows,
    notes,
  };
}
