// GET /api/msg/conversations/ on the seeded inbox (bench/seed/inbox.mjs: one business with
// 1,000,000 conversations, 5,000,000 messages) — latency percentiles per filter, beside the raw SQL
// of the same request: the page query with its joins and the count query, in parallel on a pg pool
// of the server's default size (10), as apps/server/src/modules/conversations/conversations.repository.ts
// does; same fixed number of calls, same concurrency, timed the same way.
// Targets: p95 <= 20 ms and p95 <= 2x the raw SQL. Rows missing them get EXPLAIN (ANALYZE, BUFFERS)
// of their page and count queries in bench/results/inbox-list-plans.txt.
//
// Env: BENCH_INBOX_REQUESTS (measured calls per row and side, default 200), BENCH_INBOX_WARMUP
// (default 20), BENCH_INBOX_CONCURRENCY (default 10), BENCH_INBOX_DATABASE_URL (see lib/inbox-seed.mjs).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fixedLoad, httpClient } from '../lib/fixed-load.mjs';
import { authHeaders, login } from '../lib/identity.mjs';

export const name = 'inbox-list';

const here = dirname(fileURLToPath(import.meta.url));
const PLANS_FILE = join(here, '..', 'results', 'inbox-list-plans.txt');
const TARGET_P95_MS = 20;
const TARGET_RATIO = 2;
const PAGE_SIZE = 10; // the API's default page_size
const POOL_MAX = 10; // Titan's DATABASE_POOL_MAX default
const GLOBAL_WARMUP = 300;

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
  { key: 'verdict', label: 'target (p95 <= 20 ms, <= 2x)' },
];

function intFromEnv(key, fallback, min = 1) {
  const raw = process.env[key];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${key} must be an integer >= ${min} (got ${raw})`);
  return v;
}

/** The rows: a label and the list's query parameters. `now` = the seed's newest last_message_at. */
function scenarios(now) {
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

// ---------------------------------------------------------------- the server's SQL, by hand

const PAGE_COLUMNS =
  '"conversations"."id", "conversations"."business_id", "conversations"."title", "conversations"."status", ' +
  '"conversations"."is_read", "conversations"."channel", "conversations"."initiator_id", ' +
  '"conversations"."assigned_chat_group_id", "conversations"."last_message_at", ' +
  '"conversations"."business_replied", "conversations"."created_at", "conversations"."updated_at", ' +
  '"customers"."id", "customers"."name", "customers"."email", "chat_groups"."id", "chat_groups"."name", ' +
  '"chat_groups"."slug"';

/**
 * The statements drizzle generates for the list (checked with toSQL() against the repository):
 * { page: {text, values}, count: {text, values}, countKind }. `buckets` mirrors the repository's
 * conversation_counts sum, used when that table exists and the filter has no date range.
 */
function listStatements(businessId, params, { buckets }) {
  const conds = ['"conversations"."business_id" = $1'];
  const values = [businessId];
  const bucketConds = ['"conversation_counts"."business_id" = $1'];
  const bucketValues = [businessId];
  const add = (col, op, v) => {
    values.push(v);
    conds.push(`"conversations"."${col}" ${op} $${values.length}`);
  };
  const addBucket = (col, v) => {
    bucketValues.push(v);
    bucketConds.push(`"conversation_counts"."${col}" = $${bucketValues.length}`);
  };
  if (params.status) {
    add('status', '=', params.status);
    addBucket('status', params.status);
  }
  if (params.is_read !== undefined) {
    add('is_read', '=', params.is_read === 'true');
    addBucket('is_read', params.is_read === 'true');
  }
  if (params.business_replied !== undefined) {
    add('business_replied', '=', params.business_replied === 'true');
    addBucket('business_replied', params.business_replied === 'true');
  }
  if (params.created_at__gte) add('created_at', '>=', params.created_at__gte);
  if (params.created_at__lte) add('created_at', '<=', params.created_at__lte);
  if (params.last_message_at__gte) add('last_message_at', '>=', params.last_message_at__gte);
  if (params.last_message_at__lte) add('last_message_at', '<=', params.last_message_at__lte);
  if (params.channel__in) {
    const channels = params.channel__in.split(',');
    const first = values.length + 1;
    values.push(...channels);
    conds.push(`"conversations"."channel" in (${channels.map((_, i) => `$${first + i}`).join(', ')})`);
    const bfirst = bucketValues.length + 1;
    bucketValues.push(...channels);
    bucketConds.push(
      `"conversation_counts"."channel" in (${channels.map((_, i) => `$${bfirst + i}`).join(', ')})`,
    );
  }
  const where = `where (${conds.join(' and ')})`;
  const page = Number(params.page ?? 1);
  const offset = (page - 1) * PAGE_SIZE;
  const pageValues = [...values, PAGE_SIZE];
  let pageText =
    `select ${PAGE_COLUMNS} from "conversations" ` +
    `left join "customers" on "customers"."id" = "conversations"."initiator_id" ` +
    `left join "chat_groups" on "chat_groups"."id" = "conversations"."assigned_chat_group_id" ` +
    `${where} order by "conversations"."last_message_at" desc nulls last, "conversations"."id" desc ` +
    `limit $${pageValues.length}`;
  if (offset > 0) {
    pageValues.push(offset);
    pageText += ` offset $${pageValues.length}`;
  }
  const dated =
    params.created_at__gte ||
    params.created_at__lte ||
    params.last_message_at__gte ||
    params.last_message_at__lte;
  const count =
    buckets && !dated
      ? {
          text: `select coalesce(sum("n"), 0) from "conversation_counts" where (${bucketConds.join(' and ')})`,
          values: bucketValues,
        }
      : { text: `select count(*) from "conversations" ${where}`, values };
  return {
    page: { text: pageText, values: pageValues, rowMode: 'array' },
    count: { ...count, rowMode: 'array' },
    countKind: buckets && !dated ? 'conversation_counts sum' : 'count(*)',
  };
}

// ---------------------------------------------------------------- the suite

export async function run(ctx) {
  const requests = intFromEnv('BENCH_INBOX_REQUESTS', 200);
  const warmup = intFromEnv('BENCH_INBOX_WARMUP', 20, 0);
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
  let session = await login(titan.url, seed.email, seed.password);
  let loggedInAt = Date.now();
  const client = () =>
    httpClient(titan.url, { headers: authHeaders(session.access, seed.businessCode), sockets: concurrency });

  const pool = new pg.Pool({
    connectionString: database.url,
    max: POOL_MAX,
    application_name: 'titan-bench-sql',
  });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const {
    rows: [meta],
  } = await pool.query(
    `select max(last_message_at) as now, to_regclass('conversation_counts') is not null as buckets
       from conversations where business_id = $1`,
    [seed.businessId],
  );
  const now = new Date(meta.now);
  const buckets = meta.buckets;
  notes.push(
    `titan: apps/server/dist/main.js, NODE_ENV=production, default pool (10); ${concurrency} concurrent ` +
      `keep-alive connections, ${GLOBAL_WARMUP} warm-up requests, then per row ${warmup} warm-up + ${requests} ` +
      `measured requests, page_size ${PAGE_SIZE}`,
    `sql: the same page query (joins customers, chat_groups) and count query in parallel (Promise.all) on a ` +
      `pg pool of ${POOL_MAX}, ${concurrency} concurrent callers, same counts; count = ` +
      (buckets
        ? 'the sum over conversation_counts for filters without a date range (as the repository does now), count(*) with one'
        : 'count(*) over conversations') +
      `; dates relative to the seed's newest last_message_at (${now.toISOString()})`,
  );

  // One warm-up for the whole suite (JIT, pools, caches), on the unfiltered list.
  {
    const warm = scenarios(now)[0];
    const http = client();
    const stmts = listStatements(seed.businessId, warm.params, { buckets });
    ctx.progress(`warming up: ${GLOBAL_WARMUP} unfiltered list requests on each side`);
    await fixedLoad({ total: GLOBAL_WARMUP, concurrency, fn: () => http.get('/api/msg/conversations/') });
    await fixedLoad({
      total: GLOBAL_WARMUP,
      concurrency,
      fn: () => Promise.all([pool.query(stmts.page), pool.query(stmts.count)]),
    });
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
    const stmts = listStatements(seed.businessId, sc.params, { buckets });
    const sqlOnce = () => Promise.all([pool.query(stmts.page), pool.query(stmts.count)]);

    // Same answer from both sides: the count and the ids of the page.
    const http = client();
    const first = JSON.parse((await http.get(path)).body).result;
    const [pageRes, countRes] = await sqlOnce();
    const sqlIds = pageRes.rows.map((r) => Number(r[0]));
    const apiIds = first.results.map((c) => c.id);
    const sqlCount = Number(countRes.rows[0][0]);
    if (first.count !== sqlCount || JSON.stringify(apiIds) !== JSON.stringify(sqlIds)) {
      notes.push(
        `WARNING ${sc.query}: titan answered count ${first.count}, ids ${apiIds.join(',')}; ` +
          `the SQL ${sqlCount}, ${sqlIds.join(',')}`,
      );
    }

    ctx.progress(`${sc.query}: titan GET ${path}`);
    const t = await fixedLoad({ total: requests, concurrency, warmup, fn: () => http.get(path) });
    http.close();
    ctx.progress(`${sc.query}: sql (page + ${stmts.countKind})`);
    const s = await fixedLoad({ total: requests, concurrency, warmup, fn: sqlOnce });
    for (const [side, m] of [
      ['titan', t],
      ['sql', s],
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
      verdict: misses.length ? `MISS: ${misses.join(', ')}` : 'ok',
      titan: t,
      sql: s,
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
      for (const [label, st] of [
        ['page', stmts.page],
        [`count (${stmts.countKind})`, stmts.count],
      ]) {
        const { rows: plan } = await pool.query({
          text: `explain (analyze, buffers) ${st.text}`,
          values: st.values,
        });
        const lines = plan.map((r) => r['QUERY PLAN']);
        const exec = lines.find((l) => l.startsWith('Execution Time')) ?? '';
        row[label.startsWith('page') ? 'explainPageMs' : 'explainCountMs'] = Number(
          exec.replace(/[^\d.]/g, ''),
        );
        out.push(`=== ${sc.query} — ${label} (titan p95 ${ms(row.titanP95)} ms, ${row.verdict})`);
        out.push(`-- ${st.text}`);
        out.push(`-- params ${JSON.stringify(st.values)}`);
        out.push(...lines, '');
      }
      notes.push(
        `${sc.query}: alone, the page query takes ${ms(row.explainPageMs)} ms and the count ${ms(row.explainCountMs)} ms (EXPLAIN ANALYZE)`,
      );
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
