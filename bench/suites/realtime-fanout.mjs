// Realtime fan-out: 1,000 WebSocket clients subscribed to the messages of one conversation; a
// staff message is POSTed N times (spaced ~100 ms) and, per message, the time from sending the POST
// to each client receiving the matching `change` event is recorded: p50/p99 over all deliveries.
// Baseline, same machine and run: a bare `ws` server in its own process (bench/servers/
// ws-broadcast.mjs) that sends the body of an HTTP POST to the same number of clients — a change
// event of the same size as Titan's. Target: Titan p99 <= 100 ms.
//
// Titan runs on the seeded inbox (shared with inbox-list; a titan_message conversation of the seeded
// business). All sockets live in this process; a delivery is timestamped first thing in the socket's
// message handler, before parsing, on both sides.
//
// Env: BENCH_FANOUT_CLIENTS (default 1000), BENCH_FANOUT_MESSAGES (default 50),
// BENCH_FANOUT_INTERVAL_MS (default 100), BENCH_FANOUT_SESSIONS (access tokens shared by the
// sockets, default 1).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import pg from 'pg';
import { Samples } from '../lib/load.mjs';
import { authHeaders, login } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';

export const name = 'realtime-fanout';

const TARGET_P99_MS = 100;
const WARMUP_MESSAGES = 5;
const OPEN_BATCH = 50;

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');
const fmt = (v, row) => (row.kind === 'ratio' ? x(v) : ms(v));

export const columns = [
  { key: 'server', label: 'server' },
  { key: 'clients', label: 'clients', align: 'right' },
  { key: 'messages', label: 'messages', align: 'right' },
  { key: 'deliveries', label: 'deliveries', align: 'right' },
  { key: 'p50', label: 'p50 ms', align: 'right', format: fmt },
  { key: 'p90', label: 'p90 ms', align: 'right', format: fmt },
  { key: 'p99', label: 'p99 ms', align: 'right', format: fmt },
  { key: 'max', label: 'max ms', align: 'right', format: fmt },
  { key: 'postP50', label: 'POST p50 ms', align: 'right', format: fmt },
  { key: 'verdict', label: 'target (p99 <= 100 ms)' },
];

const sleep = (msec) => new Promise((r) => setTimeout(r, msec));

/**
 * Opens `n` sockets to `url`, `OPEN_BATCH` at a time; `handshake(ws, i)` resolves when socket i
 * is ready (authenticated and subscribed, for Titan). Returns the sockets.
 */
async function openSockets(url, n, handshake, progress) {
  const sockets = [];
  for (let start = 0; start < n; start += OPEN_BATCH) {
    const batch = [];
    for (let i = start; i < Math.min(n, start + OPEN_BATCH); i++) {
      batch.push(
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false });
          sockets.push(ws);
          const timer = setTimeout(() => reject(new Error(`socket ${i} not ready after 30 s`)), 30_000);
          ws.once('error', (err) => {
            clearTimeout(timer);
            reject(err);
          });
          ws.once('close', (code, reason) => {
            clearTimeout(timer);
            reject(new Error(`socket ${i} closed (${code} ${reason}) during its handshake`));
          });
          ws.once('open', () => {
            handshake(ws, i).then(
              () => {
                clearTimeout(timer);
                ws.removeAllListeners('close');
                ws.removeAllListeners('error');
                ws.on('error', () => {});
                resolve();
              },
              (err) => {
                clearTimeout(timer);
                reject(err);
              },
            );
          });
        }),
      );
    }
    await Promise.all(batch);
    if ((start + OPEN_BATCH) % 250 === 0 || start + OPEN_BATCH >= n) {
      progress(`${Math.min(n, start + OPEN_BATCH)} / ${n} sockets ready`);
    }
  }
  return sockets;
}

/** Waits for the next JSON message on `ws` for which `pick(msg)` is truthy; errors reject. */
function nextMessage(ws, pick, label) {
  return new Promise((resolve, reject) => {
    const onMessage = (data) => {
      let msg;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (msg.type === 'error') {
        ws.off('message', onMessage);
        reject(new Error(`${label}: ${msg.message} ${JSON.stringify(msg.errors ?? {})}`));
      } else if (pick(msg)) {
        ws.off('message', onMessage);
        resolve(msg);
      }
    };
    ws.on('message', onMessage);
  });
}

async function closeAll(sockets) {
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            ws.terminate();
            resolve();
          }, 3_000);
          ws.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          try {
            ws.close(1000, 'bench done');
          } catch {
            ws.terminate();
          }
        }),
    ),
  );
}

/**
 * Sends `warmup + count` posts `intervalMs` apart (open loop: the schedule does not wait for
 * answers) and records, per measured post, each socket's delivery latency. `send(i, marker)`
 * performs post i; each socket's messages go through `match(data) -> post index | -1`.
 */
async function fanOut({ sockets, warmup, count, intervalMs, send, match, progress, label }) {
  const total = warmup + count;
  const sentAt = new Float64Array(total).fill(NaN);
  const delivered = new Int32Array(total);
  const samples = new Samples();
  const postLatency = new Samples();
  let postErrors = 0;
  let firstPostError = null;
  const expected = sockets.length;
  let done = 0;
  let allDone;
  const finished = new Promise((r) => (allDone = r));

  const handlers = sockets.map((ws) => {
    const h = (data) => {
      const t = performance.now(); // first thing: the delivery time
      const i = match(data);
      if (i < 0 || i >= total || Number.isNaN(sentAt[i])) return;
      delivered[i]++;
      if (i >= warmup) {
        samples.push(t - sentAt[i]);
        if (delivered[i] === expected && ++done === count) allDone();
      }
    };
    ws.on('message', h);
    return h;
  });

  const t0 = performance.now();
  const posts = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sentAt[i] = performance.now();
    const started = sentAt[i];
    posts.push(
      send(i).then(
        () => {
          if (i >= warmup) postLatency.push(performance.now() - started);
        },
        (err) => {
          postErrors++;
          firstPostError ??= err;
        },
      ),
    );
  }
  await Promise.all(posts);
  let timer;
  const timedOut = await Promise.race([
    finished.then(() => false),
    new Promise((r) => (timer = setTimeout(() => r(true), 15_000))),
  ]);
  clearTimeout(timer);
  sockets.forEach((ws, k) => ws.off('message', handlers[k]));

  const measured = Array.from(delivered.slice(warmup));
  const deliveries = measured.reduce((a, b) => a + b, 0);
  const missing = count * expected - deliveries;
  if (timedOut) progress(`${label}: ${missing} deliveries still missing 15 s after the last post`);
  const [p50, p90, p99, max] = samples.percentiles(50, 90, 99, 100);
  const [postP50, postP99] = postLatency.percentiles(50, 99);
  return {
    clients: expected,
    messages: count,
    deliveries,
    missing,
    p50,
    p90,
    p99,
    max,
    postP50,
    postP99,
    postErrors,
    firstPostError: firstPostError ? String(firstPostError.message ?? firstPostError) : null,
  };
}

export async function run(ctx) {
  const clients = intFromEnv('BENCH_FANOUT_CLIENTS', 1000);
  const count = intFromEnv('BENCH_FANOUT_MESSAGES', 50);
  const intervalMs = intFromEnv('BENCH_FANOUT_INTERVAL_MS', 100, 0);
  const sessions = intFromEnv('BENCH_FANOUT_SESSIONS', 1);
  const runId = randomBytes(4).toString('hex');
  const notes = [];

  const { database, seed } = await ctx.inboxSeed();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const {
    rows: [conv],
  } = await pool.query(
    `select id from conversations where business_id = $1 and channel = 'titan_message'
      order by last_message_at desc nulls last, id desc limit 1`,
    [seed.businessId],
  );
  const conversationId = Number(conv.id);

  // ---- Titan
  ctx.progress('starting titan (production) on the seeded database');
  const titan = ctx.use(await ctx.startTitan(database));
  const tokens = [];
  for (let s = 0; s < sessions; s++) tokens.push((await login(titan.url, seed.email, seed.password)).access);
  const wsUrl = `${titan.url.replace(/^http/, 'ws')}/api/realtime/`;
  ctx.progress(`opening ${clients} sockets to ${wsUrl}, subscribing to conversation ${conversationId}`);
  const tOpen = performance.now();
  const titanSockets = [];
  ctx.defer(() => closeAll(titanSockets));
  titanSockets.push(
    ...(await openSockets(
      wsUrl,
      clients,
      async (ws, i) => {
        ws.send(JSON.stringify({ type: 'auth', token: tokens[i % tokens.length] }));
        await nextMessage(ws, (m) => m.type === 'ready', `socket ${i} auth`);
        ws.send(
          JSON.stringify({ type: 'subscribe', id: 's1', topic: 'messages', conversation_id: conversationId }),
        );
        await nextMessage(ws, (m) => m.type === 'subscribed' && m.id === 's1', `socket ${i} subscribe`);
      },
      ctx.progress,
    )),
  );
  const openSeconds = (performance.now() - tOpen) / 1000;
  ctx.progress(`${clients} sockets authenticated and subscribed in ${openSeconds.toFixed(1)} s`);

  const headers = { ...authHeaders(tokens[0], seed.businessCode), 'content-type': 'application/json' };
  const postUrl = `${titan.url}/api/msg/conversations/${conversationId}/messages/`;
  const marker = `fanout ${runId} #`;
  let sample = null; // one change event, as a client received it (for the baseline's payload)
  const matchTitan = (data) => {
    const text = data.toString();
    const at = text.indexOf(marker);
    if (at < 0) return -1;
    const msg = JSON.parse(text);
    if (msg.type !== 'change' || msg.table !== 'messages') return -1;
    sample ??= text;
    return Number(msg.new.content.slice(marker.length));
  };
  ctx.progress(`titan: ${WARMUP_MESSAGES} warm-up + ${count} messages, ${intervalMs} ms apart`);
  const titanM = await fanOut({
    sockets: titanSockets,
    warmup: WARMUP_MESSAGES,
    count,
    intervalMs,
    label: 'titan',
    progress: ctx.progress,
    match: matchTitan,
    send: async (i) => {
      const res = await fetch(postUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ message_type: 'text', content: `${marker}${i}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`POST answered HTTP ${res.status}`);
    },
  });
  await closeAll(titanSockets);
  await titan.stop();
  if (!sample)
    throw new Error(`titan delivered no change event: ${titanM.firstPostError ?? 'no error seen'}`);

  // ---- bare ws
  ctx.progress('starting the bare ws broadcast server');
  const bare = ctx.use(await ctx.startWsBroadcast());
  const bareWsUrl = `${bare.url.replace(/^http/, 'ws')}/ws`;
  const bareSockets = [];
  ctx.defer(() => closeAll(bareSockets));
  bareSockets.push(...(await openSockets(bareWsUrl, clients, async () => {}, ctx.progress)));
  for (let tries = 0; ; tries++) {
    const { clients: n } = await (await fetch(`${bare.url}/`)).json();
    if (n === clients) break;
    if (tries > 100) throw new Error(`bare ws server sees ${n} clients, expected ${clients}`);
    await sleep(50);
  }
  // Titan's event as received, with the content swapped for the baseline's marker.
  const template = JSON.parse(sample);
  const bareMarker = `fanout ${runId} #`;
  const matchBare = (data) => {
    const text = data.toString();
    if (text.indexOf(bareMarker) < 0) return -1;
    const msg = JSON.parse(text);
    return Number(msg.new.content.slice(bareMarker.length));
  };
  ctx.progress(`bare ws: ${WARMUP_MESSAGES} warm-up + ${count} messages, ${intervalMs} ms apart`);
  const bareM = await fanOut({
    sockets: bareSockets,
    warmup: WARMUP_MESSAGES,
    count,
    intervalMs,
    label: 'bare ws',
    progress: ctx.progress,
    match: matchBare,
    send: async (i) => {
      const body = JSON.stringify({ ...template, new: { ...template.new, content: `${bareMarker}${i}` } });
      const res = await fetch(`${bare.url}/broadcast`, { method: 'POST', body });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`POST /broadcast answered HTTP ${res.status}`);
    },
  });
  await closeAll(bareSockets);
  await bare.stop();

  for (const [label, m] of [
    ['titan', titanM],
    ['bare ws', bareM],
  ]) {
    if (m.missing > 0 || m.postErrors > 0) {
      notes.push(
        `WARNING ${label}: ${m.missing} of ${m.clients * m.messages} deliveries missing, ${m.postErrors} failed posts` +
          (m.firstPostError ? ` (${m.firstPostError})` : '') +
          '; the percentiles cover the deliveries that arrived' +
          (label === 'titan' && m.missing > 0
            ? '. Whole messages missing on every socket = change events the hub dropped: it skips a change whose ' +
              'seq is below one it already sent to the subscription, and overlapping sends commit (NOTIFY) and ' +
              'load their rows out of seq order'
            : ''),
      );
    }
  }
  notes.push(
    `titan: one conversation (${conversationId}) of the seeded business, ${clients} sockets on ${sessions} ` +
      `session token(s), all authenticated and subscribed (topic messages) in ${openSeconds.toFixed(1)} s before ` +
      `measuring; POST /api/msg/conversations/${conversationId}/messages/ {message_type: 'text'} ` +
      `${WARMUP_MESSAGES} warm-up + ${count} measured, one every ${intervalMs} ms (open loop)`,
    `bare ws: bench/servers/ws-broadcast.mjs (ws, its own process) sends each POST /broadcast body ` +
      `(${Buffer.byteLength(sample)} bytes, Titan's change event) to ${clients} clients, serialised once`,
    'latency = POST sent → change event received by one client, over every delivery; all clients are in the ' +
      'bench process, timestamped on arrival before any parsing',
  );
  const verdict = titanM.p99 <= TARGET_P99_MS ? 'ok' : `MISS: p99 > ${TARGET_P99_MS} ms`;
  return {
    title: `realtime-fanout — POST a message → change event on ${clients} subscribed sockets (ms)`,
    rows: [
      { server: 'titan', kind: 'measured', ...titanM, verdict },
      { server: 'bare ws', kind: 'measured', ...bareM },
      {
        server: 'ratio titan/bare',
        kind: 'ratio',
        p50: titanM.p50 / bareM.p50,
        p90: titanM.p90 / bareM.p90,
        p99: titanM.p99 / bareM.p99,
        max: titanM.max / bareM.max,
        postP50: titanM.postP50 / bareM.postP50,
      },
    ],
    notes,
  };
}
