// Inbound WhatsApp at Meta's pace: signed webhook deliveries POSTed to the built Titan server on
// PostgreSQL, as Meta sends them, on keep-alive sockets. Measured: messages accepted per second
// (wall time of the POST phase), acknowledgement latency p50/p95/p99, and how fast the durable
// processing turns them into conversations (wa_messages counted in the bench database, first POST →
// last message stored). Targets (issue): >= 1,000 messages/s accepted and processed,
// acknowledgement p99 <= 50 ms.
//
// Rows: Titan with one message per delivery (BENCH_WA_CONCURRENCY POSTs in flight, as fast as they
// are answered), Titan with Meta's batches (BENCH_WA_BATCH messages per delivery, posted at a fixed
// BENCH_WA_BATCH_RATE deliveries/s, at most BENCH_WA_CONCURRENCY in flight), and
// bench/servers/bare-fastify.mjs answering the same single deliveries on POST / with the same
// acknowledgement (no signature check, no storage): the fastest a Node server could ack.
// Why the batch row is paced: with 50 deliveries of 100 messages always in flight, an ack waits
// behind the 49 others (Little's law: 50 in flight / ~400 deliveries/s = ~125 ms) however fast each
// is stored, so that closed loop measures the queue the bench builds, not the acknowledgement Meta
// sees; Meta sends large batches when its rate is high, at a pace of its own.
// Each Titan row gets a fresh database and server: an owner signs up (NODE_ENV=development for the
// mail outbox), then Titan runs as deployed by default (production, API and job workers in one
// process) and the owner connects a WhatsApp number whose app secret the bench signs with.
//
// Deliveries are Meta's bytes (compact JSON, non-ASCII as lowercase \uXXXX, "/" as "\/") signed
// with X-Hub-Signature-256, all built before the clock starts; messages come from
// BENCH_WA_CUSTOMERS customers (wa_ids) in turn, mostly text (some with emoji and accents), with
// locations, button replies and reactions mixed in. A warm-up of BENCH_WA_WARMUP single deliveries
// is posted and processed first, not measured.
//
// Env: BENCH_WA_MESSAGES (default 20000), BENCH_WA_CONCURRENCY (50), BENCH_WA_CUSTOMERS (2000),
// BENCH_WA_BATCH (100), BENCH_WA_BATCH_RATE (deliveries/s of the batch row, default 20: 2,000
// messages/s, twice the target), BENCH_WA_WARMUP (100 deliveries), BENCH_WA_PROCESS_TIMEOUT_S (how
// long to wait after the last POST for processing to finish, default 60).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { fixedLoad, loadSummary } from '../lib/fixed-load.mjs';
import { Samples } from '../lib/load.mjs';
import { apiCall, authHeaders, createBusiness, login, signUp } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';

export const name = 'whatsapp-webhook';

const TARGET_MSGS_PER_S = 1000;
const TARGET_ACK_P99_MS = 50;
const WEBHOOK_PATH = '/api/whatsapp/webhook/';
const POLL_MS = 100;

const OWNER = { email: 'bench.whatsapp@example.test', password: 'bench correct horse battery staple' };
const ACCOUNT = {
  phone_number_id: '106540352242922',
  waba_id: '102290129340398',
  display_phone_number: '15550783881',
  verify_token: 'bench-verify-token',
  access_token: 'EAAG-bench-access-token-0000000000',
  app_secret: 'bench-meta-app-secret-0123456789',
};

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const perSec = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');

export const columns = [
  { key: 'server', label: 'server' },
  { key: 'deliveries', label: 'deliveries', align: 'right' },
  { key: 'messages', label: 'messages', align: 'right' },
  { key: 'acceptedPerSec', label: 'msgs/s accepted', align: 'right', format: perSec },
  { key: 'ackP50', label: 'ack p50 ms', align: 'right', format: ms },
  { key: 'ackP95', label: 'ack p95 ms', align: 'right', format: ms },
  { key: 'ackP99', label: 'ack p99 ms', align: 'right', format: ms },
  { key: 'processedPerSec', label: 'processed msgs/s', align: 'right', format: perSec },
  { key: 'allProcessed', label: 'all processed' },
  { key: 'verdict', label: `target (>= ${TARGET_MSGS_PER_S} msgs/s, ack p99 <= ${TARGET_ACK_P99_MS} ms)` },
];

const sleep = (msec) => new Promise((r) => setTimeout(r, msec));

// ---------------------------------------------------------------- Meta's deliveries

/** Meta's bytes: compact JSON, every non-ASCII UTF-16 unit as lowercase \uXXXX, "/" as "\/". */
function metaJson(value) {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const signatureFor = (secret, body) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const TEXTS = [
  'Hi, is my order on its way?',
  'Grüße aus München 👋 can I change the delivery address?',
  'Do you ship to Zürich / Genève?',
  'Merci beaucoup, ça marche !',
  '¿Tienen la talla M en azul?',
  'ありがとうございます',
  'Can I pay by card or cash on delivery?',
  'My code is ABC-123, it does not work 😕',
];
const NAMES = ['Ada', 'Zoë', 'José', 'Björn', 'Amélie', 'Łukasz', 'Søren', 'Grace'];

/** wa_id of customer k: digits without "+", 13 long. */
const waIdOf = (k) => `49151${String(k).padStart(8, '0')}`;

/**
 * The i-th message of a run, from customer `k`: mostly text; every 20th a location, a button reply
 * or a reaction to that customer's previous message.
 */
function message(tag, i, k, customers, timestamp) {
  const base = {
    from: waIdOf(k),
    id: `wamid.HBgN${Buffer.from(`${tag}:${i}`).toString('base64url')}`,
    timestamp,
  };
  const previous = i - customers;
  switch (i % 20) {
    case 7:
      return {
        ...base,
        type: 'location',
        location: { latitude: 52.520008, longitude: 13.404954, name: 'Alexanderplatz', address: 'Berlin' },
      };
    case 13:
      return {
        ...base,
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes, please' } },
      };
    case 17:
      if (previous >= 0) {
        const target = `wamid.HBgN${Buffer.from(`${tag}:${previous}`).toString('base64url')}`;
        return { ...base, type: 'reaction', reaction: { message_id: target, emoji: '👍' } };
      }
      break;
    default:
  }
  return { ...base, type: 'text', text: { body: TEXTS[i % TEXTS.length] } };
}

/**
 * `total` messages (numbered from `first`) in deliveries of `perDelivery`, message i from customer
 * i % customers, each delivery Meta's envelope in Meta's bytes with its signature.
 */
function buildDeliveries({ tag, first = 0, total, perDelivery, customers }) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const deliveries = [];
  for (let start = first; start < first + total; start += perDelivery) {
    const messages = [];
    const contacts = new Map();
    for (let i = start; i < Math.min(first + total, start + perDelivery); i++) {
      const k = i % customers;
      messages.push(message(tag, i, k, customers, timestamp));
      contacts.set(k, { profile: { name: `${NAMES[k % NAMES.length]} ${k}` }, wa_id: waIdOf(k) });
    }
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: ACCOUNT.waba_id,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: {
                  display_phone_number: ACCOUNT.display_phone_number,
                  phone_number_id: ACCOUNT.phone_number_id,
                },
                contacts: [...contacts.values()],
                messages,
              },
              field: 'messages',
            },
          ],
        },
      ],
    };
    const body = Buffer.from(metaJson(payload));
    deliveries.push({ body, signature: signatureFor(ACCOUNT.app_secret, body), messages: messages.length });
  }
  return deliveries;
}

// ---------------------------------------------------------------- load

/** POSTs deliveries on keep-alive sockets (at most `sockets`); rejects unless HTTP 200. */
function webhookClient(baseUrl, path, sockets) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const post = ({ body, signature }) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': body.length,
            'x-hub-signature-256': signature,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 200) resolve();
            else
              reject(
                new Error(
                  `POST answered HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`,
                ),
              );
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('POST timed out after 30 s')));
      req.on('error', reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

/** Posts every delivery once, `concurrency` in flight; fixedLoad's timing and percentiles. */
async function postAll(client, deliveries, concurrency) {
  let next = 0;
  return fixedLoad({ total: deliveries.length, concurrency, fn: () => client.post(deliveries[next++]) });
}

/**
 * Posts delivery i at i / `rate` seconds from the start (open loop: a slow answer does not delay
 * the next POST), at most `concurrency` in flight. Same figures as fixedLoad, plus how many POSTs
 * left later than planned because `concurrency` were in flight.
 */
async function postAtRate(client, deliveries, rate, concurrency) {
  const samples = new Samples();
  const inFlight = new Set();
  let errors = 0;
  let firstError = null;
  let late = 0;
  const t0 = performance.now();
  for (let i = 0; i < deliveries.length; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (inFlight.size >= concurrency) {
      late++;
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    const t = performance.now();
    const call = client.post(deliveries[i]).then(
      () => samples.push(performance.now() - t),
      (err) => {
        errors++;
        firstError ??= err;
      },
    );
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
  }
  await Promise.all(inFlight);
  return {
    ...loadSummary(samples, { errors, firstError, wallS: (performance.now() - t0) / 1000 }),
    late,
  };
}

// ---------------------------------------------------------------- Titan

/** A fresh database and production Titan (with workers) whose owner connected the number. */
async function prepareTitan(ctx, label) {
  const database = await ctx.database();
  if (database.kind !== 'postgres') throw new Error(`this suite needs PostgreSQL: ${database.describe}`);
  ctx.progress(`${label}: database ${database.name}; signing up the owner (titan in development)`);
  const dev = await ctx.startTitan(database, { env: { NODE_ENV: 'development' } });
  let businessCode;
  try {
    const session = await signUp(dev.url, { ...OWNER, firstName: 'Bench', lastName: 'WhatsApp' });
    businessCode = (await createBusiness(dev.url, session.access, 'Bench WhatsApp Ltd')).unique_code;
  } finally {
    await dev.stop();
  }
  // Deployed shape: production, API and job workers in one process (RUN_WORKERS defaults to true).
  const titan = ctx.use(await ctx.startTitan(database, { env: { RUN_WORKERS: 'true' } }));
  // Connected on this instance: the app secret is sealed with its APP_SECRET.
  const { access } = await login(titan.url, OWNER.email, OWNER.password);
  await apiCall(titan.url, 'PUT', '/api/whatsapp/account/', {
    body: ACCOUNT,
    headers: authHeaders(access, businessCode),
  });
  const pool = new pg.Pool({ connectionString: database.url, max: 1, application_name: 'titan-bench-wa' });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  return { database, titan, pool };
}

const countOf = async (pool, text) => (await pool.query(text)).rows[0].n;
const storedMessages = (pool) => countOf(pool, 'select count(*)::int as n from wa_messages');

/**
 * Polls the stored message count (`from` now) every POLL_MS until it reaches `target` or
 * `deadline()` (a performance.now() time, checked each poll) passes. Resolves with { count, at },
 * `at` being when the count last grew (performance.now()).
 */
function watchProcessing(pool, { from = 0, target, deadline }) {
  let stop = false;
  const done = (async () => {
    let count = from;
    let at = performance.now();
    while (!stop) {
      const n = await storedMessages(pool);
      const now = performance.now();
      if (n > count) {
        count = n;
        at = now;
      }
      if (count >= target || now > deadline()) break;
      await sleep(POLL_MS);
    }
    return { count, at };
  })();
  return { done, cancel: () => (stop = true) };
}

async function titanRow(ctx, { label, perDelivery, total, customers, warmup, concurrency, timeoutS, rate }) {
  const { database, titan, pool } = await prepareTitan(ctx, label);
  const client = webhookClient(titan.url, WEBHOOK_PATH, concurrency);
  ctx.defer(() => client.close());

  if (warmup > 0) {
    ctx.progress(`${label}: warm-up, ${warmup} single deliveries`);
    const w = await postAll(
      client,
      buildDeliveries({ tag: 'warmup', total: warmup, perDelivery: 1, customers }),
      concurrency,
    );
    if (w.errors > 0) throw new Error(`${label}: warm-up POSTs failed: ${w.firstError}`);
    const deadline = performance.now() + timeoutS * 1000;
    const { count } = await watchProcessing(pool, { target: warmup, deadline: () => deadline }).done;
    if (count < warmup)
      ctx.progress(`${label}: only ${count} of ${warmup} warm-up messages processed after ${timeoutS} s`);
  }
  const before = await storedMessages(pool);

  const deliveries = buildDeliveries({ tag: 'run', total, perDelivery, customers });
  const bytes = deliveries.reduce((a, d) => a + d.body.length, 0);
  ctx.progress(
    `${label}: posting ${deliveries.length} deliveries (${total} messages, ${(bytes / 2 ** 20).toFixed(1)} MiB) ` +
      (rate ? `at ${rate} deliveries/s, at most ${concurrency} in flight` : `with ${concurrency} in flight`),
  );
  let postEnd = Infinity;
  const t0 = performance.now();
  const watch = watchProcessing(pool, {
    from: before,
    target: before + total,
    deadline: () => postEnd + timeoutS * 1000,
  });
  let m;
  try {
    m = rate
      ? await postAtRate(client, deliveries, rate, concurrency)
      : await postAll(client, deliveries, concurrency);
  } catch (err) {
    watch.cancel();
    throw err;
  }
  postEnd = performance.now();
  ctx.progress(
    `${label}: posted in ${m.wallS.toFixed(1)} s; waiting up to ${timeoutS} s for the job to store every message`,
  );
  const { count, at } = await watch.done;
  const processed = count - before;
  const processedS = (at - t0) / 1000;

  const conversations = await countOf(
    pool,
    "select count(*)::int as n from conversations where channel = 'whatsapp'",
  );
  const unprocessedEvents = await countOf(
    pool,
    'select count(*)::int as n from whatsapp_webhook_events where processed_at is null',
  );
  // whatsapp_webhook_events is the processing queue: its rows by state, and the failed attempts.
  const [eventStates] = (
    await pool.query(
      `select count(*) filter (where processed_at is not null)::int as processed,
              count(*) filter (where processed_at is null and next_attempt_at is not null)::int as pending,
              count(*) filter (where processed_at is null and next_attempt_at is null)::int as given_up,
              coalesce(sum(attempts), 0)::int as failed_attempts
       from whatsapp_webhook_events`,
    )
  ).rows;
  const expectedConversations = Math.min(customers, total + warmup);
  const allProcessed =
    processed === total && conversations === expectedConversations && unprocessedEvents === 0;
  await titan.stop();

  const acceptedPerSec = (m.count * perDelivery) / m.wallS;
  const processedPerSec = processed / processedS;
  return {
    server: label,
    kind: 'titan',
    database: database.describe.replace(/, fresh database .*$/, ''),
    deliveries: deliveries.length,
    messages: total,
    perDelivery,
    concurrency,
    rate: rate ?? null,
    latePosts: m.late ?? null,
    customers,
    bytes,
    acceptedPerSec,
    deliveriesPerSec: m.callsPerSec,
    postSeconds: m.wallS,
    ackP50: m.p50,
    ackP90: m.p90,
    ackP95: m.p95,
    ackP99: m.p99,
    ackMax: m.max,
    postErrors: m.errors,
    firstPostError: m.firstError,
    processed,
    processedSeconds: processedS,
    processedPerSec,
    allProcessed: allProcessed ? 'yes' : `no (${processed} of ${total})`,
    conversations,
    expectedConversations,
    unprocessedEvents,
    eventStates,
    verdict: verdictOf({ acceptedPerSec, processedPerSec, allProcessed, ackP99: m.p99, errors: m.errors }),
  };
}

function verdictOf({ acceptedPerSec, processedPerSec, allProcessed, ackP99, errors }) {
  const misses = [];
  if (errors > 0) misses.push(`${errors} failed POSTs`);
  if (!(acceptedPerSec >= TARGET_MSGS_PER_S)) misses.push('accepted');
  if (!allProcessed) misses.push('not all processed');
  if (!(processedPerSec >= TARGET_MSGS_PER_S)) misses.push('processed');
  if (!(ackP99 <= TARGET_ACK_P99_MS)) misses.push('ack p99');
  return misses.length === 0 ? 'ok' : `MISS: ${misses.join(', ')}`;
}

// ---------------------------------------------------------------- the suite

export async function run(ctx) {
  const total = intFromEnv('BENCH_WA_MESSAGES', 20_000);
  const concurrency = intFromEnv('BENCH_WA_CONCURRENCY', 50);
  const customers = intFromEnv('BENCH_WA_CUSTOMERS', 2_000);
  const batch = intFromEnv('BENCH_WA_BATCH', 100);
  const batchRate = intFromEnv('BENCH_WA_BATCH_RATE', 20);
  const warmup = intFromEnv('BENCH_WA_WARMUP', 100, 0);
  const timeoutS = intFromEnv('BENCH_WA_PROCESS_TIMEOUT_S', 60);
  const common = { total, customers, warmup, concurrency, timeoutS };
  const notes = [];

  // ---- bare Fastify: the same single deliveries, acknowledged without any work
  ctx.progress('starting bare fastify');
  const bare = ctx.use(await ctx.startBareFastify());
  const bareClient = webhookClient(bare.url, '/', concurrency);
  ctx.defer(() => bareClient.close());
  if (warmup > 0)
    await postAll(
      bareClient,
      buildDeliveries({ tag: 'warmup', total: warmup, perDelivery: 1, customers }),
      concurrency,
    );
  const bareDeliveries = buildDeliveries({ tag: 'run', total, perDelivery: 1, customers });
  ctx.progress(`bare fastify: posting ${bareDeliveries.length} deliveries with ${concurrency} in flight`);
  const bareM = await postAll(bareClient, bareDeliveries, concurrency);
  bareClient.close();
  await bare.stop();

  const single = await titanRow(ctx, { ...common, label: 'titan single', perDelivery: 1 });
  const batched = await titanRow(ctx, {
    ...common,
    label: `titan batch-${batch}`,
    perDelivery: batch,
    rate: batchRate,
  });

  for (const row of [single, batched]) {
    if (row.postErrors > 0)
      notes.push(`WARNING ${row.server}: ${row.postErrors} POSTs failed (${row.firstPostError})`);
    if (row.conversations !== row.expectedConversations) {
      notes.push(
        `WARNING ${row.server}: ${row.conversations} WhatsApp conversations for ${row.expectedConversations} customers`,
      );
    }
    if (row.latePosts > 0)
      notes.push(
        `WARNING ${row.server}: ${row.latePosts} POSTs left late, ${row.concurrency} being in flight: ` +
          'Titan did not keep up with the offered rate',
      );
    notes.push(
      `${row.server}: ${row.processed} of ${row.messages} messages stored ${row.processedSeconds.toFixed(1)} s after the ` +
        `first POST (POST phase ${row.postSeconds.toFixed(1)} s, ${perSec(row.deliveriesPerSec)} deliveries/s); ` +
        `${row.conversations} conversations; ${row.unprocessedEvents} deliveries unprocessed; ` +
        `webhook events ${JSON.stringify(row.eventStates)}`,
    );
  }
  if (bareM.errors > 0)
    notes.push(`WARNING bare fastify: ${bareM.errors} POSTs failed (${bareM.firstError})`);
  notes.push(
    `titan: apps/server/dist/main.js, NODE_ENV=production, LOG_LEVEL=warn, API and job workers in one process ` +
      `(RUN_WORKERS=true), default pool; a fresh database per row on ${single.database}; ` +
      `${total} messages from ${customers} customers (wa_ids), ${concurrency} POSTs in flight on keep-alive ` +
      `sockets, ${warmup} single warm-up deliveries posted and processed first`,
    `${batched.server}: posted at a fixed ${batchRate} deliveries/s (${perSec(batchRate * batch)} messages/s), ` +
      `not ${concurrency} always in flight: with ${concurrency} deliveries of ${batch} messages queued, each ack ` +
      `would wait behind the others (Little's law: in flight / deliveries per second), which measures the ` +
      "bench's own queue rather than the acknowledgement Meta sees; its msgs/s accepted is therefore the " +
      'offered rate (BENCH_WA_BATCH_RATE)',
    'msgs/s accepted = messages acknowledged 200 / wall time of the POST phase; ack = POST sent → whole ' +
      'response read, in the bench process; processed msgs/s = messages stored in wa_messages / (first POST → ' +
      `last one stored), polled every ${POLL_MS} ms; "all processed" also needs one conversation per customer ` +
      'and no unprocessed delivery',
    'bare fastify: bench/servers/bare-fastify.mjs POST / parses the JSON and answers the same acknowledgement ' +
      '(no signature check, no storage) for the same single deliveries',
  );

  return {
    title:
      `whatsapp-webhook — signed deliveries POSTed at ${concurrency} in flight, batches at ` +
      `${batchRate} deliveries/s (${total.toLocaleString('en-US')} messages per row)`,
    rows: [
      single,
      batched,
      {
        server: 'bare fastify',
        kind: 'bare',
        deliveries: bareDeliveries.length,
        messages: total,
        perDelivery: 1,
        concurrency,
        acceptedPerSec: bareM.count / bareM.wallS,
        postSeconds: bareM.wallS,
        ackP50: bareM.p50,
        ackP90: bareM.p90,
        ackP95: bareM.p95,
        ackP99: bareM.p99,
        ackMax: bareM.max,
        postErrors: bareM.errors,
      },
    ],
    notes,
  };
}
