// The CSV download of the email log (GET /api/email/events/download/) over 1,000,000 email sends:
// Titan streams it from a server-side cursor, so its memory must stay flat — the Titan process's
// resident memory is sampled every 25 ms from /proc during the download (peak and growth reported,
// and the RSS at each tenth of the rows) — and its time is set beside PostgreSQL's own
// `COPY (select …) TO STDOUT` of the same rows and columns through psql (the floor: no HTTP, no
// formatting in JavaScript).
import pg from 'pg';
import { authHeaders, ownerOnDevInstance } from '../lib/identity.mjs';
import { watchBackendCpu } from '../lib/pg-cpu.mjs';
import { cpuSeconds, mb, mibColumn, rowsColumns } from '../lib/rows-table.mjs';
import { downloadWatchingRss, psqlCopy } from '../lib/streams.mjs';

export const name = 'email-events-csv';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const OWNER = { email: 'csv-owner@bench.test', password: 'bench password 123' };

export const columns = [
  ...rowsColumns([{ key: 'mib', label: 'MiB', align: 'right', format: (v) => mb(v * 2 ** 20) }]),
  mibColumn('rssGrowthMiB', 'RSS growth MiB'),
];

export async function run(ctx) {
  const database = await ctx.database();
  if (database.kind !== 'postgres') {
    throw new Error(`email-events-csv needs PostgreSQL (a cursor, COPY and psql): ${database.describe}`);
  }
  const notes = [`database: ${database.describe}`];

  const businessCode = await ownerOnDevInstance(
    ctx,
    database,
    { ...OWNER, firstName: 'Bench', lastName: 'Csv' },
    'Bench Csv Ltd',
  );

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());
  const { rows: biz } = await client.query(
    `select b.id, u.id as user_id from businesses b join users u on u.email = $2 where b.unique_code = $1`,
    [businessCode, OWNER.email],
  );
  const { id: businessId, user_id: userId } = biz[0];
  ctx.progress(`seeding ${ROWS.toLocaleString()} email sends with generate_series`);
  const seedStart = performance.now();
  await client.query('set synchronous_commit = off');
  await client.query(
    `insert into sends (business_id, channel, cause, recipient, subject, template_name, status,
        provider_message_id, error_code, error_message, created_by, created_at, updated_at)
     select $1, 'email', 'broadcast', 'reader' || g || '@example.test',
       'Your March newsletter, issue ' || (g % 97), 'newsletter-' || (g % 13),
       (array['sent','delivered','opened','clicked','bounced','opened','sent','clicked'])[1 + g % 8],
       '<' || g || '.bench@shop.example>',
       case when g % 8 = 4 then '550' end,
       case when g % 8 = 4 then '550 5.1.1 <reader' || g || '@example.test>: Recipient address rejected' end,
       $2, now() - (g % 2592000) * interval '1 second', now() - (g % 2592000) * interval '1 second'
     from generate_series(1, $3) g`,
    [businessId, userId, ROWS],
  );
  await client.query('analyze sends');
  notes.push(
    `seeded ${ROWS.toLocaleString()} email sends in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  ctx.progress('starting titan');
  const titan = ctx.use(await ctx.startTitan(database));
  const { access } = await (
    await fetch(`${titan.url}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(OWNER),
    })
  )
    .json()
    .then((b) => b.result);

  // Titan: the whole log as CSV, memory sampled as it streams.
  ctx.progress(`downloading the CSV from titan (pid ${titan.pid})`);
  // CPU of the download: Titan's process and this database's backends (the cursor's).
  const backends = await watchBackendCpu(database.url);
  ctx.defer(() => backends.end());
  const sampling = setInterval(() => void backends.sample().catch(() => {}), 250);
  const titanCpu0 = cpuSeconds(titan.pid);
  const {
    out: titanOut,
    seconds: titanS,
    rssBefore,
    peak,
    tenths,
  } = await downloadWatchingRss({
    url: `${titan.url}/api/email/events/download/`,
    headers: authHeaders(access, businessCode),
    pid: titan.pid,
    expectedLines: ROWS + 1,
  });
  const titanCpuS = cpuSeconds(titan.pid) - titanCpu0;
  clearInterval(sampling);
  await backends.sample();
  const titanPgCpuS = backends.total();
  await titan.stop();

  // The floor: COPY of the same rows and columns, newest first, through psql.
  ctx.progress('COPY … TO STDOUT through psql');
  const copySql =
    `COPY (select s.id, to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ` +
    `to_char(s.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), s.recipient, s.subject, ` +
    `s.template_name, s.status, s.error_code, s.error_message, s.provider_message_id, ` +
    `trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) ` +
    `from sends s left join users u on u.id = s.created_by where s.business_id = ${Number(businessId)} ` +
    `and s.channel = 'email' order by s.created_at desc, s.id desc) TO STDOUT WITH (FORMAT csv, HEADER)`;
  const { out: copyOut, seconds: copyS } = await psqlCopy(database.url, copySql);

  if (titanOut.lines !== ROWS + 1)
    notes.push(`WARNING: titan's CSV has ${titanOut.lines} lines, expected ${ROWS + 1}`);
  if (copyOut.lines !== ROWS + 1)
    notes.push(`WARNING: COPY wrote ${copyOut.lines} lines, expected ${ROWS + 1}`);
  notes.push(
    `titan RSS: ${mb(rssBefore)} MiB before the download, peak ${mb(peak)} MiB; at each tenth of the rows: ` +
      tenths.map((b) => mb(b)).join(', ') +
      ' MiB',
    'titan: NODE_ENV=production, RUN_WORKERS=false, default pool; one GET with the owner session, read to the end by fetch in this process',
    `CPU of the download (from /proc; the machine's cores are shared, so seconds are noisy and CPU is the steadier ` +
      `figure): titan ${titanCpuS.toFixed(1)} s (${((titanCpuS * 1e6) / ROWS).toFixed(1)} µs a row), its PostgreSQL ` +
      `backend ${titanPgCpuS.toFixed(1)} s (${((titanPgCpuS * 1e6) / ROWS).toFixed(1)} µs a row)`,
  );
  const row = (side, out, seconds, peakB, growthB) => ({
    side,
    kind: 'measured',
    rows: out.lines - 1,
    mib: out.bytes / 2 ** 20,
    seconds,
    rowsPerSec: (out.lines - 1) / seconds,
    peakRssMiB: peakB === null ? null : peakB / 2 ** 20,
    rssGrowthMiB: growthB === null ? null : growthB / 2 ** 20,
  });
  return {
    title: `email-events-csv — CSV download of ${ROWS.toLocaleString()} email sends vs COPY TO STDOUT`,
    rows: [
      row('titan GET /api/email/events/download/', titanOut, titanS, peak, peak - rssBefore),
      row('COPY (select …) TO STDOUT (psql)', copyOut, copyS, null, null),
      {
        side: 'ratio titan/COPY',
        kind: 'ratio',
        rows: titanOut.lines - 1,
        mib: titanOut.bytes / copyOut.bytes,
        seconds: titanS / copyS,
        rowsPerSec: copyS / titanS,
        peakRssMiB: null,
        rssGrowthMiB: null,
      },
    ],
    notes,
  };
}
