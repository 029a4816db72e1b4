// Webhook delivery (issue 34): 100,000 events in the outbox of one business with one endpoint,
// delivered signed by Titan's worker (RUN_WORKERS=true) to a local receiver
// (bench/servers/webhook-receiver.mjs, its own process). The events are committed in one statement
// shaped as the outbox write (apps/server/src/modules/webhooks/webhooks.repository.ts insertEvents:
// an event row and a delivery row each), so Titan's figure is its delivery loop alone: claim with
// skip locked, sign, post through the SSRF gate, record the outcome.
//
// Three measures:
// - throughput: events delivered per second, from the commit to the last arrival; the floor, in
//   the same run, is a bare HTTP poster (fetch, keep-alive) posting the same bodies to the same
//   receiver with the same number of requests in flight (Titan's loop: 4 passes × 100). Target:
//   Titan ≥ 0.5× the floor.
// - lateness: events committed at a steady pace (half Titan's measured rate, in commits of 20),
//   each one's arrival minus its commit. Target: p99 ≤ 1 s.
// - memory: Titan's RSS sampled every 100 ms while it drains the 100,000; growth over its start.
//   Target: ≤ 100 MiB. A warm-up of 1,000 events goes first (code compiled, connections open).
// Checked: every event arrived exactly once (distinct webhook-ids = events, no repeats), every
// delivery is `delivered`, and sampled requests carry a valid Standard Webhooks signature.
//
// Titan runs with NODE_ENV=development: the SSRF gate refuses loopback receivers in production
// (apps/server/src/platform/safe-fetch.ts outboundGuarded), and the receiver is on 127.0.0.1.
// LOG_LEVEL=warn as in production; nothing else on the delivery path differs.
import { createHmac } from 'node:crypto';
import pg from 'pg';
import { apiCall, authHeaders, login, signUp } from '../lib/identity.mjs';
import { rssBytes } from '../lib/rows-table.mjs';
import { startWebhookReceiver } from '../lib/servers.mjs';

export const name = 'webhook-delivery';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 100_000);
const PACED = Number(process.env.BENCH_WEBHOOK_PACED ?? 2_000);
const IN_FLIGHT = 400;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 1_000;
const TARGET_RSS_MIB = 100;
const OWNER = { email: 'hooks@bench.example.com', password: 'bench-password-123', firstName: 'Bench' };

const num = (v) => (typeof v === 'number' ? Math.round(v).toLocaleString('en-US') : (v ?? ''));
export const columns = [
  { key: 'side', label: 'side' },
  { key: 'events', label: 'events', align: 'right', format: num },
  {
    key: 'seconds',
    label: 'seconds',
    align: 'right',
    format: (v) => (typeof v === 'number' ? v.toFixed(2) : ''),
  },
  { key: 'perSec', label: 'events/s', align: 'right', format: num },
  { key: 'p50', label: 'p50 ms', align: 'right', format: num },
  { key: 'p99', label: 'p99 ms', align: 'right', format: num },
  {
    key: 'rss',
    label: 'RSS growth MiB',
    align: 'right',
    format: (v) => (typeof v === 'number' ? v.toFixed(1) : ''),
  },
  { key: 'check', label: 'check' },
  { key: 'verdict', label: 'target' },
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function receiverCall(receiver, path, body) {
  const res = await fetch(`${receiver.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Commits `n` events (and a delivery each) as the outbox write does; answers their ids. */
async function commitEvents(client, businessId, endpointId, n, tag) {
  const { rows } = await client.query(
    `with e as (
       insert into webhook_events (id, business_id, type, payload)
       select gen_random_uuid(), $1, 'customer.updated',
         jsonb_build_object('type', 'customer.updated', 'timestamp', now(),
           'data', jsonb_build_object('id', i, 'name', 'Customer ' || i, 'email', 'c' || i || '@example.com',
             'phone', '+4479' || lpad(i::text, 8, '0'), 'tag', $4::text))
       from generate_series(1, $3::int) i
       returning id
     )
     insert into webhook_deliveries (endpoint_id, event_id, business_id, event_type, object_key)
     select $2, e.id, $1, 'customer.updated', null from e
     returning event_id`,
    [businessId, endpointId, n, tag],
  );
  return rows.map((r) => `msg_${r.event_id.replaceAll('-', '')}`);
}

async function waitForArrivals(receiver, n, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await receiverCall(receiver, '/stats');
    if (stats.distinct >= n) return stats;
    if (Date.now() > deadline) throw new Error(`only ${stats.distinct} of ${n} webhooks arrived in time`);
    await sleep(50);
  }
}

/** The bare poster: the same bodies to the same receiver, IN_FLIGHT at a time. */
async function bareFloor(receiver, n) {
  const body = (i) =>
    JSON.stringify({
      type: 'customer.updated',
      timestamp: new Date().toISOString(),
      data: {
        id: i,
        name: `Customer ${i}`,
        email: `c${i}@example.com`,
        phone: `+4479${String(i).padStart(8, '0')}`,
        tag: 'floor',
      },
    });
  let next = 0;
  const rssStart = process.memoryUsage().rss;
  let rssPeak = rssStart;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) {
        const i = next++;
        const res = await fetch(`${receiver.url}/hook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': `floor_${i}` },
          body: body(i),
        });
        await res.text();
      }
    }),
  );
  clearInterval(sampler);
  return { seconds: (performance.now() - t0) / 1000, rssGrowth: (rssPeak - rssStart) / 2 ** 20 };
}

function verifySample(sample, secret) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const { headers, body } = sample;
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest('base64');
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .includes(`v1,${expected}`);
}

export async function run(ctx) {
  const database = await ctx.database();
  if (database.kind !== 'postgres')
    throw new Error(`webhook-delivery needs PostgreSQL: ${database.describe}`);
  const notes = [`database: ${database.describe}`];

  const receiver = ctx.use(await startWebhookReceiver());
  ctx.progress('starting titan (development for a loopback receiver, RUN_WORKERS=true)');
  const titan = ctx.use(
    await ctx.startTitan(database, {
      env: { NODE_ENV: 'development', RUN_WORKERS: 'true', LOG_LEVEL: 'warn' },
    }),
  );
  const session = await signUp(titan.url, OWNER);
  const business = (
    await apiCall(titan.url, 'POST', '/api/business/', {
      body: { name: 'Bench Hooks Ltd' },
      headers: authHeaders(session.access),
      expect: [201],
    })
  ).result;
  const { access } = await login(titan.url, OWNER.email, OWNER.password);
  const endpoint = (
    await apiCall(titan.url, 'POST', '/api/webhooks/endpoints/', {
      body: { url: `${receiver.url}/hook`, event_types: ['customer.updated'] },
      headers: authHeaders(access, business.unique_code),
      expect: [201],
    })
  ).result;

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());

  // ---- throughput and memory
  // Warm-up: a first thousand delivered (code paths compiled, pools and connections open).
  ctx.progress('titan: warming up with 1,000 events');
  await commitEvents(client, business.id, endpoint.id, 1_000, 'warm-up');
  await waitForArrivals(receiver, 1_000, 120_000);
  await receiverCall(receiver, '/reset', {});
  await sleep(500);

  ctx.progress(`titan: ${EVENTS.toLocaleString('en-US')} events committed at once, delivered by the worker`);
  const rssStart = rssBytes(titan.pid);
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    try {
      rssPeak = Math.max(rssPeak, rssBytes(titan.pid));
    } catch {
      // the process is gone; the run fails below
    }
  }, 100);
  const committedAt = Date.now();
  await commitEvents(client, business.id, endpoint.id, EVENTS, 'bulk');
  const committed = Date.now();
  let stats;
  try {
    stats = await waitForArrivals(receiver, EVENTS, 600_000);
  } finally {
    clearInterval(sampler);
  }
  const titanSeconds = (stats.lastAt - committed) / 1000;
  const samples = stats.samples;
  const signed = samples.filter((s) => verifySample(s, endpoint.secret)).length;
  // The receiver's 200s are recorded in the pass's closing transaction: wait for the last ones.
  let undelivered = 0;
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query(
      `select count(*)::int as n from webhook_deliveries where endpoint_id = $1 and status <> 'delivered'`,
      [endpoint.id],
    );
    undelivered = rows[0].n;
    if (undelivered === 0) break;
    await sleep(100);
  }
  const titanProblems = [];
  if (stats.repeats > 0) titanProblems.push(`${stats.repeats} repeated deliveries`);
  if (stats.distinct !== EVENTS) titanProblems.push(`${stats.distinct} distinct of ${EVENTS}`);
  if (undelivered > 0) titanProblems.push(`${undelivered} deliveries not marked delivered`);
  if (signed !== samples.length)
    titanProblems.push(`${samples.length - signed} of ${samples.length} sampled signatures invalid`);
  const rssGrowthMib = (rssPeak - rssStart) / 2 ** 20;

  // ---- lateness at a steady pace
  const titanRate = EVENTS / titanSeconds;
  const pace = Math.max(50, Math.round(titanRate / 2));
  const perCommit = 20;
  ctx.progress(`titan: ${PACED.toLocaleString('en-US')} events at ${pace}/s in commits of ${perCommit}`);
  await receiverCall(receiver, '/reset', {});
  const commits = [];
  const p0 = performance.now();
  for (let sent = 0; sent < PACED; sent += perCommit) {
    const ids = await commitEvents(
      client,
      business.id,
      endpoint.id,
      Math.min(perCommit, PACED - sent),
      'paced',
    );
    commits.push({ ids, at: Date.now() });
    const due = p0 + ((sent + perCommit) / pace) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await waitForArrivals(receiver, PACED, 120_000);
  const late = [];
  for (const c of commits) {
    const times = await receiverCall(receiver, '/times', c.ids);
    for (const t of times) late.push(t === null ? Infinity : Math.max(0, t - c.at));
  }
  late.sort((a, b) => a - b);
  const p50 = percentile(late, 50);
  const p99 = percentile(late, 99);
  await titan.stop();

  // ---- the floor
  ctx.progress(`floor: a bare poster, ${IN_FLIGHT} requests in flight`);
  await receiverCall(receiver, '/reset', {});
  const { seconds: floorSeconds, rssGrowth: floorRss } = await bareFloor(receiver, EVENTS);
  const floorStats = await receiverCall(receiver, '/stats');
  const floorRate = EVENTS / floorSeconds;
  const ratio = titanRate / floorRate;

  const rateMet = ratio >= TARGET_RATIO;
  const lateMet = p99 <= TARGET_P99_MS;
  const rssMet = rssGrowthMib <= TARGET_RSS_MIB;
  notes.push(
    `titan: apps/server/dist/main.js, RUN_WORKERS=true, the delivery loop as shipped (4 passes of up to 100, polled every 200 ms); ` +
      `events inserted as the outbox write does, ${committed - committedAt} ms to commit ${EVENTS.toLocaleString('en-US')}`,
    `throughput: titan ${Math.round(titanRate)}/s, floor ${Math.round(floorRate)}/s, ratio ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}) — ${rateMet ? 'met' : 'MISSED'}`,
    `lateness (commit to arrival) at ${pace}/s: p50 ${p50} ms, p99 ${p99} ms (target p99 <= ${TARGET_P99_MS} ms) — ${lateMet ? 'met' : 'MISSED'}`,
    `memory: RSS ${(rssStart / 2 ** 20).toFixed(0)} MiB at start, peak ${(rssPeak / 2 ** 20).toFixed(0)} MiB, growth ${rssGrowthMib.toFixed(1)} MiB (target <= ${TARGET_RSS_MIB}) — ${rssMet ? 'met' : 'MISSED'}`,
    `signatures: ${signed} of ${samples.length} sampled requests verified (HMAC-SHA256 over id.timestamp.body)`,
  );
  if (titanProblems.length > 0) throw new Error(`webhook delivery check failed: ${titanProblems.join('; ')}`);
  return {
    title: `webhook delivery of ${EVENTS.toLocaleString('en-US')} events to a local receiver`,
    rows: [
      {
        side: 'titan',
        events: EVENTS,
        seconds: titanSeconds,
        perSec: titanRate,
        p50,
        p99,
        rss: rssGrowthMib,
        check: 'ok: each once, all delivered, signed',
        verdict: `p99 ${lateMet ? 'met' : 'MISSED'}, RSS ${rssMet ? 'met' : 'MISSED'}`,
      },
      {
        side: 'floor (bare poster)',
        events: EVENTS,
        seconds: floorSeconds,
        perSec: floorRate,
        rss: floorRss,
        check: floorStats.distinct === EVENTS ? 'ok' : `${floorStats.distinct} arrived`,
        verdict: '',
      },
      {
        side: 'titan/floor',
        perSec: undefined,
        check: '',
        verdict: `${rateMet ? 'met' : 'MISSED'} (${ratio.toFixed(2)}x, target >= ${TARGET_RATIO}x)`,
      },
    ],
    notes,
  };
}
