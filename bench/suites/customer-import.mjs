// A CSV import of 1,000,000 customers end to end through the HTTP API (POST
// /api/business/customer-directory/import/, then the job to its end, read on GET …/imports/{id}/),
// on PostgreSQL: a generated file with realistic columns and 1% bad rows (bad email, bad phone, no
// contact, a repeated email). Titan's rows/s (upload to `done`) and its resident memory — sampled
// every 25 ms from /proc, peak and RSS at each tenth of the rows, so a flat line shows the file is
// streamed, not held —, beside the floor: PostgreSQL's own `COPY … FROM STDIN` of the same file
// through psql, then the same checks in SQL (email shape, phone digits, a contact, repeats in the
// file) inserting the good rows into the same indexed `customers` table, emptied first. Targets are
// ratios to that floor, measured in the same run, so they hold on any machine; rows/s is information.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, openAsBlob, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import pg from 'pg';
import { authHeaders, createBusiness, login, signUp } from '../lib/identity.mjs';
import { cpuSeconds, mb, rowsColumns, rssBytes, secs } from '../lib/rows-table.mjs';

export const name = 'customer-import';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
/** Titan's time over the floor's (COPY + the checks in SQL into the same table), same run. */
const TARGET_RATIO = 3;
/** Titan's peak resident memory above its own before the upload, whatever the file's length. */
const TARGET_RSS_GROWTH_MIB = 100;
const OWNER = { email: 'import-owner@bench.test', password: 'bench password 123' };

const s = secs;

export const columns = [...rowsColumns(), { key: 'target', label: 'target', format: (v) => v ?? '' }];

const FIRST = [
  'Amelia',
  'Oliver',
  'Isla',
  'George',
  'Ava',
  'Noah',
  'Mia',
  'Arthur',
  'Zoë',
  'Léo',
  'Sofía',
  'Jürgen',
  'Priya',
  'Wei',
  'Aisha',
  'Mateo',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Davies',
  'Evans',
  'Müller',
  'García',
  "O'Brien",
  'Nguyen',
  'Kowalski',
  'Patel',
  'Rossi',
  'Dubois',
];
const CITIES = [
  'London',
  'Manchester',
  'Leeds',
  'Bristol',
  'Glasgow',
  'Cardiff',
  'Belfast',
  'York',
  'Brighton',
  'Oxford',
];
const PLANS = ['free', 'starter', 'pro', 'business'];
const csvCell = (v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * The file: first_name,last_name,email,phone,city,plan,signed_up,notes. Every 100th row is bad in
 * one of four ways (the 1%): an invalid email, an invalid phone, no contact at all, or the email of
 * the row before (a duplicate, skipped). A third of the rows have no phone; phones are UK mobiles
 * written in three ways; some notes are quoted with commas.
 */
async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  const expected = { failed: 0, skipped: 0 };
  let chunk = 'first_name,last_name,email,phone,city,plan,signed_up,notes\n';
  for (let i = 1; i <= rows; i++) {
    const first = FIRST[i % FIRST.length];
    const last = LAST[(i >> 4) % LAST.length];
    let email = `${first.toLowerCase().replace(/[^a-z]/g, '')}.${last.toLowerCase().replace(/[^a-z]/g, '')}.${i}@example.com`;
    const n = String(i % 1_000_000).padStart(6, '0');
    let phone =
      i % 3 === 0
        ? ''
        : i % 3 === 1
          ? `+44 7950 ${n}`
          : i % 2
            ? `+447950${n}`
            : `+44 (0)7950 ${n.slice(0, 3)} ${n.slice(3)}`;
    if (i % 100 === 37) {
      const kind = (i / 100) | 0;
      if (kind % 4 === 0) {
        email = `${first}.at.example.com`;
        expected.failed++;
      } else if (kind % 4 === 1) {
        phone = '+44 12';
        expected.failed++;
      } else if (kind % 4 === 2) {
        email = '';
        phone = '';
        expected.failed++;
      } else {
        email = `${FIRST[(i - 1) % FIRST.length].toLowerCase().replace(/[^a-z]/g, '')}.${LAST[((i - 1) >> 4) % LAST.length].toLowerCase().replace(/[^a-z]/g, '')}.${i - 1}@EXAMPLE.com`;
        phone = '';
        expected.skipped++;
      }
    }
    const day = new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
    const notes = i % 7 === 0 ? csvCell(`Met at ${CITIES[i % 10]}, stand ${i % 40}`) : '';
    chunk += `${first},${csvCell(last)},${email},${phone},${CITIES[i % CITIES.length]},${PLANS[i % 4]},${day},${notes}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return expected;
}

export async function run(ctx) {
  const database = await ctx.database();
  if (database.kind !== 'postgres') {
    throw new Error(`customer-import needs PostgreSQL (COPY and psql): ${database.describe}`);
  }
  const notes = [`database: ${database.describe}`];
  const dir = await mkdtemp(join(tmpdir(), 'titan-bench-import-'));
  ctx.defer(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'customers.csv');

  ctx.progress(`writing a ${ROWS.toLocaleString()}-row CSV`);
  const expected = await writeCsv(file, ROWS);
  const bytes = statSync(file).size;
  notes.push(
    `file: ${ROWS.toLocaleString()} rows, ${mb(bytes)} MiB, columns first_name,last_name,email,phone,city,plan,signed_up,notes; ` +
      `${expected.failed.toLocaleString()} bad rows (invalid email, invalid phone, no contact) and ${expected.skipped.toLocaleString()} repeated emails`,
  );

  ctx.progress('signing up the owner on a development instance');
  const dev = await ctx.startTitan(database, { env: { NODE_ENV: 'development' } });
  let businessCode;
  try {
    const session = await signUp(dev.url, { ...OWNER, firstName: 'Bench', lastName: 'Import' });
    businessCode = (await createBusiness(dev.url, session.access, 'Bench Import Ltd')).unique_code;
  } finally {
    await dev.stop();
  }

  // Deployed shape: production, API and job workers in one process.
  ctx.progress('starting titan (RUN_WORKERS=true)');
  const titan = ctx.use(await ctx.startTitan(database, { env: { RUN_WORKERS: 'true' } }));
  let headers = authHeaders((await login(titan.url, OWNER.email, OWNER.password)).access, businessCode);

  const rssBefore = rssBytes(titan.pid);
  const cpuBefore = cpuSeconds(titan.pid);
  let peak = rssBefore;
  let peakDuringJob = 0;
  let accepted = false;
  const sampler = setInterval(() => {
    try {
      const now = rssBytes(titan.pid);
      peak = Math.max(peak, now);
      if (accepted) peakDuringJob = Math.max(peakDuringJob, now);
    } catch {
      // exited
    }
  }, 25);
  ctx.defer(() => clearInterval(sampler));

  // PostgreSQL's CPU for this database: its backends (Titan's pool) found in pg_stat_activity on
  // every poll, each one's CPU from /proc read then (a backend that closes mid-run loses its tail).
  const watcher = new pg.Client({ connectionString: database.url });
  await watcher.connect();
  ctx.defer(() => watcher.end());
  const backends = new Map();
  const readBackends = async () => {
    const { rows } = await watcher.query(
      `select pid, coalesce(nullif(application_name, ''), backend_type) as who from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`,
    );
    for (const { pid, who } of rows) {
      try {
        const now = cpuSeconds(pid);
        const known = backends.get(pid);
        backends.set(pid, { who, first: known?.first ?? now, last: now });
      } catch {
        // gone, or not on this machine
      }
    }
  };
  await readBackends();

  ctx.progress(`POST the file to titan (pid ${titan.pid}) and wait for the import to end`);
  const t0 = performance.now();
  const form = new FormData();
  form.append('mode', 'skip');
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'customers.csv');
  const res = await fetch(`${titan.url}/api/business/customer-directory/import/`, {
    method: 'POST',
    headers,
    body: form,
  });
  const body = await res.json();
  if (res.status !== 202) throw new Error(`import answered HTTP ${res.status}: ${JSON.stringify(body)}`);
  const uploadS = (performance.now() - t0) / 1000;
  accepted = true;
  const rssAccepted = rssBytes(titan.pid);
  const id = body.result.id;
  const tenths = [];
  let imp;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const poll = await fetch(`${titan.url}/api/business/customer-directory/imports/${id}/`, { headers });
    // An access token lives 15 minutes: a slow run logs in again.
    if (poll.status === 401) {
      headers = authHeaders((await login(titan.url, OWNER.email, OWNER.password)).access, businessCode);
      continue;
    }
    if (poll.status !== 200)
      throw new Error(`GET the import answered HTTP ${poll.status}: ${await poll.text()}`);
    imp = (await poll.json()).result;
    while (tenths.length < 10 && imp.processed_rows >= ((tenths.length + 1) * ROWS) / 10)
      tenths.push(rssBytes(titan.pid));
    await readBackends();
    if (imp.status === 'done' || imp.status === 'failed') break;
    ctx.progress(`${imp.status}: ${imp.processed_rows.toLocaleString()} rows`);
  }
  const titanS = (performance.now() - t0) / 1000;
  const titanCpuS = cpuSeconds(titan.pid) - cpuBefore;
  const pgCpuS = [...backends.values()].reduce((sum, b) => sum + b.last - b.first, 0);
  const pgCpuBy = new Map();
  for (const b of backends.values()) pgCpuBy.set(b.who, (pgCpuBy.get(b.who) ?? 0) + b.last - b.first);
  const jobS = (Date.parse(imp.finished_at) - Date.parse(imp.created_at)) / 1000;
  clearInterval(sampler);
  if (imp.status !== 'done') throw new Error(`the import failed: ${imp.error}`);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());
  const { rows: counted } = await client.query(`select count(*)::int as n from customers`);
  const checks = [
    ['processed_rows', imp.processed_rows, ROWS],
    ['failed', imp.failed, expected.failed],
    ['skipped', imp.skipped, expected.skipped],
    ['inserted', imp.inserted, ROWS - expected.failed - expected.skipped],
    ['customers in the table', counted[0].n, ROWS - expected.failed - expected.skipped],
  ];
  for (const [what, got, want] of checks)
    if (got !== want) notes.push(`WARNING: ${what} is ${got}, expected ${want}`);
  const errorsCsv = await fetch(`${titan.url}${imp.errors_url}`, { headers });
  const errorLines = (await errorsCsv.text()).trim().split('\r\n').length - 1;
  if (errorLines !== expected.failed + expected.skipped)
    notes.push(
      `WARNING: the errors CSV has ${errorLines} rows, expected ${expected.failed + expected.skipped}`,
    );
  await titan.stop();

  // The floor: the same rows through COPY into a staging table, then checked in SQL as Titan checks
  // them (email shape, phone digits, a contact, the first of a repeated email) and inserted into the
  // same customers table with all its indexes (emptied first), for the same business.
  ctx.progress('the floor: COPY … FROM STDIN, then the checks in SQL into customers');
  const { rows: biz } = await client.query('select id from businesses where unique_code = $1', [
    businessCode,
  ]);
  await client.query('truncate customers cascade');
  await client.query(`create unlogged table bench_import_stage (first_name text, last_name text,
    email text, phone text, city text, plan text, signed_up text, notes text, n bigserial)`);
  const c0 = performance.now();
  const psql = spawn(
    'psql',
    [
      database.url,
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      'COPY bench_import_stage (first_name, last_name, email, phone, city, plan, signed_up, notes) FROM STDIN WITH (FORMAT csv, HEADER)',
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let psqlErr = '';
  psql.stderr.on('data', (d) => (psqlErr += d));
  createReadStream(file).pipe(psql.stdin);
  const code = await new Promise((r) => psql.on('close', r));
  if (code !== 0) throw new Error(`psql COPY failed (${code}): ${psqlErr}`);
  const copyS = (performance.now() - c0) / 1000;
  const { rowCount: floorInserted } = await client.query(
    `with v as (
       select n, nullif(concat_ws(' ', nullif(first_name, ''), nullif(last_name, '')), '') as name,
         lower(nullif(trim(email), '')) as email,
         case when nullif(trim(phone), '') is null then null
           else '+' || regexp_replace(replace(phone, '(0)', ''), '[^0-9]', '', 'g') end as phone,
         jsonb_strip_nulls(jsonb_build_object('city', nullif(city, ''), 'plan', nullif(plan, ''),
           'signed_up', nullif(signed_up, ''), 'notes', nullif(notes, ''))) as fields
       from bench_import_stage),
     good as (
       select * from v
       where (email is null or email ~ '^[^@[:space:]]+@[^@[:space:]]+[.][^@[:space:]]+$')
         and (phone is null or phone ~ '^[+][1-9][0-9]{9,14}$')
         and (email is not null or phone is not null)),
     firsts as (
       select *, row_number() over (partition by coalesce(email, phone) order by n) as nth from good)
     insert into customers (business_id, name, email, phone, fields)
     select $1, name, email, phone, fields from firsts where nth = 1 order by n`,
    [biz[0].id],
  );
  const floorS = (performance.now() - c0) / 1000;
  if (floorInserted !== ROWS - expected.failed - expected.skipped)
    notes.push(
      `WARNING: the floor inserted ${floorInserted} rows, expected ${ROWS - expected.failed - expected.skipped}`,
    );

  const rowsPerSec = ROWS / titanS;
  const ratio = titanS / floorS;
  const growthMiB = (peak - rssBefore) / 2 ** 20;
  notes.push(
    `floor: COPY into a staging table ${s(copyS)} s, then the checks in SQL and the insert into customers ` +
      `(its B-tree and trigram GIN indexes, the business's foreign key) ${s(floorS - copyS)} s: ${floorS.toFixed(2)} s in all`,
    `targets (ratios, same run): titan's time ≤ ${TARGET_RATIO}× the floor's — ${ratio.toFixed(2)}× ` +
      `${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}; peak RSS growth ${growthMiB.toFixed(0)} MiB ` +
      `(< ${TARGET_RSS_GROWTH_MIB} MiB: ${growthMiB < TARGET_RSS_GROWTH_MIB ? 'met' : 'MISSED'}); ` +
      `${Math.round(rowsPerSec).toLocaleString('en-US')} rows/s is information (it depends on the machine)`,
  );
  notes.push(
    `titan: upload (POST until 202: the file stored, its header checked) ${s(uploadS)} s; import job created → done ${s(jobS)} s; ` +
      `counts inserted ${imp.inserted.toLocaleString()}, updated ${imp.updated}, skipped ${imp.skipped.toLocaleString()}, failed ${imp.failed.toLocaleString()}; ` +
      `errors CSV ${errorLines.toLocaleString()} rows`,
    `CPU: titan's process ${s(titanCpuS)} s (${((titanCpuS / ROWS) * 1e6).toFixed(1)} µs a row), this database's PostgreSQL backends ` +
      `${s(pgCpuS)} s (${((pgCpuS / ROWS) * 1e6).toFixed(1)} µs a row: ${[...pgCpuBy].map(([who, cpu]) => `${who} ${s(cpu)} s`).join(', ')}); on two otherwise idle cores, with reading and ` +
      `writing overlapped, the import could not go faster than ${Math.round(ROWS / Math.max(titanCpuS, pgCpuS, (titanCpuS + pgCpuS) / 2)).toLocaleString('en-US')} rows/s; ` +
      `the wall time above also counts whatever else the machine ran (load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end)`,
    `titan RSS: ${mb(rssBefore)} MiB before the upload, ${mb(rssAccepted)} MiB when it was accepted, peak ${mb(peak)} MiB ` +
      `(${mb(peakDuringJob)} MiB while the job ran); at each tenth of the rows: ${tenths.map(mb).join(', ')} MiB`,
    'titan: apps/server/dist/main.js, NODE_ENV=production, RUN_WORKERS=true (API and job in one process), default pool; ' +
      'mode skip on an empty directory; progress read by GET every 100 ms',
  );
  return {
    title: `customer-import — ${ROWS.toLocaleString()}-row CSV through the import API vs COPY FROM STDIN`,
    rows: [
      {
        side: 'titan POST …/import/ → done',
        kind: 'measured',
        rows: ROWS,
        seconds: titanS,
        rowsPerSec,
        peakRssMiB: peak / 2 ** 20,
        target: `≤ ${TARGET_RATIO}× the floor: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}; RSS +${growthMiB.toFixed(0)} MiB (< ${TARGET_RSS_GROWTH_MIB}): ${growthMiB < TARGET_RSS_GROWTH_MIB ? 'met' : 'MISSED'}`,
      },
      {
        side: 'floor: COPY + checks in SQL into customers',
        kind: 'measured',
        rows: ROWS,
        seconds: floorS,
        rowsPerSec: ROWS / floorS,
        peakRssMiB: null,
      },
      {
        side: 'ratio titan/floor',
        kind: 'ratio',
        rows: ROWS,
        seconds: ratio,
        rowsPerSec: floorS / titanS,
        peakRssMiB: null,
      },
    ],
    notes,
  };
}
