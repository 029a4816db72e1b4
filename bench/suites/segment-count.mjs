// The segment builder's live count over 1,000,000 customers of one business (issue 31), with
// behaviour conditions: POST /api/business/customer-lists/segments/count/ {rules} on the built Titan,
// beside the raw SQL of the same count — one `select count(*) from customers where …` written by
// hand from docs/api/audience.md's definitions (a campaign's sends are the `broadcast` sends whose
// broadcast carries its id; opens and clicks their send_events, machines apart; replies the
// customer's messages; an open conversation one not resolved), on a pg pool of 10 — and the ratio.
// Target (the issue's Done-when): Titan's p95 <= 2x the raw SQL's. Each row checks Titan's count
// equals the SQL's.
//
// Seeding (generate_series, then VACUUM ANALYZE): N customers (plan pro/free/team, email consent);
// two campaigns (X and Y, rows only) each with a broadcast; every customer got X (a day to 60 days
// ago, 2% failed), every third got Y; a person opened X for every fifth (a machine for every 50th),
// clicked for every twentieth; a tenth started a conversation (active, snoozed or resolved) with one
// message of theirs. About 1.33 N sends and 0.27 N events.
//
// Env: BENCH_SEGMENT_ROWS (customers, default 1,000,000), BENCH_SEGMENT_REQUESTS (measured calls
// per row and side, default 60), BENCH_SEGMENT_WARMUP (per row and side, default 5),
// BENCH_SEGMENT_CONCURRENCY (calls in flight, default 2: a marketer typing in the builder).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { httpClient, interleavedLoads } from '../lib/fixed-load.mjs';
import { intFromEnv } from '../lib/env.mjs';
import { authHeaders, login, ownerOnDevInstance } from '../lib/identity.mjs';
import { REPO_ROOT } from '../lib/servers.mjs';

export const name = 'segment-count';

const OWNER = { email: 'segment-owner@bench.test', password: 'bench password 123' };
const TARGET_RATIO = 2;

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');

export const columns = [
  { key: 'query', label: 'rules' },
  { key: 'count', label: 'count', align: 'right' },
  { key: 'titanP50', label: 'titan p50', align: 'right', format: ms },
  { key: 'titanP95', label: 'p95', align: 'right', format: ms },
  { key: 'sqlP50', label: 'raw sql p50', align: 'right', format: ms },
  { key: 'sqlP95', label: 'p95', align: 'right', format: ms },
  { key: 'ratioP95', label: 'p95 titan/sql', align: 'right', format: x },
  { key: 'verdict', label: `target (p95 <= ${TARGET_RATIO}x the raw SQL's)` },
];

const RECEIVED = `s.status not in ('queued', 'sending', 'suppressed', 'cancelled', 'failed', 'bounced', 'undelivered')`;
const campaignSends = (campaign) =>
  `s.business_id = $1 and s.customer_id = c.id and s.cause = 'broadcast' and ${RECEIVED}
   and s.cause_id in (select b.id::text from broadcasts b where b.business_id = $1 and ${
     campaign ? `b.campaign_id = '${campaign}'` : 'b.campaign_id is not null'
   })`;
const since = (days) => `now() - interval '${days} days'`;
const opened = (days, campaign, types = `('opened', 'clicked')`) =>
  `exists (select 1 from sends s join send_events e on e.send_id = s.id where ${campaignSends(campaign)}
     and e.business_id = $1 and e.type in ${types} and not coalesce((e.payload->>'machine')::boolean, false)
     and coalesce(e.occurred_at, e.received_at) >= ${since(days)})`;
const received = (days, campaign) =>
  `exists (select 1 from sends s where ${campaignSends(campaign)} and s.created_at >= ${since(days)})`;
const wrote = (days) =>
  ['messages', 'wa_messages']
    .map(
      (t) => `exists (select 1 from conversations v join ${t} m on m.conversation_id = v.id
        where v.business_id = $1 and v.initiator_id = c.id and m.business_id = $1
          and m.sender_type = 'customer' and m.created_at >= ${since(days)})`,
    )
    .join(' or ');
const openConversation = `exists (select 1 from conversations v where v.business_id = $1
  and v.initiator_id = c.id and v.status <> 'resolved')`;

/** The rows: behaviour alone, with a field, negated, and OR-ed with the inbox. */
function scenarios(x, y) {
  return [
    {
      query: 'opened any campaign, 30 days',
      rules: { all: [{ event: 'opened', within_days: 30 }] },
      where: opened(30),
    },
    {
      query: 'clicked campaign X, 7 days, and plan = free',
      rules: {
        all: [
          { field: 'customer.fields.plan', op: 'eq', value: 'free' },
          { event: 'clicked', campaign_id: x, within_days: 7 },
        ],
      },
      where: `(c.fields ->> 'plan') = 'free' and ${opened(7, x, `('clicked')`)}`,
    },
    {
      query: 'received Y, 30 days, and did not open any, 30 days',
      rules: {
        all: [
          { event: 'received', campaign_id: y, within_days: 30 },
          { event: 'opened', within_days: 30, not: true },
        ],
      },
      where: `${received(30, y)} and not ${opened(30)}`,
    },
    {
      query: 'replied, 14 days, or has an open conversation',
      rules: {
        any: [{ event: 'replied', within_days: 14 }, { event: 'open_conversation' }],
      },
      where: `((${wrote(14)}) or ${openConversation})`,
    },
  ];
}

async function seed(client, businessId, rows, progress) {
  await client.query('set synchronous_commit = off');
  progress(`seeding ${rows.toLocaleString('en-US')} customers`);
  await client.query(
    `insert into customers (business_id, name, email, fields, email_status, created_at)
     select $1, 'Customer ' || g, 'customer' || g || '@inbox.example.org',
       jsonb_build_object('plan', (array['free','pro','team'])[1 + g % 3]),
       (array['subscribed','unknown','subscribed','unsubscribed'])[1 + g % 4],
       now() - (g % 400) * interval '1 day'
     from generate_series(1, $2) g`,
    [businessId, rows],
  );
  const campaign = async (label) =>
    (
      await client.query(
        `insert into campaigns (business_id, name, channel, status, audience, content, schedule)
         values ($1, $2, 'email', 'sent', '{}'::jsonb, '{}'::jsonb, '{"mode":"now"}'::jsonb) returning id`,
        [businessId, label],
      )
    ).rows[0].id;
  const x = await campaign('X');
  const y = await campaign('Y');
  const broadcast = async (campaignId) =>
    (
      await client.query(
        `insert into broadcasts (business_id, channel, status, request, campaign_id)
         values ($1, 'email', 'done', '{}'::jsonb, $2) returning id`,
        [businessId, campaignId],
      )
    ).rows[0].id;
  const bx = await broadcast(x);
  const by = await broadcast(y);
  const [{ first }] = (
    await client.query('select min(id)::bigint as first from customers where business_id = $1', [businessId])
  ).rows;
  progress('seeding the campaigns’ sends');
  // g = the customer's place (1..N); its id is first + g - 1.
  await client.query(
    `insert into sends (business_id, channel, cause, cause_id, customer_id, recipient, status, idempotency_key, created_at)
     select $1, 'email', 'broadcast', $2, $3::bigint + g - 1, 'customer' || g || '@inbox.example.org',
       case when g % 50 = 7 then 'failed' else 'delivered' end, 'bx:' || g, now() - (1 + g % 60) * interval '1 day'
     from generate_series(1, $4) g`,
    [businessId, bx, first, rows],
  );
  await client.query(
    `insert into sends (business_id, channel, cause, cause_id, customer_id, recipient, status, idempotency_key, created_at)
     select $1, 'email', 'broadcast', $2, $3::bigint + g - 1, 'customer' || g || '@inbox.example.org',
       'delivered', 'by:' || g, now() - (1 + g % 45) * interval '1 day'
     from generate_series(3, $4, 3) g`,
    [businessId, by, first, rows],
  );
  progress('seeding opens and clicks');
  await client.query(
    `insert into send_events (business_id, channel, send_id, type, occurred_at, payload)
     select $1, 'email', s.id, t.type, s.created_at + interval '2 hours', jsonb_build_object('machine', t.machine)
     from sends s join lateral (
       select 'opened' as type, (g % 50 = 0) as machine
         from (select (substring(s.idempotency_key from 4))::int as g) k where g % 5 = 0
       union all
       select 'clicked', false
         from (select (substring(s.idempotency_key from 4))::int as g) k where g % 20 = 0
     ) t on true
     where s.business_id = $1 and s.cause_id = $2`,
    [businessId, bx],
  );
  progress('seeding conversations and messages (their triggers off meanwhile)');
  // The inbox's triggers (counts, SLA clocks, change log) cost minutes here and matter to no count.
  for (const t of ['conversations', 'messages']) await client.query(`alter table ${t} disable trigger user`);
  await client.query(
    `with v as (
       insert into conversations (business_id, channel, initiator_id, status, last_message_at, created_at)
       select $1, 'titan_message', $2::bigint + g - 1, (array['active','snoozed','resolved','resolved'])[1 + (g / 10) % 4],
         now() - (g % 90) * interval '1 day', now() - (g % 90) * interval '1 day'
       from generate_series(10, $3, 10) g returning id, initiator_id, created_at)
     insert into messages (business_id, conversation_id, content, sender_type, sender_id, created_at)
     select $1, v.id, 'hello', 'customer', v.initiator_id, v.created_at from v`,
    [businessId, first, rows],
  );
  for (const t of ['conversations', 'messages']) await client.query(`alter table ${t} enable trigger user`);
  progress('vacuum analyze');
  for (const t of ['customers', 'sends', 'send_events', 'broadcasts', 'conversations', 'messages'])
    await client.query(`vacuum analyze ${t}`);
  return { x, y };
}

export async function run(ctx) {
  const rows = intFromEnv('BENCH_SEGMENT_ROWS', 1_000_000);
  const requests = intFromEnv('BENCH_SEGMENT_REQUESTS', 60);
  const warmup = intFromEnv('BENCH_SEGMENT_WARMUP', 5, 0);
  const concurrency = intFromEnv('BENCH_SEGMENT_CONCURRENCY', 2);
  const database = await ctx.database();
  if (database.kind !== 'postgres') throw new Error(`segment-count needs PostgreSQL: ${database.describe}`);
  const notes = [`database: ${database.describe}`];

  const businessCode = await ownerOnDevInstance(
    ctx,
    database,
    { ...OWNER, firstName: 'Bench', lastName: 'Segments' },
    'Bench Segments Ltd',
  );
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());
  const [{ id }] = (await client.query('select id from businesses where unique_code = $1', [businessCode]))
    .rows;
  const businessId = Number(id);
  const seedStart = performance.now();
  const { x, y } = await seed(client, businessId, rows, ctx.progress);
  const counts = (
    await client.query(
      `select (select count(*) from sends where business_id = $1)::int as sends,
        (select count(*) from send_events where business_id = $1)::int as events,
        (select count(*) from conversations where business_id = $1)::int as conversations`,
      [businessId],
    )
  ).rows[0];
  notes.push(
    `seeded ${rows.toLocaleString('en-US')} customers, ${counts.sends.toLocaleString('en-US')} sends, ` +
      `${counts.events.toLocaleString('en-US')} send events, ${counts.conversations.toLocaleString('en-US')} ` +
      `conversations in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  ctx.progress('starting titan');
  const titan = ctx.use(await ctx.startTitan(database));
  const pool = new pg.Pool({ connectionString: database.url, max: 10, options: '-c jit=off' });
  ctx.defer(() => pool.end());

  const path = '/api/business/customer-lists/segments/count/';
  const table = [];
  const plans = [];
  for (const s of scenarios(x, y)) {
    ctx.progress(`count: ${s.query}`);
    const body = JSON.stringify({ rules: s.rules });
    // A fresh session per row: at a million customers a row outlasts an access token.
    const session = await login(titan.url, OWNER.email, OWNER.password);
    const http = httpClient(titan.url, {
      headers: authHeaders(session.access, businessCode),
      sockets: concurrency,
    });
    ctx.defer(() => http.close());
    const titanCall = () => http.post(path, body);
    const sql = {
      text: `select count(*)::int as n from customers c where c.business_id = $1 and ${s.where}`,
      values: [businessId],
    };
    const titanCount = JSON.parse((await titanCall()).body).result.count;
    const sqlCount = (await pool.query(sql)).rows[0].n;
    if (titanCount !== sqlCount)
      notes.push(`WARNING: ${s.query}: titan counts ${titanCount}, the SQL ${sqlCount}`);
    const plan = await pool.query({ ...sql, text: `explain (analyze, buffers) ${sql.text}` });
    plans.push(`-- ${s.query}\n${sql.text}\n\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
    const figures = await interleavedLoads({
      sides: { titan: titanCall, sql: () => pool.query(sql) },
      total: requests,
      rounds: 4,
      concurrency,
      warmup,
    });
    const t = figures.titan;
    const q = figures.sql;
    table.push({
      query: s.query,
      count: `${titanCount.toLocaleString('en-US')}${titanCount === sqlCount ? '' : ` (sql ${sqlCount})`}`,
      titanP50: t.p50,
      titanP95: t.p95,
      sqlP50: q.p50,
      sqlP95: q.p95,
      ratioP95: t.p95 / q.p95,
      verdict:
        t.errors || q.errors
          ? `errors: ${t.firstError ?? q.firstError}`
          : titanCount !== sqlCount
            ? 'COUNT DIFFERS'
            : t.p95 <= TARGET_RATIO * q.p95
              ? 'met'
              : 'MISSED',
    });
  }
  const plansFile = join(REPO_ROOT, 'bench', 'results', 'segment-count-plans.txt');
  await mkdir(join(REPO_ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(plansFile, plans.join('\n'));
  notes.push(`the raw SQL's plans (EXPLAIN ANALYZE, BUFFERS): ${plansFile}`);
  notes.push(
    `${requests} measured calls per row and side after ${warmup} warm-up, ${concurrency} in flight, the sides ` +
      'alternating in 4 rounds; raw sql = one count(*) over customers with the rules written by hand as ' +
      'EXISTS subqueries (docs/api/audience.md), on a pg pool of 10 (jit off, as Titan), the planner left to itself',
  );
  return {
    title: `segment-count — the segment builder's live count with behaviour rules over ${rows.toLocaleString('en-US')} customers`,
    rows: table,
    notes,
    misses: table.filter((r) => r.verdict !== 'met').map((r) => r.query),
  };
}
