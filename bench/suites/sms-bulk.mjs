// Bulk SMS end to end with Twilio's status callbacks: one text to every customer of a list through
// the built Titan server — POST /api/agents/send-sms/ {list_id, body} answers 202 with the batch; the
// broadcast fans the list out into `sends` rows (queued, segments counted, suppression checked,
// idempotency key), the `sms.send` job claims them in chunks and posts each to tools/sms-sim
// (Twilio's Messages API: form POST, basic auth), which answers 201 and then posts signed `sent`
// and `delivered` status callbacks back to Titan, each checked (X-Twilio-Signature) and applied to
// its send monotonically — until the simulator holds every message and every send row says
// `delivered`.
//
// Measured: sends/s (the POST until Twilio has accepted every text), delivered/s (until every send
// is `delivered`), and the status callbacks Titan processed per second with their p99 ack (the
// simulator times each callback's answer). Baselines in the same run, without Titan: the bench
// process creating the same number of messages directly at the simulator (keep-alive, 64 in
// flight), with their status callbacks answered by a bare node:http receiver (204 at once).
//
// Env: BENCH_SMS_COUNT (texts, default 10000), BENCH_SMS_IN_FLIGHT (direct calls at once, 64).
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Agent, fetch as undiciFetch } from 'undici';
import { apiCall, authHeaders, createBusiness, login, signUp } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';
import { freePort, spawnNode, stopProcess, waitUntilReady } from '../lib/processes.mjs';
import { REPO_ROOT } from '../lib/servers.mjs';

export const name = 'sms-bulk';

const TARGET_SENDS = 500;
const TARGET_CALLBACKS = 1000;
const TARGET_P99_MS = 250;
const HOST = '127.0.0.1';
const OWNER = { email: 'bench.sms@example.test', password: 'bench correct horse battery staple' };
const SIM_CLI = join(REPO_ROOT, 'tools', 'sms-sim', 'src', 'cli.ts');
const ACCOUNT = {
  sid: 'ACbe0cbe0cbe0cbe0cbe0cbe0cbe0cbe0c',
  token: 'bench-auth-token-0123456789abcdef',
  number: '+15550100900',
};
const BODY = 'Flash sale: 20% off everything until midnight. Show this text in store. Reply STOP to opt out.';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const perSec = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');
const secs = (v) => (Number.isFinite(v) ? v.toFixed(1) : '—');
const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)}` : '—');

export const columns = [
  { key: 'side', label: 'side' },
  { key: 'texts', label: 'texts', align: 'right' },
  { key: 'sendSeconds', label: 'send s', align: 'right', format: secs },
  { key: 'sendsPerSec', label: 'sends/s', align: 'right', format: perSec },
  { key: 'deliveredSeconds', label: 'delivered s', align: 'right', format: secs },
  { key: 'callbacks', label: 'callbacks', align: 'right' },
  { key: 'callbacksPerSec', label: 'callbacks/s', align: 'right', format: perSec },
  { key: 'p50', label: 'ack p50 ms', align: 'right', format: ms },
  { key: 'p99', label: 'ack p99 ms', align: 'right', format: ms },
  { key: 'check', label: 'check' },
  {
    key: 'verdict',
    label: `target (>= ${TARGET_SENDS} sends/s, >= ${TARGET_CALLBACKS} callbacks/s, p99 ack <= ${TARGET_P99_MS} ms)`,
  },
];

async function simStats(url) {
  return (await fetch(`${url}/sim/stats`)).json();
}

function callbackRate(stats) {
  const span = (stats.last_callback_at - stats.first_callback_at) / 1000;
  return span > 0 ? stats.callbacks / span : NaN;
}

export async function run(ctx) {
  const count = intFromEnv('BENCH_SMS_COUNT', 10_000);
  const inFlight = intFromEnv('BENCH_SMS_IN_FLIGHT', 64);
  const database = await ctx.database();
  if (database.kind !== 'postgres') throw new Error(`this suite needs PostgreSQL: ${database.describe}`);

  ctx.progress('starting the Twilio simulator');
  const simPort = await freePort();
  const simUrl = `http://${HOST}:${simPort}`;
  const simProc = spawnNode('sms sim', SIM_CLI, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim(),
      SIM_PORT: String(simPort),
      SIM_HOST: HOST,
      SIM_ACCOUNT_SID: ACCOUNT.sid,
      SIM_AUTH_TOKEN: ACCOUNT.token,
      SIM_NUMBERS: ACCOUNT.number,
      SIM_STATUS_DELAY_MS: '0',
    },
  });
  try {
    await waitUntilReady(simProc, `${simUrl}/sim/stats`, { timeoutMs: 60_000 });
  } catch (err) {
    await stopProcess(simProc);
    throw err;
  }
  ctx.use({ label: 'sms sim', pid: simProc.child.pid, stop: () => stopProcess(simProc) });

  ctx.progress(`database ${database.name}; signing up the owner (titan in development)`);
  const dev = await ctx.startTitan(database, { env: { NODE_ENV: 'development' } });
  let businessCode;
  try {
    const session = await signUp(dev.url, { ...OWNER, firstName: 'Bench', lastName: 'Sms' });
    businessCode = (await createBusiness(dev.url, session.access, 'Bench SMS Ltd')).unique_code;
  } finally {
    await dev.stop();
  }
  const titan = ctx.use(
    await ctx.startTitan(database, {
      env: { SMS_API_URL: simUrl, RUN_WORKERS: 'true', LOG_LEVEL: 'warn' },
    }),
  );
  const { access } = await login(titan.url, OWNER.email, OWNER.password);
  const headers = authHeaders(access, businessCode);
  await apiCall(titan.url, 'PUT', '/api/sms/account/', {
    body: { account_sid: ACCOUNT.sid, auth_token: ACCOUNT.token, from_number: ACCOUNT.number },
    headers,
  });
  const list = (
    await apiCall(titan.url, 'POST', '/api/business/customer-lists/', {
      body: { name: 'Everyone' },
      headers,
      expect: [201],
    })
  ).result;

  ctx.progress(`seeding ${count.toLocaleString('en-US')} customers with mobile numbers into the list`);
  const pool = new pg.Pool({ connectionString: database.url, max: 2, application_name: 'titan-bench-sms' });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const {
    rows: [biz],
  } = await pool.query('select id from businesses where unique_code = $1', [businessCode]);
  await pool.query(
    `with c as (
       insert into customers (business_id, name, phone)
       select $1, 'Customer ' || g, '+1415' || lpad(g::text, 7, '0')
       from generate_series(1, $2) g returning id)
     insert into customer_list_members (list_id, customer_id) select $3, id from c`,
    [biz.id, count, list.id],
  );
  await pool.query('analyze customers; analyze customer_list_members');

  // ---- titan
  await fetch(`${simUrl}/sim/reset`, { method: 'POST' });
  ctx.progress(`titan: texting the list of ${count.toLocaleString('en-US')} (queued → accepted → delivered)`);
  const t0 = performance.now();
  const batch = (
    await apiCall(titan.url, 'POST', '/api/agents/send-sms/', {
      body: { list_id: list.id, body: BODY },
      headers,
      expect: [202],
    })
  ).result;
  let sentSeconds = NaN;
  let progressAt = 0;
  for (;;) {
    const stats = await simStats(simUrl);
    if (Number.isNaN(sentSeconds) && stats.messages >= count) sentSeconds = (performance.now() - t0) / 1000;
    const { rows } = await pool.query(
      `select count(*) filter (where status = 'delivered')::int as delivered,
         count(*) filter (where status in ('failed', 'suppressed', 'cancelled'))::int as ended
       from sends where cause_id = $1`,
      [batch.batch_id],
    );
    if (rows[0].delivered + rows[0].ended >= count) break;
    if (performance.now() - t0 > 30 * 60_000)
      throw new Error(`titan: ${rows[0].delivered} of ${count} delivered after 30 minutes`);
    if (performance.now() - progressAt > 10_000) {
      progressAt = performance.now();
      ctx.progress(`titan: ${stats.messages} at Twilio, ${rows[0].delivered} delivered`);
    }
    await sleep(100);
  }
  const deliveredSeconds = (performance.now() - t0) / 1000;
  // The last callbacks' answers are recorded once Titan has answered them.
  await sleep(500);
  const titanStats = await simStats(simUrl);
  const { rows: checkRows } = await pool.query(
    `select count(*)::int as n, count(distinct customer_id)::int as customers,
       count(distinct provider_message_id)::int as sids,
       count(*) filter (where status = 'delivered')::int as delivered,
       (select count(*)::int from send_events e join sends s on s.id = e.send_id or
          (e.business_id = s.business_id and e.channel = 'sms' and e.provider_message_id = s.provider_message_id)
        where s.cause_id = $1) as events,
       (select sms_count from businesses where id = $2) as sms_count
     from sends where cause_id = $1`,
    [batch.batch_id, biz.id],
  );
  const check = checkRows[0];
  const titanOk =
    check.n === count &&
    check.customers === count &&
    check.sids === count &&
    check.delivered === count &&
    check.sms_count === count &&
    titanStats.messages === count &&
    titanStats.callbacks === 2 * count &&
    titanStats.callback_failures === 0;
  await titan.stop();

  // ---- the floor: the same texts created directly at the simulator, callbacks to a bare receiver
  ctx.progress(
    `floor: ${count.toLocaleString('en-US')} direct Messages.json calls, callbacks to a bare receiver`,
  );
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise((r) => receiver.listen(0, HOST, r));
  ctx.defer(() => new Promise((r) => receiver.close(r)));
  const callbackUrl = `http://${HOST}:${receiver.address().port}/status`;
  await fetch(`${simUrl}/sim/reset`, { method: 'POST' });
  const dispatcher = new Agent({ connections: inFlight, keepAliveTimeout: 30_000 });
  ctx.defer(() => dispatcher.close());
  const auth = `Basic ${Buffer.from(`${ACCOUNT.sid}:${ACCOUNT.token}`).toString('base64')}`;
  const f0 = performance.now();
  let next = 0;
  let refused = 0;
  const worker = async () => {
    while (next < count) {
      const i = ++next;
      const res = await undiciFetch(`${simUrl}/2010-04-01/Accounts/${ACCOUNT.sid}/Messages.json`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          To: `+1415${String(i).padStart(7, '0')}`,
          From: ACCOUNT.number,
          Body: BODY,
          StatusCallback: callbackUrl,
        }).toString(),
      });
      await res.arrayBuffer();
      if (res.status !== 201) refused++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const floorSendSeconds = (performance.now() - f0) / 1000;
  let floorStats;
  for (;;) {
    floorStats = await simStats(simUrl);
    if (floorStats.callbacks >= 2 * count || performance.now() - f0 > 10 * 60_000) break;
    await sleep(100);
  }
  const floorDeliveredSeconds = (performance.now() - f0) / 1000;

  const titanSendRate = count / sentSeconds;
  const titanCallbackRate = callbackRate(titanStats);
  const misses = [];
  if (!(titanSendRate >= TARGET_SENDS)) misses.push('sends/s');
  if (!(titanCallbackRate >= TARGET_CALLBACKS)) misses.push('callbacks/s');
  if (!(titanStats.callback_p99_ms <= TARGET_P99_MS)) misses.push('p99 ack');
  if (!titanOk) misses.push('check');
  ctx.note(
    `titan: apps/server/dist/main.js, NODE_ENV=production, API and job workers in one process, SMS_API_URL at ` +
      `tools/sms-sim (its own process; callbacks posted as each message moves, 64 keep-alive sockets); sends/s from the ` +
      `POST until the simulator held every message; delivered when every send row said delivered`,
  );
  ctx.note(
    `check: ${check.n} sends for ${check.customers} customers, ${check.sids} distinct SIDs, ${check.delivered} ` +
      `delivered, ${check.events} status events, sms_count ${check.sms_count}; simulator: ${titanStats.messages} ` +
      `messages, ${titanStats.callbacks} callbacks, ${titanStats.callback_failures} refused — ${titanOk ? 'ok' : 'FAILED'}`,
  );
  ctx.note(
    `floor: the bench process posting the same form to the simulator, ${inFlight} in flight on keep-alive ` +
      `connections (${refused} refused); its callbacks answered 204 by a bare node:http receiver`,
  );
  return {
    title: `sms-bulk — ${count.toLocaleString('en-US')} texts to a list through the spine, with Twilio's signed status callbacks`,
    rows: [
      {
        side: 'titan (list → sends → Twilio API → callbacks)',
        texts: count,
        sendSeconds: sentSeconds,
        sendsPerSec: titanSendRate,
        deliveredSeconds,
        callbacks: titanStats.callbacks,
        callbacksPerSec: titanCallbackRate,
        p50: titanStats.callback_p50_ms,
        p99: titanStats.callback_p99_ms,
        check: titanOk ? 'ok' : 'FAILED',
        verdict: misses.length ? `MISS: ${misses.join(', ')}` : 'ok',
      },
      {
        side: 'floor (direct to the simulator)',
        texts: count,
        sendSeconds: floorSendSeconds,
        sendsPerSec: count / floorSendSeconds,
        deliveredSeconds: floorDeliveredSeconds,
        callbacks: floorStats.callbacks,
        callbacksPerSec: callbackRate(floorStats),
        p50: floorStats.callback_p50_ms,
        p99: floorStats.callback_p99_ms,
        check: refused === 0 ? 'ok' : `${refused} refused`,
        verdict: '',
      },
    ],
    misses,
  };
}
