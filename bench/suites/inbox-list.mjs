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

const DAY_MS = 24 * 3600 * 1000;
const utcDay = (iso) => new Date(Math.floor(Date.parse(iso) / DAY_MS) * DAY_MS);
const isoDay = (d) => d.toISOString().slice(0, 10);

/**
 * The statements the repository (apps/server/src/modules/conversations/conversations.repository.ts)
 * runs for one list request, by hand: { page: [statements run one after the other, the last
 * answering the rows], counts: [statements run beside the page, summed], countKind }.
 * - page: the ids of the page from the indexes, joined to customers and chat_groups; with a
 *   created_at range, the ids come from a per-created-month walk first, then the rows by id.
 * - count: without a date range the sum over conversation_counts; with a range on one of the two
 *   date columns the sum over conversation_day_counts for its whole days plus count(*) of its edge
 *   days; count(*) for ranges on both columns or within one day.
 */
function listStatements(businessId, params) {
  const dims = ['"conversations"."business_id" = $1'];
  const dimValues = [businessId];
  const bucketConds = [];
  const bucketValues = [];
  const addDim = (col, v) => {
    dimValues.push(v);
    dims.push(`"conversations"."${col}" = $${dimValues.length}`);
    bucketValues.push(v);
    bucketConds.push({ col, v });
  };
  if (params.status) addDim('status', params.status);
  if (params.is_read !== undefined) addDim('is_read', params.is_read === 'true');
  if (params.business_replied !== undefined) addDim('business_replied', params.business_replied === 'true');
  const channels = params.channel__in ? params.channel__in.split(',') : null;

  /** WHERE over conversations: the dims, the channels, then the given ranges. */
  const conversationsWhere = (ranges) => {
    const conds = [...dims];
    const values = [...dimValues];
    for (const [col, op, v] of ranges) {
      values.push(v);
      conds.push(`"conversations"."${col}" ${op} $${values.length}`);
    }
    if (channels) {
      const first = values.length + 1;
      values.push(...channels);
      conds.push(`"conversations"."channel" in (${channels.map((_, i) => `$${first + i}`).join(', ')})`);
    }
    return { text: `(${conds.join(' and ')})`, values };
  };
  const bucketWhere = (table, extra, extraValues) => {
    const conds = [`"${table}"."business_id" = $1`, ...extra];
    const values = [businessId, ...extraValues];
    for (const { col, v } of bucketConds) {
      values.push(v);
      conds.push(`"${table}"."${col}" = $${values.length}`);
    }
    if (channels) {
      const first = values.length + 1;
      values.push(...channels);
      conds.push(`"${table}"."channel" in (${channels.map((_, i) => `$${first + i}`).join(', ')})`);
    }
    return { text: conds.join(' and '), values };
  };

  const ranges = [];
  if (params.created_at__gte) ranges.push(['created_at', '>=', params.created_at__gte]);
  if (params.created_at__lte) ranges.push(['created_at', '<=', params.created_at__lte]);
  if (params.last_message_at__gte) ranges.push(['last_message_at', '>=', params.last_message_at__gte]);
  if (params.last_message_at__lte) ranges.push(['last_message_at', '<=', params.last_message_at__lte]);
  const where = conversationsWhere(ranges);
  const pageNo = Number(params.page ?? 1);
  const offset = (pageNo - 1) * PAGE_SIZE;
  const order = `"conversations"."last_message_at" desc nulls last, "conversations"."id" desc`;
  const joins =
    `left join "customers" on "customers"."id" = "conversations"."initiator_id" ` +
    `left join "chat_groups" on "chat_groups"."id" = "conversations"."assigned_chat_group_id"`;

  const created = Boolean(params.created_at__gte || params.created_at__lte);
  const lastMessage = Boolean(params.last_message_at__gte || params.last_message_at__lte);
  let page;
  if (created) {
    const v = [...where.values];
    const edge = (fn) => {
      v.push(businessId);
      return `(select ${fn}(created_at) from conversations where business_id = $${v.length})`;
    };
    const bound = (iso, fn) => {
      if (!iso) return edge(fn);
      v.push(iso);
      return `$${v.length}::timestamptz`;
    };
    const from = bound(params.created_at__gte, 'min');
    const to = bound(params.created_at__lte, 'max');
    v.push(offset + PAGE_SIZE, PAGE_SIZE, offset);
    const n = v.length;
    page = [
      {
        text:
          `select c.id from generate_series(date_trunc('month', ${from} at time zone 'UTC'), ` +
          `date_trunc('month', ${to} at time zone 'UTC'), interval '1 month') as m(month) ` +
          `cross join lateral (select "conversations"."id" as id, "conversations"."last_message_at" as last_message_at ` +
          `from "conversations" where ${where.text} and date_trunc('month', "conversations"."created_at" at time zone 'UTC') = m.month ` +
          `order by ${order} limit $${n - 2}) as c order by c.last_message_at desc nulls last, c.id desc limit $${n - 1} offset $${n}`,
        values: v,
        rowMode: 'array',
      },
      (ids) => ({
        text: `select ${PAGE_COLUMNS} from "conversations" ${joins} where "conversations"."id" = any($1) order by ${order}`,
        values: [ids],
        rowMode: 'array',
      }),
    ];
  } else {
    const v = [...where.values, PAGE_SIZE];
    let inner = `select "conversations"."id" from "conversations" where ${where.text} order by ${order} limit $${v.length}`;
    if (offset > 0) {
      v.push(offset);
      inner += ` offset $${v.length}`;
    }
    page = [
      {
        text:
          `with "page" as (${inner}) select ${PAGE_COLUMNS} from "page" ` +
          `inner join "conversations" on "conversations"."id" = "page"."id" ${joins} order by ${order}`,
        values: v,
        rowMode: 'array',
      },
    ];
  }

  let counts;
  let countKind;
  const countAll = (w) => ({
    text: `select count(*) from "conversations" where ${w.text}`,
    values: w.values,
    rowMode: 'array',
  });
  if (!created && !lastMessage) {
    const b = bucketWhere('conversation_counts', [], []);
    counts = [
      {
        text: `select coalesce(sum("n"), 0) from "conversation_counts" where ${b.text}`,
        values: b.values,
        rowMode: 'array',
      },
    ];
    countKind = 'conversation_counts sum';
  } else {
    const col = created ? 'created_at' : 'last_message_at';
    const lo = created ? params.created_at__gte : params.last_message_at__gte;
    const hi = created ? params.created_at__lte : params.last_message_at__lte;
    const loDay = lo ? utcDay(lo) : null;
    const hiDay = hi ? utcDay(hi) : null;
    if ((created && lastMessage) || (loDay && hiDay && loDay.getTime() === hiDay.getTime())) {
      counts = [countAll(where)];
      countKind = 'count(*)';
    } else {
      const extra = [`"conversation_day_counts"."axis" = $2`];
      const extraValues = [created ? 'c' : 'l'];
      if (loDay) {
        extraValues.push(isoDay(loDay));
        extra.push(`"conversation_day_counts"."day" > $${extraValues.length + 1}`);
      }
      if (hiDay) {
        extraValues.push(isoDay(hiDay));
        extra.push(`"conversation_day_counts"."day" < $${extraValues.length + 1}`);
      }
      const b = bucketWhere('conversation_day_counts', extra, extraValues);
      counts = [
        {
          text: `select coalesce(sum("n"), 0) from "conversation_day_counts" where ${b.text}`,
          values: b.values,
          rowMode: 'array',
        },
      ];
      if (lo)
        counts.push(
          countAll(
            conversationsWhere([
              [col, '>=', lo],
              [col, '<', new Date(loDay.getTime() + DAY_MS).toISOString()],
            ]),
          ),
        );
      if (hi)
        counts.push(
          countAll(
            conversationsWhere([
              [col, '>=', hiDay.toISOString()],
              [col, '<=', hi],
            ]),
          ),
        );
      countKind = `conversation_day_counts sum + ${counts.length - 1} edge-day count(*)`;
    }
  }
  return { page, counts, countKind };
}

/** Runs one request's statements on the pool as the repository does: { ids, count }. */
async function runList(pool, stmts) {
  const [rows, ...counts] = await Promise.all([
    (async () => {
      let res = await pool.query(stmts.page[0]);
      if (stmts.page[1]) res = await pool.query(stmts.page[1](res.rows.map((r) => r[0])));
      return res.rows;
    })(),
    ...stmts.counts.map((c) => pool.query(c)),
  ]);
  return {
    ids: rows.map((r) => Number(r[0])),
    count: counts.reduce((sum, res) => sum + Number(res.rows[0][0]), 0),
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
      `measured requests, page_size ${PAGE_SIZE}`,
    `sql: the repository's statements by hand on a pg pool of ${POOL_MAX}, ${concurrency} concurrent callers: ` +
      `the page (ids from the indexes joined to customers and chat_groups; with a created_at range the ids ` +
      `from a walk per created month, then the rows) beside the count (conversation_counts sum without a date ` +
      `range; conversation_day_counts sum + edge-day count(*) with one; count(*) otherwise), in parallel; ` +
      `dates relative to the seed's newest last_message_at (${now.toISOString()})`,
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
    const { ids: sqlIds, count: sqlCount } = await sqlOnce();
    const apiIds = first.results.map((c) => c.id);
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
      const firstIds = (await pool.query(stmts.page[0])).rows.map((r) => r[0]);
      const explained = [
        ...stmts.page.map((st, i) => [
          `page ${i + 1}/${stmts.page.length}`,
          typeof st === 'function' ? st(firstIds) : st,
        ]),
        ...stmts.counts.map((st, i) => [`count ${i + 1}/${stmts.counts.length} (${stmts.countKind})`, st]),
      ];
      row.explainPageMs = 0;
      row.explainCountMs = 0;
      for (const [label, st] of explained) {
        const { rows: plan } = await pool.query({
          text: `explain (analyze, buffers) ${st.text}`,
          values: st.values,
        });
        const lines = plan.map((r) => r['QUERY PLAN']);
        const exec = lines.find((l) => l.startsWith('Execution Time')) ?? '';
        // Page statements run one after the other (summed); counts in parallel (the slowest).
        const took = Number(exec.replace(/[^\d.]/g, ''));
        if (label.startsWith('page')) row.explainPageMs += took;
        else row.explainCountMs = Math.max(row.explainCountMs, took);
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
