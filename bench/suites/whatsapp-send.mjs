// Outbound WhatsApp through the send spine: staff text replies POSTed to the built Titan server
// (`POST /api/whatsapp/conversations/{id}/messages/`), which records each send `queued` before the
// Graph call, claims it, calls the WhatsApp Cloud API simulator (tools/whatsapp-cloud-sim, in its
// own process, as Meta's Graph API) and in one transaction records it accepted with the stored
// message. Baseline in the same run: the same Graph calls made directly from the bench process —
// `POST {graph}/{phone_number_id}/messages` with the same bearer token and the same JSON body
// Titan sends — with the same client (undici), concurrency and count. Measured per side: sends/s
// (wall time of the measured calls) and latency p50/p95/p99 (call sent → whole answer read, in the
// bench process); the ratios titan/direct are the spine's cost (the record before the call, the
// claim, the accept transaction, and Titan's checks: session, conversation, 24-hour window).
// After the run every Titan send is checked in the bench database: one `sends` row accepted (or
// better) with a wamid, and one stored staff message with that wamid.
//
// Setup: a fresh database; the simulator; the owner signs up (Titan in development, for the mail
// outbox), then Titan runs as deployed by default (production, API and job workers in one
// process, WHATSAPP_GRAPH_URL at the simulator) and the owner connects the simulator's number.
// BENCH_WA_SEND_CONVERSATIONS customers each write once through the simulator's signed webhook
// (POST /sim/inbound → Titan's /api/whatsapp/webhook/), which opens their 24-hour window on both
// sides; the bench waits until Titan stored every conversation. Then the simulator's automatic
// statuses are switched off, so neither side's measurement is disturbed by sent/delivered/read
// webhooks (Titan's status processing is not what this suite measures); sends stay `accepted`.
// The sides run in alternating rounds (lib/fixed-load.mjs interleavedLoads), after a warm-up each.
//
// Target: >= 100 sends/s through the spine. Meta lets one number send 80 messages/s by default
// (up to 1,000 after its automatic upgrade): a Titan instance on 2 shared cores must at least keep
// one default number at Meta's limit, with headroom for the job workers and the inbox beside it.
//
// Env: BENCH_WA_SEND_COUNT (measured sends per side, default 2000), BENCH_WA_SEND_WARMUP (per side,
// default 200), BENCH_WA_SEND_CONCURRENCY (calls in flight, default 20), BENCH_WA_SEND_CONVERSATIONS
// (default 200), BENCH_WA_SEND_ROUNDS (alternating rounds, default 4).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Pool } from 'undici';
import { interleavedLoads } from '../lib/fixed-load.mjs';
import { apiCall, authHeaders, createBusiness, login, signUp } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';
import { freePort, spawnNode, stopProcess, waitUntilReady } from '../lib/processes.mjs';
import { REPO_ROOT } from '../lib/servers.mjs';

export const name = 'whatsapp-send';

const TARGET_SENDS_PER_S = 100;
const SIM_CLI = join(REPO_ROOT, 'tools', 'whatsapp-cloud-sim', 'src', 'cli.ts');
const WEBHOOK_PATH = '/api/whatsapp/webhook/';
const HOST = '127.0.0.1';

const OWNER = { email: 'bench.wasend@example.test', password: 'bench correct horse battery staple' };
const ACCOUNT = {
  phone_number_id: '106540352242923',
  waba_id: '102290129340399',
  display_phone_number: '15550783882',
  verify_token: 'bench-verify-token',
  access_token: 'EAAG-bench-send-access-token-00000000',
  app_secret: 'bench-meta-app-secret-send-0123456',
};
/** Accepted by Meta, or a later status of the same send. */
const ACCEPTED_OR_BETTER = ['accepted', 'sent', 'delivered', 'read'];

const TEXTS = [
  'Thanks for your message! Your order #10234 left our warehouse today.',
  'Grüße aus München 👋 — the new address is saved.',
  'Yes, we ship to Zürich / Genève: 2–3 working days.',
  'Merci ! Votre remboursement est en cours.',
  'Claro, tenemos la talla M en azul.',
  'We accept card and cash on delivery.',
];

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');
const perSec = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');
const byKind = (fmt) => (v, row) => (row.kind === 'ratio' ? ratio(v) : fmt(v));

export const columns = [
  { key: 'side', label: 'side' },
  { key: 'sends', label: 'sends', align: 'right' },
  { key: 'sendsPerSec', label: 'sends/s', align: 'right', format: byKind(perSec) },
  { key: 'p50', label: 'p50 ms', align: 'right', format: byKind(ms) },
  { key: 'p95', label: 'p95 ms', align: 'right', format: byKind(ms) },
  { key: 'p99', label: 'p99 ms', align: 'right', format: byKind(ms) },
  { key: 'check', label: 'check' },
  { key: 'verdict', label: `target (>= ${TARGET_SENDS_PER_S} sends/s, every send checked)` },
];

const sleep = (msec) => new Promise((r) => setTimeout(r, msec));

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux; else NaN). */
function cpuMsOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

/** wa_id of customer k: digits without "+", 13 long. */
const waIdOf = (k) => `49170${String(k).padStart(8, '0')}`;

// ---------------------------------------------------------------- processes

/** The simulator in its own process (TypeScript through tsx's loader), on a free port. */
async function startSim() {
  const port = await freePort(HOST);
  const proc = spawnNode('whatsapp cloud sim', SIM_CLI, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim(),
      SIM_HOST: HOST,
      SIM_PORT: String(port),
      SIM_ACCESS_TOKEN: ACCOUNT.access_token,
      SIM_APP_SECRET: ACCOUNT.app_secret,
      SIM_PHONE_NUMBER_ID: ACCOUNT.phone_number_id,
      SIM_WABA_ID: ACCOUNT.waba_id,
      SIM_DISPLAY_PHONE_NUMBER: ACCOUNT.display_phone_number,
    },
  });
  const url = `http://${HOST}:${port}`;
  const stop = () => stopProcess(proc);
  try {
    await waitUntilReady(proc, `${url}/sim/state`, { timeoutMs: 60_000 });
  } catch (err) {
    await stop();
    throw err;
  }
  return { label: 'whatsapp cloud sim', url, graphUrl: `${url}/v21.0`, pid: proc.child.pid, stop };
}

/** A JSON call to the simulator's control API. */
async function simCall(sim, path, body) {
  const res = await fetch(`${sim.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`simulator ${path} answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** POSTs JSON on keep-alive sockets (at most `sockets`); rejects unless the status is `expect`. */
function jsonPoster(baseUrl, { headers, sockets, expect }) {
  const pool = new Pool(baseUrl, { connections: sockets, pipelining: 1 });
  const post = async (path, body) => {
    const res = await pool.request({
      path,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    if (res.statusCode !== expect)
      throw new Error(`POST ${path} answered HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
    return text;
  };
  return { post, close: () => pool.destroy() };
}

/** Runs `fn(i)` for i in [0, n) with `concurrency` in flight. */
async function each(n, concurrency, fn) {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

// ---------------------------------------------------------------- setup

/** Simulator, fresh database, production Titan pointed at the simulator, owner with the number. */
async function prepare(ctx) {
  const database = await ctx.database();
  if (database.kind !== 'postgres') throw new Error(`this suite needs PostgreSQL: ${database.describe}`);
  ctx.progress('starting the WhatsApp Cloud API simulator');
  const sim = ctx.use(await startSim());
  const graphEnv = { WHATSAPP_GRAPH_URL: sim.graphUrl };

  ctx.progress(`database ${database.name}; signing up the owner (titan in development)`);
  const dev = await ctx.startTitan(database, { env: { ...graphEnv, NODE_ENV: 'development' } });
  let businessCode;
  try {
    const session = await signUp(dev.url, { ...OWNER, firstName: 'Bench', lastName: 'Sends' });
    businessCode = (await createBusiness(dev.url, session.access, 'Bench Sends Ltd')).unique_code;
  } finally {
    await dev.stop();
  }
  // Deployed shape: production, API and job workers in one process (RUN_WORKERS defaults to true).
  const titan = ctx.use(await ctx.startTitan(database, { env: { ...graphEnv, RUN_WORKERS: 'true' } }));
  const { access } = await login(titan.url, OWNER.email, OWNER.password);
  const headers = authHeaders(access, businessCode);
  await apiCall(titan.url, 'PUT', '/api/whatsapp/account/', { body: ACCOUNT, headers });
  await simCall(sim, '/sim/webhook-url', { url: `${titan.url}${WEBHOOK_PATH}` });

  const pool = new pg.Pool({
    connectionString: database.url,
    max: 1,
    application_name: 'titan-bench-wa-send',
  });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  return { database, sim, titan, headers, pool };
}

/**
 * Each customer writes once through the simulator (a signed webhook to Titan), which opens the
 * 24-hour window in Titan and in the simulator; resolves with the conversation ids once Titan's
 * job stored them all.
 */
async function openConversations(ctx, { sim, pool }, customers) {
  ctx.progress(`${customers} customers write once (signed webhooks through the simulator)`);
  await each(customers, 10, async (k) => {
    const { status } = await simCall(sim, '/sim/inbound', {
      from: waIdOf(k),
      name: `Customer ${k}`,
      type: 'text',
      text: `Hello, this is customer ${k}. Where is my order?`,
    });
    if (status !== 200)
      throw new Error(`Titan answered the inbound webhook of customer ${k} with HTTP ${status}`);
  });
  const deadline = performance.now() + 60_000;
  for (;;) {
    const { rows } = await pool.query(
      `select c.id::int as id
         from conversations c
         join customers cu on cu.id = c.initiator_id
        where c.channel = 'whatsapp'
          and exists (select 1 from wa_messages m where m.conversation_id = c.id and m.sender_type = 'customer')
        order by cu.external_id`,
    );
    if (rows.length >= customers) return rows.map((r) => r.id);
    if (performance.now() > deadline)
      throw new Error(
        `only ${rows.length} of ${customers} conversations stored 60 s after the inbound webhooks`,
      );
    await sleep(100);
  }
}

// ---------------------------------------------------------------- the check

/** Every Titan send: one sends row accepted (or better) with a wamid, one staff message with it. */
async function checkSends(pool, expected) {
  const [s] = (
    await pool.query(
      `select count(*)::int as sends,
              count(*) filter (where s.status = any($1))::int as accepted,
              count(s.provider_message_id)::int as with_wamid,
              count(distinct s.provider_message_id)::int as distinct_wamids,
              count(m.id)::int as with_message
         from sends s
         left join wa_messages m
           on m.business_id = s.business_id and m.id = s.provider_message_id and m.sender_type = 'staff'
        where s.channel = 'whatsapp'`,
      [ACCEPTED_OR_BETTER],
    )
  ).rows;
  const { rows: states } = await pool.query(
    `select status, count(*)::int as n from sends where channel = 'whatsapp' group by status order by status`,
  );
  const [{ n: staffMessages }] = (
    await pool.query(`select count(*)::int as n from wa_messages where sender_type = 'staff'`)
  ).rows;
  const ok =
    s.sends === expected &&
    s.accepted === expected &&
    s.with_wamid === expected &&
    s.distinct_wamids === expected &&
    s.with_message === expected &&
    staffMessages === expected;
  return {
    ok,
    expected,
    ...s,
    staffMessages,
    states: Object.fromEntries(states.map((r) => [r.status, r.n])),
  };
}

// ---------------------------------------------------------------- the suite

export async function run(ctx) {
  const total = intFromEnv('BENCH_WA_SEND_COUNT', 2_000);
  const warmup = intFromEnv('BENCH_WA_SEND_WARMUP', 200, 0);
  const concurrency = intFromEnv('BENCH_WA_SEND_CONCURRENCY', 20);
  const customers = intFromEnv('BENCH_WA_SEND_CONVERSATIONS', 200);
  const rounds = intFromEnv('BENCH_WA_SEND_ROUNDS', 4);
  const notes = [];

  const setup = await prepare(ctx);
  const { database, sim, titan, headers, pool } = setup;
  const conversations = await openConversations(ctx, setup, customers);
  // Statuses would post 3 webhooks per send to Titan during both sides' measurements.
  await simCall(sim, '/sim/switches', { autoStatuses: false });
  const simBefore = (await simCall(sim, '/sim/state')).outbound.length;

  const titanClient = jsonPoster(titan.url, { headers, sockets: concurrency, expect: 201 });
  ctx.defer(() => titanClient.close());
  const graph = new URL(sim.graphUrl);
  const directClient = jsonPoster(graph.origin, {
    headers: { authorization: `Bearer ${ACCOUNT.access_token}` },
    sockets: concurrency,
    expect: 200,
  });
  ctx.defer(() => directClient.close());
  const directPath = `${graph.pathname}/${ACCOUNT.phone_number_id}/messages`;

  // Call i of a side goes to conversation (customer) i mod customers, with text i mod TEXTS.
  let titanNext = 0;
  let directNext = 0;
  const sides = {
    titan: () => {
      const i = titanNext++;
      return titanClient.post(
        `/api/whatsapp/conversations/${conversations[i % conversations.length]}/messages/`,
        JSON.stringify({ type: 'text', text: { body: TEXTS[i % TEXTS.length] } }),
      );
    },
    direct: async () => {
      const i = directNext++;
      // What Titan's GraphClient sends: messaging_product, recipient_type, then the send's
      // provider request ({ to, type, text }).
      const text = await directClient.post(
        directPath,
        JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: waIdOf(i % customers),
          type: 'text',
          text: { body: TEXTS[i % TEXTS.length] },
        }),
      );
      if (!JSON.parse(text).messages?.[0]?.id) throw new Error(`the Graph answered without a wamid: ${text}`);
    },
  };
  ctx.progress(
    `sending ${warmup} warm-up + ${total} measured text messages per side over ${customers} conversations, ` +
      `${concurrency} in flight, ${rounds} alternating rounds`,
  );
  const cpu0 = { titan: cpuMsOf(titan.pid), sim: cpuMsOf(sim.pid), bench: process.cpuUsage() };
  const m = await interleavedLoads({ sides, total, rounds, concurrency, warmup });
  const bench = process.cpuUsage(cpu0.bench);
  // Titan's process works for the titan side only (no statuses come back); the simulator and the
  // bench process serve both sides.
  const cpu = {
    titanMsPerSend: (cpuMsOf(titan.pid) - cpu0.titan) / titanNext,
    simMsPerCall: (cpuMsOf(sim.pid) - cpu0.sim) / (titanNext + directNext),
    benchMsPerCall: (bench.user + bench.system) / 1000 / (titanNext + directNext),
  };
  titanClient.close();
  directClient.close();

  const check = await checkSends(pool, titanNext);
  const simSends = (await simCall(sim, '/sim/state')).outbound.length - simBefore;
  const simOk = simSends === titanNext + directNext;
  await titan.stop();
  await sim.stop();

  const t = m.titan;
  const d = m.direct;
  const misses = [];
  if (t.errors > 0) misses.push(`${t.errors} failed sends`);
  if (!(t.callsPerSec >= TARGET_SENDS_PER_S)) misses.push('sends/s');
  if (!check.ok) misses.push('check');
  if (!simOk) misses.push('simulator count');
  const checkText = check.ok
    ? `${check.sends} sends accepted, ${check.staffMessages} messages`
    : `FAILED: ${check.accepted}/${check.expected} accepted, ${check.with_message} with message`;

  for (const [label, s] of [
    ['titan', t],
    ['direct', d],
  ]) {
    if (s.errors > 0) notes.push(`WARNING ${label}: ${s.errors} calls failed (${s.firstError})`);
  }
  notes.push(
    `check: ${titanNext} sends POSTed to Titan (warm-up included) → sends rows ${check.sends}, accepted or better ` +
      `${check.accepted}, with a wamid ${check.with_wamid} (${check.distinct_wamids} distinct), with their staff ` +
      `message ${check.with_message}; staff messages ${check.staffMessages}; sends by status ` +
      `${JSON.stringify(check.states)} — ${check.ok ? 'ok' : 'FAILED'}`,
    `CPU per call over the measured phase (warm-up included), from /proc: Titan's process ` +
      `${cpu.titanMsPerSend.toFixed(2)} ms per send (titan side only), the simulator ${cpu.simMsPerCall.toFixed(2)} ms ` +
      `and the bench process ${cpu.benchMsPerCall.toFixed(2)} ms per call (both sides); PostgreSQL's share is not ` +
      'counted (the server is shared with other databases)',
    `simulator: ${simSends} sends received = ${titanNext} through Titan + ${directNext} direct — ${simOk ? 'ok' : 'MISMATCH'}`,
    `titan: apps/server/dist/main.js, NODE_ENV=production, LOG_LEVEL=warn, API and job workers in one process ` +
      `(RUN_WORKERS=true), default pool, WHATSAPP_GRAPH_URL at the simulator; ${database.describe.replace(/, fresh database .*$/, '')}`,
    `load: ${concurrency} calls in flight on undici keep-alive pools in the bench process, ${warmup} warm-up calls per ` +
      `side, then ${total} per side in ${rounds} alternating rounds; a call = POST sent → whole answer read ` +
      `(Titan: 201 with the stored message; direct: 200 with the wamid); sends/s = calls / wall time of that side's rounds`,
    `direct: POST ${sim.graphUrl}/${ACCOUNT.phone_number_id}/messages with the number's bearer token and Titan's ` +
      'body ({messaging_product, recipient_type, to, type: text, text}) to the same customers; titan: ' +
      `POST /api/whatsapp/conversations/{id}/messages/ {type: text, text: {body}} over ${customers} conversations ` +
      'whose customer wrote first (24-hour window open)',
    'simulator: tools/whatsapp-cloud-sim in its own process; its automatic statuses switched off for the sends (no ' +
      'sent/delivered/read webhooks during the measurement), no throughput or pair-rate limits (Meta: 80 msgs/s ' +
      'per number by default, up to 1,000; about 1 per 6 s to one user) — this measures what Titan can push, not ' +
      'what Meta lets through',
    `target: >= ${TARGET_SENDS_PER_S} sends/s through the spine (a default number sends at most 80 msgs/s on Meta), ` +
      "every send checked; titan/direct = the spine's cost per send (checks, record before the call, claim, accept " +
      'transaction)',
  );

  return {
    title:
      `whatsapp-send — staff text replies through the send spine vs the same Graph calls direct, ` +
      `${concurrency} in flight (${total.toLocaleString('en-US')} sends per side)`,
    rows: [
      {
        side: 'titan (spine)',
        kind: 'titan',
        sends: t.count,
        sendsPerSec: t.callsPerSec,
        p50: t.p50,
        p90: t.p90,
        p95: t.p95,
        p99: t.p99,
        max: t.max,
        mean: t.mean,
        wallS: t.wallS,
        errors: t.errors,
        firstError: t.firstError,
        check: checkText,
        checkDetail: check,
        simulatorSends: simSends,
        cpu,
        verdict: misses.length === 0 ? 'ok' : `MISS: ${misses.join(', ')}`,
      },
      {
        side: 'direct Graph',
        kind: 'direct',
        sends: d.count,
        sendsPerSec: d.callsPerSec,
        p50: d.p50,
        p90: d.p90,
        p95: d.p95,
        p99: d.p99,
        max: d.max,
        mean: d.mean,
        wallS: d.wallS,
        errors: d.errors,
        firstError: d.firstError,
      },
      {
        side: 'titan/direct',
        kind: 'ratio',
        sendsPerSec: t.callsPerSec / d.callsPerSec,
        p50: t.p50 / d.p50,
        p95: t.p95 / d.p95,
        p99: t.p99 / d.p99,
      },
    ],
    notes,
  };
}
