// Journey throughput (issue 32's Done-when): customers entering a live journey through events posted
// to `POST /api/events/` with an API key, each through trigger → wait 1 s → branch (their plan) →
// send (an email, recorded on the send spine and handed to the SMTP sink) → exit, on the built Titan
// (production, job workers and the journey loop in one process). Titan's figures: step transitions
// per second (ledger steps finished, from the first event posted to the last run ended) and the
// timer lateness of the 1-second wait (when it passed − when it was due), p50/p99.
// The floor, in the same run, after Titan stopped: a bare loop doing the same ledger statements on
// pg connections — the event inserted (16 at once, as the events are posted), heard in batches of
// 100 (events locked skip-locked, the customer's advisory lock, the run, its trigger step, the wait),
// due steps claimed in batches of 100 with the engine's claim statement (journeys.repository.ts
// claimDueSteps, copied below), each finished and the next one entered in its own transaction, the
// send a row on the spine — without graphs, customers, consent, rendering or mail.
// Targets: transitions/s ≥ 0.5× the floor's; p99 timer lateness ≤ 2 s (PostgreSQL). On the embedded
// database (PGlite, one process at a time) the figure is reported too: customers are seeded while
// Titan is stopped, progress is read through the journey's stats route, the ledger read after Titan
// stopped, and the floor runs in the bench process on the same data dir, one connection doing in
// turn what the PostgreSQL floor's connections do at once (a round: up to 100 events inserted, a
// batch heard, a batch of due steps claimed and run). Checked: every customer ran once, ended
// `exited`, one send each.
// Env: BENCH_JOURNEY_CUSTOMERS (default 100,000; 1,000 on PGlite), BENCH_JOURNEY_POSTERS (events in
// flight, 16).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { join } from 'node:path';
import { intFromEnv } from '../lib/env.mjs';
import { apiCall, authHeaders, login } from '../lib/identity.mjs';
import { startMailTitan } from '../lib/mail-titan.mjs';

export const name = 'journeys';

const TARGET_RATIO = 0.5;
const TARGET_LATENESS_S = 2;
/** Ledger steps a customer finishes: trigger, wait, branch, send, exit. */
const STEPS_PER_CUSTOMER = 5;
/** The engine's batch (JOURNEY_DEFAULTS.batchSize). */
const BATCH = 100;
const DOMAIN = 'journey-bench.test';
const OWNER = { email: 'bench.journeys@example.test', password: 'bench correct horse battery staple' };
const EVENT = 'bench.joined';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fixed = (digits) => (v) =>
  typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : (v ?? '');
const int = (v) => (typeof v === 'number' ? Math.round(v).toLocaleString('en-US') : (v ?? ''));

export const columns = [
  { key: 'side', label: 'side' },
  { key: 'customers', label: 'customers', align: 'right', format: int },
  { key: 'transitions', label: 'step transitions', align: 'right', format: int },
  { key: 'seconds', label: 'seconds', align: 'right', format: fixed(1) },
  { key: 'perSec', label: 'transitions/s', align: 'right', format: fixed(1) },
  { key: 'lateP50', label: 'wait lateness p50 s', align: 'right', format: fixed(2) },
  { key: 'lateP99', label: 'wait lateness p99 s', align: 'right', format: fixed(2) },
  { key: 'check', label: 'check' },
  {
    key: 'verdict',
    label: `target (>= ${TARGET_RATIO}x the floor's transitions/s, p99 lateness <= ${TARGET_LATENESS_S} s)`,
  },
];

const graph = (templateId) => ({
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'event', event: EVENT } },
    { id: 'pause', type: 'wait', config: { kind: 'duration', seconds: 1 } },
    {
      id: 'plan',
      type: 'branch',
      config: { kind: 'condition', rules: [{ field: 'customer.fields.plan', op: 'eq', value: 'gold' }] },
    },
    {
      id: 'gold',
      type: 'send',
      config: { channel: 'email', template_id: templateId, from: `Shop <news@${DOMAIN}>` },
    },
    {
      id: 'silver',
      type: 'send',
      config: { channel: 'email', template_id: templateId, from: `Shop <hi@${DOMAIN}>` },
    },
    { id: 'done', type: 'exit', config: {} },
  ],
  edges: [
    { from: 'start', to: 'pause' },
    { from: 'pause', to: 'plan' },
    { from: 'plan', to: 'gold', label: 'yes' },
    { from: 'plan', to: 'silver', label: 'no' },
    { from: 'gold', to: 'done' },
    { from: 'silver', to: 'done' },
  ],
});

/** Runs `fn(i)` for i in 0..n-1 with `width` in flight. */
async function inFlight(n, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/** Every run ended, or the deadline. */
async function waitForRuns(pool, journeyId, count, timeoutMs, progress) {
  const deadline = performance.now() + timeoutMs;
  let said = 0;
  for (;;) {
    const {
      rows: [r],
    } = await pool.query(
      `select count(*)::int as runs, count(*) filter (where status <> 'active')::int as ended
       from journey_runs where journey_id = $1`,
      [journeyId],
    );
    if (r.runs >= count && r.ended >= count) return;
    if (performance.now() > deadline)
      throw new Error(`${r.ended} of ${count} runs ended after ${Math.round(timeoutMs / 1000)} s`);
    if (performance.now() - said > 10_000) {
      said = performance.now();
      progress(`${r.runs.toLocaleString('en-US')} runs, ${r.ended.toLocaleString('en-US')} ended`);
    }
    await sleep(100);
  }
}

/** The journey's ledger: transitions, the wait's lateness, and what every customer got. */
async function ledger(pool, journeyId, count, sendCause) {
  const {
    rows: [steps],
  } = await pool.query(
    `select count(*) filter (where status in ('passed', 'exited', 'failed'))::int as transitions,
       percentile_cont(0.5) within group (order by extract(epoch from finished_at - due_at))
         filter (where node_id = 'pause' and status = 'passed') as p50,
       percentile_cont(0.99) within group (order by extract(epoch from finished_at - due_at))
         filter (where node_id = 'pause' and status = 'passed') as p99
     from journey_steps where journey_id = $1`,
    [journeyId],
  );
  const {
    rows: [runs],
  } = await pool.query(
    `select count(*)::int as n, count(distinct customer_id)::int as customers,
       count(*) filter (where status = 'exited')::int as exited
     from journey_runs where journey_id = $1`,
    [journeyId],
  );
  const {
    rows: [sends],
  } = await pool.query(
    `select count(*)::int as n, count(distinct customer_id)::int as customers
     from sends where cause = $2 and cause_id = $1::text`,
    [journeyId, sendCause],
  );
  const {
    rows: [failed],
  } = await pool.query(
    `select node_id, detail->>'reason' as reason from journey_steps
     where journey_id = $1 and status = 'failed' limit 1`,
    [journeyId],
  );
  const problems = [];
  if (failed) problems.push(`a step failed at ${failed.node_id}: ${failed.reason}`);
  if (runs.n !== count || runs.customers !== count)
    problems.push(`${runs.n} runs for ${runs.customers} customers`);
  if (runs.exited !== count) problems.push(`${runs.exited} of ${count} runs exited`);
  if (sends.n !== count || sends.customers !== count) problems.push(`${sends.n} sends to ${sends.customers}`);
  if (steps.transitions !== count * STEPS_PER_CUSTOMER)
    problems.push(`${steps.transitions} transitions, not ${count * STEPS_PER_CUSTOMER}`);
  return {
    transitions: steps.transitions,
    lateP50: Number(steps.p50),
    lateP99: Number(steps.p99),
    check: problems.length === 0 ? 'ok' : problems.join('; '),
  };
}

// ---------------------------------------------------------------- the floor: the same statements

/** journeys.repository.ts claimDueSteps, as the engine runs it. */
const CLAIM = `with due as (
    select s.id from journey_steps s
    join journeys j on j.id = s.journey_id
    where s.status in ('pending', 'waiting') and s.due_at <= $1
      and (j.status = 'live'
        or exists (select 1 from journey_runs r where r.id = s.run_id and r.clock_speed is not null))
      and (s.lease_until is null or s.lease_until <= $1)
    order by s.due_at, s.id
    limit $3
    for update of s skip locked
  )
  update journey_steps s set lease_until = $2
  from due where s.id = due.id
  returning s.*`;

const STEP_COLUMNS = `(run_id, business_id, journey_id, version, customer_id, node_id, visit, status, due_at,
  outcome, entered_at, finished_at)`;

async function insertStep(c, run, nodeId, status, dueAt, at) {
  const final = status === 'passed' || status === 'exited';
  await c.query(
    `insert into journey_steps ${STEP_COLUMNS} values ($1, $2, $3, $4, $5, $6, 1, $7, $8, null, $9, $10)
     on conflict do nothing`,
    [
      run.id,
      run.business_id,
      run.journey_id,
      run.version,
      run.customer_id,
      nodeId,
      status,
      dueAt,
      at,
      final ? at : null,
    ],
  );
}

/** One pass of hearing: a batch of events, each starting a run at its trigger and entering the wait. */
async function hearBatch(c, journey) {
  await c.query('begin');
  try {
    const { rows: events } = await c.query(
      `select * from customer_events where processed_at is null order by id limit $1 for update skip locked`,
      [BATCH],
    );
    const at = new Date();
    // Ids as numbers (PGlite answers int8 as BigInt, pg as text).
    for (const e of events.sort(
      (a, b) => Number(a.customer_id) - Number(b.customer_id) || Number(a.id) - Number(b.id),
    )) {
      await c.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `journey:${journey.id}:customer:${e.customer_id}`,
      ]);
      const {
        rows: [run],
      } = await c.query(
        `insert into journey_runs (business_id, journey_id, version, customer_id, trigger_event_id, status, entered_at)
         values ($1, $2, 1, $3, $4, 'active', $5) on conflict do nothing returning *`,
        [journey.businessId, journey.id, e.customer_id, e.id, at],
      );
      if (!run) continue;
      await insertStep(c, run, 'start', 'passed', null, at);
      await insertStep(c, run, 'pause', 'waiting', new Date(at.getTime() + 1000), at);
    }
    if (events.length > 0)
      await c.query(`update customer_events set processed_at = $1 where id = any($2::bigint[])`, [
        at,
        events.map((e) => String(e.id)),
      ]);
    await c.query('commit');
    return events.length;
  } catch (err) {
    await c.query('rollback');
    throw err;
  }
}

const NEXT = { pause: 'plan', plan: null, gold: 'done', silver: 'done' };

/** One claimed step: finished and the next entered in its own transaction (the send: a spine row). */
async function runStep(c, claimed) {
  await c.query('begin');
  try {
    const {
      rows: [step],
    } = await c.query(
      `select * from journey_steps where id = $1 and status in ('pending', 'waiting') and lease_until = $2 for update`,
      [claimed.id, claimed.lease_until],
    );
    if (!step) return void (await c.query('commit'));
    const {
      rows: [run],
    } = await c.query(`select * from journey_runs where id = $1`, [step.run_id]);
    const at = new Date();
    let outcome = null;
    let next = NEXT[step.node_id];
    if (step.node_id === 'plan') {
      const {
        rows: [customer],
      } = await c.query(`select fields from customers where id = $1`, [run.customer_id]);
      outcome = customer.fields?.plan === 'gold' ? 'yes' : 'no';
      next = outcome === 'yes' ? 'gold' : 'silver';
    }
    if (step.node_id === 'gold' || step.node_id === 'silver') {
      await c.query(
        `insert into sends (business_id, channel, cause, cause_id, customer_id, recipient, status, idempotency_key)
         select $1, 'email', 'journey', $2, id, email, 'queued', $3 from customers where id = $4
         on conflict do nothing`,
        [run.business_id, String(run.journey_id), `journey:${run.id}:${step.node_id}:1`, run.customer_id],
      );
    }
    await c.query(
      `update journey_steps set status = 'passed', outcome = $2, finished_at = $3, lease_until = null where id = $1`,
      [step.id, outcome, at],
    );
    if (next === 'done') {
      await insertStep(c, run, 'done', 'exited', null, at);
      await c.query(
        `update journey_runs set status = 'exited', ended_at = $2 where id = $1 and status = 'active'`,
        [run.id, at],
      );
    } else {
      await insertStep(c, run, next, 'pending', at, at);
    }
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  }
}

async function floor(ctx, database, journey, customerIds) {
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 20,
    application_name: 'titan-bench-journeys',
  });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const [hearer, stepper] = await Promise.all([pool.connect(), pool.connect()]);
  let posted = false;
  let stop = false;
  const count = customerIds.length;
  const hearing = (async () => {
    for (;;) {
      const heard = await hearBatch(hearer, journey);
      if (heard === 0) {
        if (posted) return;
        await sleep(5);
      }
    }
  })();
  const stepping = (async () => {
    while (!stop) {
      const now = new Date();
      const { rows } = await stepper.query(CLAIM, [now, new Date(now.getTime() + 60_000), BATCH]);
      for (const s of rows) await runStep(stepper, s);
      if (rows.length === 0) await sleep(5);
    }
  })();
  const t0 = performance.now();
  await inFlight(count, Number(process.env.BENCH_JOURNEY_POSTERS ?? 16), (i) =>
    pool.query(
      `insert into customer_events (business_id, customer_id, name, properties, source, occurred_at, idempotency_key)
       values ($1, $2, $3, '{}', 'api', now(), $4) on conflict do nothing`,
      [journey.businessId, customerIds[i], EVENT, `floor-${customerIds[i]}`],
    ),
  );
  posted = true;
  await hearing;
  await waitForRuns(pool, journey.id, count, Math.max(600_000, count * 20), ctx.progress);
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await stepping;
  hearer.release();
  stepper.release();
  return { seconds, ...(await ledger(pool, journey.id, count, 'journey')) };
}

/** The embedded database's data dir opened in the bench process (Titan stopped), as Titan opens it. */
async function openEmbedded(database) {
  return PGlite.create(join(database.dataDir, 'pglite'), { extensions: { pg_trgm, vector } });
}

/** The floor on PGlite: one connection, in rounds — events inserted, a batch heard, due steps run. */
async function floorEmbedded(db, journey, customerIds) {
  const count = customerIds.length;
  let posted = 0;
  const t0 = performance.now();
  for (;;) {
    const chunk = customerIds.slice(posted, posted + BATCH);
    posted += chunk.length;
    for (const id of chunk)
      await db.query(
        `insert into customer_events (business_id, customer_id, name, properties, source, occurred_at, idempotency_key)
         values ($1, $2, $3, '{}', 'api', now(), $4) on conflict do nothing`,
        [journey.businessId, id, EVENT, `floor-${id}`],
      );
    const heard = await hearBatch(db, journey);
    const now = new Date();
    const { rows } = await db.query(CLAIM, [now, new Date(now.getTime() + 60_000), BATCH]);
    for (const s of rows) await runStep(db, s);
    if (posted >= count && heard === 0 && rows.length === 0) {
      const {
        rows: [r],
      } = await db.query(
        `select count(*) filter (where status <> 'active')::int as ended from journey_runs where journey_id = $1`,
        [journey.id],
      );
      if (r.ended >= count) break;
      await sleep(5);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, ...(await ledger(db, journey.id, count, 'journey')) };
}

/** Every run ended (read through Titan's stats route: the embedded database is Titan's while it runs). */
async function waitForRunsByApi(titan, headers, journeyId, count, timeoutMs, progress) {
  const deadline = performance.now() + timeoutMs;
  let said = 0;
  for (;;) {
    const { customers: c } = (
      await apiCall(titan.url, 'GET', `/api/journeys/${journeyId}/stats/`, { headers, expect: [200] })
    ).result;
    const runs = c.active + c.exited + c.failed;
    const ended = c.exited + c.failed;
    if (runs >= count && ended >= count) return;
    if (performance.now() > deadline)
      throw new Error(`${ended} of ${count} runs ended after ${Math.round(timeoutMs / 1000)} s`);
    if (performance.now() - said > 10_000) {
      said = performance.now();
      progress(`${runs.toLocaleString('en-US')} runs, ${ended.toLocaleString('en-US')} ended`);
    }
    await sleep(250);
  }
}

export async function run(ctx) {
  const database = await ctx.database();
  const embedded = database.kind === 'pglite';
  const count = intFromEnv('BENCH_JOURNEY_CUSTOMERS', embedded ? 1_000 : 100_000);
  const posters = intFromEnv('BENCH_JOURNEY_POSTERS', 16);
  let { titan, headers, titanEnv, businessCode } = await startMailTitan(ctx, database, {
    domain: DOMAIN,
    owner: OWNER,
    businessName: 'Bench Journeys Ltd',
  });
  const post = (path, body) => apiCall(titan.url, 'POST', path, { body, headers, expect: [200, 201] });
  const template = (
    await post('/api/template/', {
      name: 'Welcome',
      subject: 'Welcome, {{ customer.name }}',
      format: 'html',
      content:
        '<p>Hello {{ customer.name }}, welcome to the {{ customer.plan | default: "silver" }} plan.</p>',
    })
  ).result;
  const apiKey = (await post('/api/auth/api-keys/', { name: 'Bench shop' })).result.key;
  const journey = (
    await post('/api/journeys/', { name: 'Welcome', reentry: 'never', graph: graph(template.id) })
  ).result;
  await post(`/api/journeys/${journey.id}/publish/`);
  // The floor's own journey (a draft until Titan has stopped: its loop never sees it).
  const floorJourney = (
    await post('/api/journeys/', { name: 'Floor', reentry: 'never', graph: graph(template.id) })
  ).result;

  const seedSql = `insert into customers (business_id, name, email, email_status, fields)
     select $1, 'Customer ' || g, 'customer' || g || '@inbox.example.org', 'subscribed',
       jsonb_build_object('plan', case when g % 3 = 0 then 'gold' else 'silver' end)
     from generate_series(1, $2) g returning id`;
  let pool = null;
  let businessId;
  let customerIds;
  ctx.progress(`seeding ${count.toLocaleString('en-US')} subscribed customers`);
  if (embedded) {
    // The data dir is one process's at a time: seed with Titan stopped, then start it again.
    await titan.stop();
    const db = await openEmbedded(database);
    try {
      const {
        rows: [biz],
      } = await db.query(`select business_id from journeys where id = $1`, [journey.id]);
      businessId = Number(biz.business_id);
      const { rows: seeded } = await db.query(seedSql, [businessId, count]);
      customerIds = seeded.map((r) => Number(r.id)).sort((a, b) => a - b);
      await db.query('analyze customers');
    } finally {
      await db.close();
    }
    titan = ctx.use(await ctx.startTitan(database, { env: titanEnv }));
    headers = authHeaders((await login(titan.url, OWNER.email, OWNER.password)).access, businessCode);
  } else {
    pool = new pg.Pool({
      connectionString: database.url,
      max: 4,
      application_name: 'titan-bench-journeys',
    });
    pool.on('error', () => {});
    ctx.defer(() => pool.end());
    const {
      rows: [biz],
    } = await pool.query(`select business_id from journeys where id = $1`, [journey.id]);
    businessId = Number(biz.business_id);
    const { rows: seeded } = await pool.query(seedSql, [businessId, count]);
    customerIds = seeded.map((r) => Number(r.id)).sort((a, b) => a - b);
    await pool.query('analyze customers');
  }

  // ---- Titan: events posted with the API key, the journey loop taking them on
  ctx.progress(`titan: ${count.toLocaleString('en-US')} events posted (${posters} in flight)`);
  const eventHeaders = { authorization: `Api-Key ${apiKey}` };
  const t0 = performance.now();
  await inFlight(count, posters, (i) =>
    apiCall(titan.url, 'POST', '/api/events/', {
      body: { name: EVENT, customer: { id: customerIds[i] }, idempotency_key: `join-${customerIds[i]}` },
      headers: eventHeaders,
      expect: [202],
    }),
  );
  const postSeconds = (performance.now() - t0) / 1000;
  const timeoutMs = Math.max(600_000, count * (embedded ? 200 : 20));
  if (embedded) await waitForRunsByApi(titan, headers, journey.id, count, timeoutMs, ctx.progress);
  else await waitForRuns(pool, journey.id, count, timeoutMs, ctx.progress);
  const titanSeconds = (performance.now() - t0) / 1000;
  let titanLedger;
  let floorSide;
  if (embedded) {
    await titan.stop();
    const db = await openEmbedded(database);
    try {
      titanLedger = await ledger(db, journey.id, count, 'journey');
      ctx.progress(`floor: the same ledger statements on one PGlite connection in this process`);
      await db.query(`update journeys set status = 'live' where id = $1`, [floorJourney.id]);
      floorSide = await floorEmbedded(db, { id: floorJourney.id, businessId }, customerIds);
    } finally {
      await db.close();
    }
  } else {
    titanLedger = await ledger(pool, journey.id, count, 'journey');
    await titan.stop();
    // ---- the floor
    ctx.progress(`floor: the same ledger statements on pg connections`);
    await pool.query(`update journeys set status = 'live' where id = $1`, [floorJourney.id]);
    floorSide = await floor(ctx, database, { id: floorJourney.id, businessId }, customerIds);
  }

  const titanRate = titanLedger.transitions / titanSeconds;
  const floorRate = floorSide.transitions / floorSide.seconds;
  const ratio = titanRate / floorRate;
  const misses = [];
  if (!(ratio >= TARGET_RATIO)) misses.push(`transitions/s under ${TARGET_RATIO}x the floor`);
  if (!(titanLedger.lateP99 <= TARGET_LATENESS_S)) misses.push(`p99 lateness over ${TARGET_LATENESS_S} s`);
  if (titanLedger.check !== 'ok' || floorSide.check !== 'ok') misses.push('check');
  ctx.note(
    `titan: apps/server/dist/main.js (production; API, job workers and the journey loop in one process), the ` +
      `events posted ${posters} at a time in ${postSeconds.toFixed(1)} s; measured from the first post to the last ` +
      `run ended; each send recorded on the spine and handed to the SMTP sink (DKIM, ${DOMAIN} verified)`,
  );
  ctx.note(
    embedded
      ? `floor (PGlite): one connection in the bench process, in rounds: up to ${BATCH} events inserted, a batch ` +
          `heard, due steps claimed and run (batches of ${BATCH}, a transaction each), a spine row per send, no mail`
      : `floor: the events inserted ${posters} at a time, one connection hearing (batches of ${BATCH}), one claiming ` +
          `and running steps (batches of ${BATCH}, a transaction each), a spine row per send, no mail`,
  );
  if (titanLedger.check !== 'ok' || floorSide.check !== 'ok')
    throw new Error(`journeys check failed: titan ${titanLedger.check}; floor ${floorSide.check}`);
  return {
    title: `journeys — ${count.toLocaleString('en-US')} customers through trigger → wait 1 s → branch → send`,
    rows: [
      {
        side: 'titan',
        customers: count,
        seconds: titanSeconds,
        perSec: titanRate,
        ...titanLedger,
        verdict: '',
      },
      { side: 'floor', customers: count, ...floorSide, perSec: floorRate, verdict: '' },
      {
        side: 'titan/floor',
        customers: '',
        transitions: '',
        seconds: '',
        perSec: ratio,
        lateP50: '',
        lateP99: '',
        check: '',
        verdict: misses.length
          ? `MISS: ${misses.join(', ')} (${ratio.toFixed(2)}x)`
          : `met (${ratio.toFixed(2)}x)`,
      },
    ],
  };
}
