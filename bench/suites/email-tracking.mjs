// The email tracking endpoints under load: GET /t/o/{token}.gif (open pixel) and GET /t/c/{token}
// (click redirect) on the built Titan — HMAC verified in-process, the hit buffered and written in
// batches through the send spine — beside a bare node:http server answering the same GIF and 302
// without verifying or recording anything (the floor). Tokens are signed here with the APP_SECRET
// Titan is started with (the same HKDF purpose and format as modules/email-tracking), spread over
// 2,000 seeded email sends. Target: ≥ 5,000 req/s with p99 ≤ 20 ms for each endpoint.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { Samples } from '../lib/load.mjs';
import { watchBackendCpu } from '../lib/pg-cpu.mjs';
import { cpuSeconds } from '../lib/rows-table.mjs';

export const name = 'email-tracking';

const SENDS = 2_000;
const TARGET_RPS = 5_000;
const TARGET_P99_MS = 20;
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');
const perSec = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');

export const columns = [
  { key: 'server', label: 'server' },
  { key: 'endpoint', label: 'endpoint' },
  {
    key: 'reqPerSec',
    label: 'req/s',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? ratio(v) : perSec(v)),
  },
  {
    key: 'p50Ms',
    label: 'p50 ms',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? ratio(v) : ms(v)),
  },
  {
    key: 'p99Ms',
    label: 'p99 ms',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? ratio(v) : ms(v)),
  },
  {
    key: 'cpuUs',
    label: 'server CPU µs/req',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? ratio(v) : Number.isFinite(v) ? Math.round(v).toString() : '—'),
  },
  {
    key: 'pgCpuUs',
    label: 'PostgreSQL CPU µs/req',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? '' : Number.isFinite(v) ? Math.round(v).toString() : '—'),
  },
  { key: 'target', label: 'target', format: (v) => String(v) },
];

// ---- tokens, as apps/server/src/modules/email-tracking/email-tracking.tokens.ts makes them ----

function trackingKey(appSecret) {
  return Buffer.from(hkdfSync('sha256', appSecret, 'titan', 'email-tracking-v1', 32));
}

function signToken(key, kind, sendId, url = '') {
  const body = Buffer.concat([
    Buffer.from([1, kind === 'open' ? 0x6f : 0x63]),
    Buffer.from(sendId.replaceAll('-', ''), 'hex'),
    Buffer.from(url, 'utf8'),
  ]);
  const tag = createHmac('sha256', key).update(body).digest().subarray(0, 16);
  return Buffer.concat([body, tag]).toString('base64url');
}

// ---- load: autocannon cycling over many paths, counting 200 (pixel) and 302 (click) as answered ----

const running = new Set();

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

async function load(ctx, { base, paths, okStatus, method = 'GET', pid, backends }) {
  const { connections, durationS, warmupS } = ctx.settings;
  let next = 0;
  let answered = 0;
  const options = {
    url: base,
    connections,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        method,
        headers: { 'user-agent': CHROME },
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
      },
    ],
  };
  const count = (_c, status) => {
    if (status === okStatus) answered++;
  };
  if (warmupS > 0) await runOnce({ ...options, duration: warmupS }, count);
  const latencies = new Samples();
  let measured = 0;
  // CPU of the measured window: the server's process (all its threads) and, for Titan, this
  // database's PostgreSQL backends (the buffered events' statements, written within ~10 ms).
  await backends?.reset();
  const cpu0 = cpuSeconds(pid);
  const result = await runOnce({ ...options, duration: durationS }, (c, status, bytes, t) => {
    count(c, status, bytes, t);
    if (status === okStatus) {
      measured++;
      latencies.push(t);
    }
  });
  const cpuS = cpuSeconds(pid) - cpu0;
  await new Promise((r) => setTimeout(r, 100));
  await backends?.sample();
  const [p50, p90, p99] = latencies.percentiles(50, 90, 99);
  return {
    cpuUs: (cpuS * 1e6) / measured,
    pgCpuUs: backends ? (backends.total() * 1e6) / measured : NaN,
    answered,
    measured,
    reqPerSec: measured / result.duration,
    latencyMs: { p50, p90, p99 },
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, s]) => [k, s.count])),
  };
}

export async function run(ctx) {
  const database = await ctx.database();
  if (database.kind !== 'postgres') {
    throw new Error(`email-tracking needs PostgreSQL (seeds sends with SQL): ${database.describe}`);
  }
  const notes = [
    `database: ${database.describe}`,
    `titan: apps/server/dist/main.js, NODE_ENV=production, LOG_LEVEL=warn, RUN_WORKERS=false; ${SENDS.toLocaleString()} ` +
      'email sends seeded (sent an hour ago), each hit a different send in turn, user agent a desktop Chrome ' +
      '(human hits: each raises its send); autocannon in this process, ' +
      `${ctx.settings.connections} connections, ${ctx.settings.warmupS} s warm-up + ${ctx.settings.durationS} s measured per row`,
    'bare: bench/servers/bare-tracking.mjs, node:http answering the same GIF and 302 with no verification and no recording',
    'CPU per answered request in the measured window, from /proc: the server process (all threads) and, for Titan, ' +
      "this database's PostgreSQL backends (the machine's two cores are shared: wall-clock rates are noisy, CPU per " +
      'request is the steadier figure)',
  ];
  const appSecret = randomBytes(36).toString('base64url');
  const key = trackingKey(appSecret);

  // One server at a time: the bare floor first.
  ctx.progress('starting bare tracking server');
  const bare = ctx.use(await ctx.startBareTracking());
  const sampleIds = Array.from({ length: SENDS }, () => {
    const h = randomBytes(16).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
  });
  const pathsFor = (ids) => ({
    open: ids.map((id) => `/t/o/${signToken(key, 'open', id)}.gif`),
    click: ids.map(
      (id, i) =>
        `/t/c/${signToken(key, 'click', id, `https://shop.example/products/${i}?utm_source=email&utm_campaign=bench`)}`,
    ),
  });
  const bareP = pathsFor(sampleIds);
  ctx.progress('measuring bare open');
  const bareOpen = await load(ctx, { base: bare.url, paths: bareP.open, okStatus: 200, pid: bare.pid });
  ctx.progress('measuring bare click');
  const bareClick = await load(ctx, { base: bare.url, paths: bareP.click, okStatus: 302, pid: bare.pid });
  await bare.stop();

  ctx.progress('starting titan');
  const titan = ctx.use(await ctx.startTitan(database, { env: { APP_SECRET: appSecret } }));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());
  const { rows: biz } = await client.query(
    `insert into businesses (name, unique_code) values ('Bench Tracking', 'bench-tracking-' || md5(random()::text)) returning id`,
  );
  const { rows: seeded } = await client.query(
    `insert into sends (business_id, channel, cause, recipient, subject, status, provider_message_id, claimed_at, created_at)
     select $1, 'email', 'broadcast', 'reader' || g || '@example.test', 'Bench mail', 'sent',
       '<bench-' || g || '@shop.example>', now() - interval '1 hour', now() - interval '1 hour'
     from generate_series(1, $2) g returning id`,
    [biz[0].id, SENDS],
  );
  const ids = seeded.map((r) => r.id);
  const paths = pathsFor(ids);

  // Sanity: the signed redirect goes where it was signed for, a forged one is refused.
  const check = await fetch(`${titan.url}${paths.click[0]}`, {
    redirect: 'manual',
    headers: { 'user-agent': CHROME },
  });
  if (
    check.status !== 302 ||
    check.headers.get('location') !== 'https://shop.example/products/0?utm_source=email&utm_campaign=bench'
  ) {
    throw new Error(`titan answered the click with ${check.status} ${check.headers.get('location')}`);
  }
  const forged = await fetch(`${titan.url}${paths.click[0].slice(0, -3)}AAA`, { redirect: 'manual' });
  if (forged.status !== 404) throw new Error(`a forged click answered ${forged.status}, not 404`);

  ctx.progress(`measuring titan open at ${titan.url} (pid ${titan.pid})`);
  const backends = await watchBackendCpu(database.url);
  ctx.defer(() => backends.end());
  const on = { pid: titan.pid, backends };
  const titanOpen = await load(ctx, { base: titan.url, paths: paths.open, okStatus: 200, ...on });
  ctx.progress('measuring titan click');
  const titanClick = await load(ctx, { base: titan.url, paths: paths.click, okStatus: 302, ...on });

  // Every answered hit is a row once the buffer drained (it flushes every few ms).
  await new Promise((r) => setTimeout(r, 1_000));
  const { rows: counted } = await client.query(
    `select type, count(*)::int as n, count(*) filter (where (payload->>'machine')::boolean)::int as machine
     from send_events e join sends s on s.id = e.send_id where s.business_id = $1 group by type`,
    [biz[0].id],
  );
  const byType = Object.fromEntries(counted.map((r) => [r.type, r]));
  const { rows: statuses } = await client.query(
    `select status, count(*)::int as n from sends where business_id = $1 group by status order by status`,
    [biz[0].id],
  );
  const openedRows = byType.opened?.n ?? 0;
  const clickedRows = byType.clicked?.n ?? 0;
  // +1: the sanity click above.
  const expectedClicks = titanClick.answered + 1;
  notes.push(
    `recorded: ${openedRows.toLocaleString()} opened events for ${titanOpen.answered.toLocaleString()} pixels answered ` +
      `(warm-up included), ${clickedRows.toLocaleString()} clicked events for ${expectedClicks.toLocaleString()} redirects; ` +
      `sends now ${statuses.map((s) => `${s.status} ${s.n}`).join(', ')}`,
  );
  // Requests still in flight when an autocannon run stops are answered (and recorded) but not
  // counted by autocannon: up to one per connection per run (warm-up and measured).
  const slack = 2 * ctx.settings.connections;
  const within = (rows, answered) => rows >= answered && rows <= answered + slack;
  if (!within(openedRows, titanOpen.answered) || !within(clickedRows, expectedClicks)) {
    notes.push(
      `WARNING: events recorded differ from hits answered by more than the ${slack} requests in flight`,
    );
  } else {
    notes.push(
      `check: every answered hit is recorded (differences ≤ ${slack}: requests in flight when a run stopped)`,
    );
  }
  for (const [label, m] of [
    ['titan open', titanOpen],
    ['titan click', titanClick],
    ['bare open', bareOpen],
    ['bare click', bareClick],
  ]) {
    if (m.errors + m.timeouts > 0 || Object.keys(m.statusCodes).length > 1) {
      notes.push(
        `WARNING: ${label}: ${m.errors} errors, ${m.timeouts} timeouts, status codes ${JSON.stringify(m.statusCodes)}`,
      );
    }
  }
  await titan.stop();

  const verdict = (m) =>
    m.reqPerSec >= TARGET_RPS && m.latencyMs.p99 <= TARGET_P99_MS
      ? 'met'
      : `MISSED (≥ ${TARGET_RPS}/s, p99 ≤ ${TARGET_P99_MS} ms)`;
  const row = (server, endpoint, m, target = '') => ({
    server,
    endpoint,
    kind: 'measured',
    reqPerSec: m.reqPerSec,
    p50Ms: m.latencyMs.p50,
    p99Ms: m.latencyMs.p99,
    p90Ms: m.latencyMs.p90,
    cpuUs: m.cpuUs,
    pgCpuUs: m.pgCpuUs,
    target,
    statusCodes: m.statusCodes,
  });
  const ratioRow = (endpoint, t, b) => ({
    server: 'ratio titan/bare',
    endpoint,
    kind: 'ratio',
    reqPerSec: t.reqPerSec / b.reqPerSec,
    p50Ms: t.latencyMs.p50 / b.latencyMs.p50,
    p99Ms: t.latencyMs.p99 / b.latencyMs.p99,
    cpuUs: t.cpuUs / b.cpuUs,
    target: '',
  });
  return {
    title: `email-tracking — open pixel and click redirect vs bare node:http (${ctx.settings.connections} connections, ${ctx.settings.durationS} s)`,
    rows: [
      row('titan', 'GET /t/o/{token}.gif', titanOpen, verdict(titanOpen)),
      row('bare node:http', 'GET /t/o/{token}.gif', bareOpen),
      ratioRow('open', titanOpen, bareOpen),
      row('titan', 'GET /t/c/{token}', titanClick, verdict(titanClick)),
      row('bare node:http', 'GET /t/c/{token}', bareClick),
      ratioRow('click', titanClick, bareClick),
    ],
    notes,
  };
}
