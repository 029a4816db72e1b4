// The visitor directory at 1,000,000 customers of one business:
// - search: p50/p95/p99 of GET /api/business/customer-directory/?search= for name, email and phone
//   fragments (rare and common ones), beside the raw SQL of the same answer — the two statements
//   Titan runs, the page (`… where business_id = $1 and <name, email and phone> ilike '%fragment%'
//   order by created_at desc, id desc limit 21`) and its count stopped at 1,001 rows, on a pg pool —
//   and the ratio; and, for scale, the p50 of the exact count(*) Titan does not run (the trap the
//   cap avoids). Target: Titan's p95 <= 50 ms. Each row checks Titan's page ids equal the SQL's.
// - export: GET /api/business/customer-directory/download/ of every customer: time, bytes and the
//   Titan process's peak resident memory (sampled every 25 ms from /proc, and at each tenth of the
//   rows), beside PostgreSQL's `COPY (select … order by id) TO STDOUT` of the same rows and columns
//   through psql (the floor: no HTTP, no JavaScript).
// Seeding: generate_series in one INSERT (the trigram index dropped first and built again after,
// with the definition the migration gave it), then VACUUM ANALYZE.
//
// Env: BENCH_DIRECTORY_ROWS (customers, default 1,000,000), BENCH_DIRECTORY_REQUESTS (measured
// calls per row and side, default 400), BENCH_DIRECTORY_WARMUP (per row and side, default 50),
// BENCH_DIRECTORY_CONCURRENCY (calls in flight, default 2: an interactive search, on a machine
// whose 2 cores the servers share with the bench).
import pg from 'pg';
import { fixedLoad, httpClient, interleavedLoads } from '../lib/fixed-load.mjs';
import { intFromEnv } from '../lib/env.mjs';
import { authHeaders, login, ownerOnDevInstance } from '../lib/identity.mjs';
import { downloadWatchingRss, psqlCopy } from '../lib/streams.mjs';

export const name = 'directory';

const OWNER = { email: 'directory-owner@bench.test', password: 'bench password 123' };
const PAGE_SIZE = 20;
const COUNT_CAP = 1000; // DIRECTORY_COUNT_CAP
const TARGET_P95_MS = 50;
const EXACT_COUNT_CALLS = 10;

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');
const mb = (bytes) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(1) : '—');

export const columns = [
  { key: 'query', label: 'query' },
  { key: 'count', label: 'count', align: 'right' },
  { key: 'titanP50', label: 'titan p50', align: 'right', format: ms },
  { key: 'titanP95', label: 'p95', align: 'right', format: ms },
  { key: 'titanP99', label: 'p99', align: 'right', format: ms },
  { key: 'sqlP50', label: 'raw sql p50', align: 'right', format: ms },
  { key: 'sqlP95', label: 'p95', align: 'right', format: ms },
  { key: 'sqlP99', label: 'p99', align: 'right', format: ms },
  { key: 'ratioP95', label: 'p95 titan/sql', align: 'right', format: x },
  { key: 'exactCountP50', label: 'exact count(*) p50', align: 'right', format: ms },
  { key: 'verdict', label: `target (p95 <= ${TARGET_P95_MS} ms)` },
];

const FIRST = `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard
  Susan Joseph Jessica Thomas Sarah Carlos Karen Ana Lucia Mohammed Fatima Wei Yuki Olga Ivan Priya Arjun
  Chen Sofia Mateo Emma Noah Olivia Liam Amara Kwame Ingrid Lars Hana Kenji Mira Omar Leila Diego Camila
  Tomasz Zofia`.split(/\s+/);
const LAST = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez
  Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark
  Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Goldstein Okafor
  Kowalski Tanaka Yamamoto Silva Santos Novak Petrov Larsen`.split(/\s+/);
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'shop.example', 'mail.test', 'proton.me'];
const sqlArray = (values) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** Customer g's phone digits (after +1), as the seed makes them. */
const phoneDigits = (g) => String(2000000000n + ((BigInt(g) * 7919n) % 7999999999n));

/** The rows: fragments people type, rare and common, of names, emails and phones. */
function scenarios(rows) {
  const g = Math.max(1, Math.floor(rows * 0.4242));
  const digits = phoneDigits(g);
  const first = FIRST[(g * 31) % 50].toLowerCase();
  const last = LAST[Math.floor((g * 17) / 7) % 50].toLowerCase();
  return [
    { query: 'no search', search: '' },
    { query: 'name, common: "goldst"', search: 'goldst' },
    { query: 'name, first + last: "mira gold"', search: 'mira gold' },
    { query: 'name, 2 characters: "mi"', search: 'mi' },
    { query: `email, one person: "${first}.${last}${g}"`, search: `${first}.${last}${g}` },
    { query: 'email, common: "okafor"', search: 'okafor' },
    { query: 'email, domain: "proton.me"', search: 'proton.me' },
    { query: `phone, 7 digits: "${digits.slice(-7)}"`, search: digits.slice(-7) },
    {
      query: `phone, as typed: "(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}"`,
      search: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
    },
    { query: 'phone, 4 digits: "7919"', search: '7919' },
  ];
}

const SEARCHABLE = `(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, ''))`;
const containing = (term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The raw SQL of a request: the page (one row more, to know a next page exists) and the count
 * stopped at the cap, as Titan runs them; and the exact count Titan does not run.
 */
function rawStatements(businessId, search) {
  const values = [businessId];
  let where = 'business_id = $1';
  if (search) {
    const patterns = [containing(search)];
    const digits = search.replace(/\D/g, '');
    if (/^[\d\s()+.-]+$/.test(search) && digits.length >= 3 && digits !== search)
      patterns.push(containing(digits));
    where += ` and (${patterns.map((p) => (values.push(p), `${SEARCHABLE} ilike $${values.length}`)).join(' or ')})`;
  }
  return {
    page: {
      text: `select id, name, email, phone, external_id, fields, email_status, sms_status, whatsapp_status,
          created_at, updated_at, last_seen_at,
          (select count(*)::int from conversations v where v.initiator_id = c.id and v.business_id = $1) as conversation_count
        from customers c where ${where} order by created_at desc, id desc limit ${PAGE_SIZE + 1}`,
      values,
    },
    count: {
      text: `select count(*)::int as n from (select 1 from customers where ${where} limit ${COUNT_CAP + 1}) m`,
      values,
    },
    exactCount: { text: `select count(*)::int as n from customers where ${where}`, values },
  };
}

async function runRaw(pool, stmts) {
  const [page, count] = await Promise.all([pool.query(stmts.page), pool.query(stmts.count)]);
  return { ids: page.rows.slice(0, PAGE_SIZE).map((r) => Number(r.id)), count: count.rows[0].n };
}

async function seed(client, businessId, rows, progress) {
  const [{ def }] = (
    await client.query(`select pg_get_indexdef('customers_search_trgm_idx'::regclass) as def`)
  ).rows;
  await client.query('drop index customers_search_trgm_idx');
  progress(`seeding ${rows.toLocaleString('en-US')} customers with generate_series`);
  await client.query('set synchronous_commit = off');
  await client.query(
    `insert into customers (business_id, name, email, phone, external_id, fields, email_status, sms_status,
        whatsapp_status, created_at, updated_at, last_seen_at)
     select $1, f || ' ' || l, lower(f) || '.' || lower(l) || g || '@' || (${sqlArray(DOMAINS)})[1 + g % ${DOMAINS.length}],
       '+1' || (2000000000 + (g::bigint * 7919) % 7999999999)::text,
       case when g % 3 = 0 then 'widget:' || g end,
       case when g % 4 = 0 then '{}'::jsonb else jsonb_build_object('plan', (array['free','pro','team'])[1 + g % 3],
         'city', (array['Lisbon','Berlin','Austin','Osaka','Lagos'])[1 + g % 5]) end,
       (array['subscribed','unknown','unsubscribed','unknown','bounced'])[1 + g % 5],
       (array['subscribed','unknown','unknown'])[1 + g % 3],
       (array['unknown','subscribed','complained','unknown'])[1 + g % 4],
       now() - ($2 - g) * interval '30 seconds', now(), now() - (g % 86400) * interval '1 minute'
     from generate_series(1, $2) g,
       lateral (select (${sqlArray(FIRST)})[1 + (g * 31) % 50] as f, (${sqlArray(LAST)})[1 + (g * 17 / 7) % 50] as l) n`,
    [businessId, rows],
  );
  progress('building the trigram index again');
  await client.query(`set maintenance_work_mem = '256MB'`);
  await client.query(def);
  progress('vacuum analyze');
  await client.query('vacuum analyze customers');
}

export async function run(ctx) {
  const rows = intFromEnv('BENCH_DIRECTORY_ROWS', 1_000_000);
  const requests = intFromEnv('BENCH_DIRECTORY_REQUESTS', 400);
  const warmup = intFromEnv('BENCH_DIRECTORY_WARMUP', 50, 0);
  const concurrency = intFromEnv('BENCH_DIRECTORY_CONCURRENCY', 2);
  const database = await ctx.database();
  if (database.kind !== 'postgres') {
    throw new Error(`directory needs PostgreSQL (COPY and psql): ${database.describe}`);
  }
  const notes = [`database: ${database.describe}`];

  const businessCode = await ownerOnDevInstance(
    ctx,
    database,
    { ...OWNER, firstName: 'Bench', lastName: 'Directory' },
    'Bench Directory Ltd',
  );

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());
  const [{ id: businessId }] = (
    await client.query('select id from businesses where unique_code = $1', [businessCode])
  ).rows;
  const seedStart = performance.now();
  await seed(client, Number(businessId), rows, ctx.progress);
  notes.push(
    `seeded ${rows.toLocaleString('en-US')} customers of one business in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  ctx.progress('starting titan');
  const titan = ctx.use(await ctx.startTitan(database));
  const session = await login(titan.url, OWNER.email, OWNER.password);
  const headers = authHeaders(session.access, businessCode);
  const http = httpClient(titan.url, { headers, sockets: concurrency });
  ctx.defer(() => http.close());
  const pool = new pg.Pool({ connectionString: database.url, max: 10, options: '-c jit=off' });
  ctx.defer(() => pool.end());

  // ---- search
  const table = [];
  for (const s of scenarios(rows)) {
    ctx.progress(`search: ${s.query}`);
    const path = `/api/business/customer-directory/?page_size=${PAGE_SIZE}${s.search ? `&search=${encodeURIComponent(s.search)}` : ''}`;
    const stmts = rawStatements(Number(businessId), s.search);
    const titanAnswer = JSON.parse((await http.get(path)).body).result;
    const sqlAnswer = await runRaw(pool, stmts);
    const exact = (await pool.query(stmts.exactCount)).rows[0].n;
    const titanIds = titanAnswer.results.map((v) => v.id);
    if (JSON.stringify(titanIds) !== JSON.stringify(sqlAnswer.ids))
      notes.push(`WARNING: ${s.query}: titan's page ${titanIds} differs from the SQL's ${sqlAnswer.ids}`);
    const figures = await interleavedLoads({
      sides: { titan: () => http.get(path), sql: () => runRaw(pool, stmts) },
      total: requests,
      rounds: 4,
      concurrency,
      warmup,
    });
    const t = figures.titan;
    const q = figures.sql;
    const exactCalls = await fixedLoad({
      total: EXACT_COUNT_CALLS,
      concurrency: 1,
      fn: () => pool.query(stmts.exactCount),
    });
    table.push({
      query: s.query,
      count: `${titanAnswer.count.toLocaleString('en-US')}${titanAnswer.count_capped ? '+' : ''} (${exact.toLocaleString('en-US')})`,
      titanP50: t.p50,
      titanP95: t.p95,
      titanP99: t.p99,
      sqlP50: q.p50,
      sqlP95: q.p95,
      sqlP99: q.p99,
      ratioP95: t.p95 / q.p95,
      exactCountP50: exactCalls.p50,
      verdict:
        t.errors || q.errors
          ? `errors: ${t.firstError ?? q.firstError}`
          : t.p95 <= TARGET_P95_MS
            ? 'met'
            : 'MISSED',
    });
  }
  notes.push(
    `search: ${requests} measured calls per row and side after ${warmup} warm-up, ${concurrency} in flight, the sides alternating in 4 rounds; ` +
      'count = titan\'s answer ("+" = capped) with the exact count in brackets; raw sql = titan\'s two ' +
      `statements (page, count stopped at ${COUNT_CAP + 1}) on a pg pool of 10, the planner left to itself; ` +
      `exact count(*) p50 = ${EXACT_COUNT_CALLS} calls one at a time of the count titan does not run`,
  );

  // ---- export
  ctx.progress(`downloading the CSV from titan (pid ${titan.pid})`);
  const {
    out: titanOut,
    seconds: titanS,
    rssBefore,
    peak,
    tenths,
  } = await downloadWatchingRss({
    url: `${titan.url}/api/business/customer-directory/download/`,
    headers,
    pid: titan.pid,
    expectedLines: rows + 1,
  });

  ctx.progress('COPY … TO STDOUT through psql');
  const iso = (c) => `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const copySql =
    `COPY (select id, name, email, phone, external_id, email_status, sms_status, whatsapp_status, ` +
    `${iso('created_at')}, ${iso('last_seen_at')}, nullif(fields::text, '{}') from customers ` +
    `where business_id = ${Number(businessId)} order by id) TO STDOUT WITH (FORMAT csv, HEADER)`;
  const { out: copyOut, seconds: copyS } = await psqlCopy(database.url, copySql);
  if (titanOut.lines !== rows + 1)
    notes.push(`WARNING: titan's CSV has ${titanOut.lines} lines, expected ${rows + 1}`);
  notes.push(
    `export: titan ${(rows / titanS).toFixed(0)} rows/s, ${mb(titanOut.bytes)} MiB in ${titanS.toFixed(2)} s; ` +
      `COPY ${mb(copyOut.bytes)} MiB in ${copyS.toFixed(2)} s; ratio ${x(titanS / copyS)}`,
    `export: titan RSS ${mb(rssBefore)} MiB before, peak ${mb(peak)} MiB (growth ${mb(peak - rssBefore)} MiB); ` +
      `at each tenth of the rows: ${tenths.map((b) => mb(b)).join(', ')} MiB`,
  );
  table.push({
    query: `export of every row: ms (titan GET … download/ vs COPY TO STDOUT)`,
    count: `${(titanOut.lines - 1).toLocaleString('en-US')}`,
    titanP50: titanS * 1000,
    sqlP50: copyS * 1000,
    ratioP95: titanS / copyS,
    verdict: `peak RSS ${mb(peak)} MiB`,
  });
  return {
    title: `directory — search and CSV export over ${rows.toLocaleString('en-US')} customers of one business`,
    rows: table,
    notes,
  };
}
