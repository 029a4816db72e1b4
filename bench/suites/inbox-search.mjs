// The inbox search (issue 29) at 1,000,000 conversations and 10,000,000 messages of one business:
// p50/p95/p99 of GET /api/msg/search/?q= on the built Titan, as the owner, for a mix of searches —
// a rare word, a word of a few thousand messages, a common word's prefix, two common words, a
// customer's name, a phone number fragment — beside the raw SQL of the same search: the one
// statement the server runs (search.repository.ts searchStatement: customers by ILIKE on the
// trigram index, both message tables by full text, the count and one page with its highlights),
// built by the server's own code imported from the built server (apps/server/dist/
// conversations-search.js, so it cannot drift) and run on a pg pool of 10 with the same text and
// values, in a transaction after the same `set local` settings (SEARCH_SETTINGS). Titan's answer is checked against the SQL's: the same count, the same page (conversation
// and message ids, in order). Target: Titan's p95 <= 2x the raw SQL's; p95 <= 50 ms is printed as
// information (the statement alone is that fast only for searches that match few rows: the count
// of a common word's matches is most of its cost, on both sides). EXPLAIN (ANALYZE, BUFFERS) of
// every row's statement, run alone after the load, goes to bench/results/inbox-search-plans.txt.
//
// The seed (in a fresh database, dropped at the end; set-based SQL, generate_series): the owner
// signs up and creates the business through Titan's API (development instance), then, with the
// user triggers off and the secondary indexes and foreign keys dropped (rebuilt afterwards from
// their own definitions, then VACUUM (ANALYZE)):
// - customers (30% of the conversations): 50 first × 50 last names, emails first.last<n>@<6
//   domains>, phones +1 and 10 digits;
// - conversations over the last two years, 80% titan_message / 20% whatsapp, initiators drawn from
//   the customers, 30% resolved, 40% unread;
// - messages: 80% in `messages` (titan_message conversations), 20% in `wa_messages` (WhatsApp),
//   each on a random conversation of its channel, dated between its creation and its last message;
//   2% notes, 3% activity lines (never searched). Texts: 200,000 distinct ones of 4 to 16 words,
//   each message one of them at random (so at 10,000,000 messages each text is in ~50): words drawn
//   from a Zipf-like vocabulary of 1,000,000, rank r = floor(exp(ln(V) · u^1.5)), u uniform — the
//   150 most frequent are English words of a support chat (about half the words written), the rest
//   made-up six-letter words (three syllables, one per rank): ~2% of the messages hold a word of
//   rank 40 ("refund"), ~0.02% one of rank 3,000. Every 10th message also names an order number
//   (8 digits, one per message), and 20 messages over the two years a product code, the rare word.
//
// Env: BENCH_SEARCH_CONVERSATIONS (default 1,000,000), BENCH_SEARCH_MESSAGES (default 10,000,000),
// BENCH_SEARCH_REQUESTS (measured calls per row and side, default 200; fewer for a row whose
// statement takes long: each side's calls are cut to about BENCH_SEARCH_BUDGET_S seconds, default
// 20, with at least 10), BENCH_SEARCH_WARMUP (per row and side, default 20), BENCH_SEARCH_CONCURRENCY
// (calls in flight, default 2: people searching, on a machine whose 2 cores the servers share with
// the bench), BENCH_SEARCH_DATABASE_URL (a kept database: seeded on the first run, reused after,
// never dropped — for iterating).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { intFromEnv } from '../lib/env.mjs';
import { httpClient, interleavedLoads } from '../lib/fixed-load.mjs';
import { authHeaders, login, ownerOnDevInstance } from '../lib/identity.mjs';
import { keptOrFreshDatabase } from '../lib/inbox-seed.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SEARCH_ENGINE = join(here, '..', '..', 'apps', 'server', 'dist', 'conversations-search.js');
const searchEngine = await import(pathToFileURL(SEARCH_ENGINE).href).catch((err) => {
  throw new Error(
    `${SEARCH_ENGINE} is missing or broken: run \`npm run build -w @titan/server\` first (${err.message})`,
  );
});

export const name = 'inbox-search';

/**
 * Runs `fn` as Titan runs the search: in a transaction of its own, after the search's settings
 * (search.repository.ts SEARCH_SETTINGS, from the built server) — begin, the settings, the
 * statement, commit.
 */
export async function inSearchTransaction(pool, fn) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const setting of searchEngine.SEARCH_SETTINGS) await client.query(setting);
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const PLANS_FILE = join(here, '..', 'results', 'inbox-search-plans.txt');
const OWNER = { email: 'search-owner@bench.test', password: 'bench search password 123' };
const BUSINESS = 'Bench Search Ltd';
const TARGET_RATIO = 2;
const INFO_P95_MS = 50;
const POOL_MAX = 10; // Titan's DATABASE_POOL_MAX default
const MIN_CALLS = 10;

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');
const int = (v) => Number(v).toLocaleString('en-US');

export const columns = [
  { key: 'query', label: 'query' },
  { key: 'count', label: 'count', align: 'right', format: int },
  { key: 'calls', label: 'calls', align: 'right' },
  { key: 'titanP50', label: 'titan p50', align: 'right', format: ms },
  { key: 'titanP95', label: 'p95', align: 'right', format: ms },
  { key: 'titanP99', label: 'p99', align: 'right', format: ms },
  { key: 'sqlP50', label: 'raw sql p50', align: 'right', format: ms },
  { key: 'sqlP95', label: 'p95', align: 'right', format: ms },
  { key: 'sqlP99', label: 'p99', align: 'right', format: ms },
  { key: 'ratioP95', label: 'p95 titan/sql', align: 'right', format: x },
  { key: 'aloneMs', label: 'alone', align: 'right', format: ms },
  { key: 'verdict', label: `target (p95 <= ${TARGET_RATIO}x sql; <= ${INFO_P95_MS} ms info)` },
];

// ---------------------------------------------------------------- the vocabulary

/** The 150 most frequent words, most frequent first (rank = index + 1). */
const HEAD = `i the to you a and my is it for of in hi can this have we thanks please on not with order
  me be your but that was are help get do just account there so what when would if at hello an
  refund will like know could from all they one payment need our still how as no ok any time
  invoice address yes about been here did email now card today why back by sent new want or us
  delivery send has which more problem again app only days also had number update cancel check
  plan work login password received sorry see make then were its week error message store item
  price shipping tracking return order's box team phone code link open change billing support
  subscription free other sure great issue fixed working reset screen still waiting reply call
  refunded thank reference charge charged date late missing wrong name size color`
  .split(/\s+/)
  .filter(Boolean);
const SYLLABLES = [...'bdfghklmnprstvzjcwxy'].flatMap((c) => [...'aeiou'].map((v) => c + v)); // 100
const VOCABULARY = 1_000_000;
const LN_V = Math.log(VOCABULARY);
/** The word of rank r (as the seed's SQL writes it). */
const wordOf = (r) =>
  r <= HEAD.length
    ? HEAD[r - 1]
    : SYLLABLES[r % 100] + SYLLABLES[Math.floor(r / 100) % 100] + SYLLABLES[Math.floor(r / 10000) % 100];

const FIRST = `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard
  Susan Joseph Jessica Thomas Sarah Carlos Karen Ana Lucia Mohammed Fatima Wei Yuki Olga Ivan Priya Arjun
  Chen Sofia Mateo Emma Noah Olivia Liam Amara Kwame Ingrid Lars Hana Kenji Mira Omar Leila Diego Camila
  Tomasz Zofia`.split(/\s+/);
const LAST = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez
  Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark
  Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Goldstein Okafor
  Kowalski Tanaka Yamamoto Silva Santos Novak Petrov Larsen`.split(/\s+/);
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'shop.example', 'mail.test', 'proton.me'];
/** Customer g's phone digits (after +1), as the seed writes them. */
const phoneDigits = (g) => String(2000000000n + ((BigInt(g) * 7919n) % 7999999999n));

/** The rows: what people type in the inbox's search box, matching few rows and many. */
function scenarios(sizes) {
  const g = Math.max(1, Math.floor(sizes.customers * 0.4242));
  const first = FIRST[(g * 31) % 50];
  const last = LAST[Math.floor((g * 17) / 7) % 50];
  const digits = phoneDigits(g);
  const order = orderNumber(10 * Math.floor((sizes.messages * 0.37) / 10) + 5);
  return [
    { query: `rare word: "${RARE_WORD}"`, q: RARE_WORD },
    { query: `order number: "${order}"`, q: String(order) },
    { query: `word of a few thousand: "${wordOf(3_000)}"`, q: wordOf(3_000) },
    { query: 'common word prefix: "ref"', q: 'ref' },
    { query: 'two common words: "invoice address"', q: 'invoice address' },
    { query: `customer name: "${first} ${last}"`, q: `${first} ${last}` },
    { query: `phone fragment: "${digits.slice(-7)}"`, q: digits.slice(-7) },
  ];
}

// ---------------------------------------------------------------- the seed

const LOADED = ['customers', 'conversations', 'messages', 'wa_messages'];
const TRIGGERED = ['customers', 'conversations', 'messages', 'wa_messages'];
const sqlArray = (values) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/** Distinct message texts drawn from the vocabulary; each message takes one at random. */
const TEXTS = 200_000;
/** A text: 4 to 16 words of the vocabulary (`g` ties the subquery to the outer row). */
const TEXT = `(select string_agg(case when r <= ${HEAD.length} then (${sqlArray(HEAD)})[r]
      else (${sqlArray(SYLLABLES)})[1 + r % 100] || (${sqlArray(SYLLABLES)})[1 + (r / 100) % 100]
        || (${sqlArray(SYLLABLES)})[1 + (r / 10000) % 100] end, ' ')
    from (select least(${VOCABULARY - 1}, floor(exp(${LN_V} * random() ^ 1.5)))::int as r
            from generate_series(1, 4 + (g % 13))) w)`;
/** The rare word: a product code written in RARE_MESSAGES messages spread over the two years. */
const RARE_WORD = 'zx81q';
const RARE_MESSAGES = 20;
/** Message n (1..M over both tables) of every 10th carries an order number, one per message. */
const orderNumber = (n) => 10_000_000 + ((n * 7919) % 90_000_000);
/** The SQL of a message's text: its drawn text, an order number on every 10th, the rare word. */
const BODY = (n, total) => `t.body
  || case when ${n} % 10 = 5 then ' order ' || (10000000 + (${n}::bigint * 7919) % 90000000)::text else '' end
  || case when ${n} % ${Math.max(1, Math.floor(total / RARE_MESSAGES))} = 7 then ' ${RARE_WORD}' else '' end`;
/** Message kind by its number: 95% text, 2% note (staff), 3% activity (never searched). */
const KIND = (n) =>
  `case when ${n} % 100 < 2 then 'note' when ${n} % 100 < 5 then 'activity' else 'text' end`;

async function seed(client, businessId, userId, sizes, progress) {
  const timings = [];
  let t = performance.now();
  const step = (label) => {
    const now = performance.now();
    timings.push(`${label} ${((now - t) / 1000).toFixed(1)} s`);
    progress(`seed: ${label}: ${((now - t) / 1000).toFixed(1)} s`);
    t = now;
  };
  const q = (text, values) => client.query(text, values);
  await q(`set synchronous_commit = off`);
  await q(`set work_mem = '512MB'`);
  await q(`set maintenance_work_mem = '1GB'`);
  await q(`set max_parallel_maintenance_workers = 2`);
  await q(`select setseed(0.2929)`);

  for (const table of TRIGGERED) await q(`alter table ${table} disable trigger user`);
  const { rows: indexes } = await q(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class c on c.oid = i.indrelid
      where c.relname = any($1) and c.relnamespace = 'public'::regnamespace and not i.indisprimary
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    [LOADED],
  );
  const { rows: fkeys } = await q(
    `select conname, conrelid::regclass::text as tbl, pg_get_constraintdef(oid) as def from pg_constraint
      where contype = 'f' and connamespace = 'public'::regnamespace
        and (conrelid::regclass::text = any($1) or confrelid::regclass::text = any($1))`,
    [LOADED],
  );
  const { rows: stats } = await q(
    `select i.indexrelid::regclass::text as name, a.attnum, a.attstattarget from pg_index i
       join pg_class c on c.oid = i.indrelid join pg_attribute a on a.attrelid = i.indexrelid
      where c.relname = any($1) and a.attstattarget > 0`,
    [LOADED],
  );
  for (const fk of fkeys) await q(`alter table ${fk.tbl} drop constraint "${fk.conname}"`);
  for (const ix of indexes) await q(`drop index ${ix.name}`);
  step(`triggers off, ${indexes.length} indexes and ${fkeys.length} foreign keys dropped`);

  await q(
    `insert into customers (business_id, name, email, phone, fields, created_at, updated_at)
     select $1, f || ' ' || l,
       lower(f) || '.' || lower(l) || g || '@' || (${sqlArray(DOMAINS)})[1 + g % ${DOMAINS.length}],
       '+1' || (2000000000 + (g::bigint * 7919) % 7999999999)::text, '{}'::jsonb, ts, ts
     from generate_series(1, $2::int) g,
       lateral (select (${sqlArray(FIRST)})[1 + (g * 31) % 50] as f, (${sqlArray(LAST)})[1 + (g * 17 / 7) % 50] as l,
                       now() - interval '730 days' * (1 - g::float8 / $2::int) as ts) n`,
    [businessId, sizes.customers],
  );
  const { rows: c0 } = await q(`select min(id) as first from customers where business_id = $1`, [businessId]);
  step(`customers (${int(sizes.customers)})`);

  await q(
    `insert into conversations (business_id, title, status, is_read, channel, initiator_id, last_message_at,
                                business_replied, created_at, updated_at)
     select $1, 'Conversation ' || g, case when random() < 0.3 then 'resolved' else 'active' end,
            random() >= 0.4, case when random() < 0.2 then 'whatsapp' else 'titan_message' end,
            $3::bigint + floor(random() * $4::int)::bigint, lma, random() < 0.5, created, lma
       from (select g, now() - interval '730 days' * (1 - g::float8 / $2::int) as created
               from generate_series(1, $2::int) g) s
       cross join lateral (select created + random() ^ 4 * least(interval '60 days', now() - created) as lma) l`,
    [businessId, sizes.conversations, c0[0].first, sizes.customers],
  );
  step(`conversations (${int(sizes.conversations)})`);

  // The conversations of each channel numbered 1..n, so a message draws its conversation by number.
  for (const [table, channel] of [
    ['seed_titan', 'titan_message'],
    ['seed_wa', 'whatsapp'],
  ]) {
    await q(
      `create temp table ${table} as select row_number() over (order by id) as k, id, created_at, last_message_at,
              initiator_id from conversations where business_id = $1 and channel = $2`,
      [businessId, channel],
    );
    await q(`create unique index on ${table} (k)`);
    await q(`analyze ${table}`);
  }
  const { rows: n } = await q(
    `select (select count(*) from seed_titan)::int as titan, (select count(*) from seed_wa)::int as wa`,
  );
  const titanMessages = Math.round(sizes.messages * 0.8);
  const waMessages = sizes.messages - titanMessages;
  const texts = Math.min(TEXTS, sizes.messages);
  await q(
    `create temp table seed_texts as select g as k, ${TEXT} as body from generate_series(1, $1::int) g`,
    [texts],
  );
  await q(`create unique index on seed_texts (k)`);
  await q(`analyze seed_texts`);
  step(`${int(texts)} distinct texts`);
  const when = `c.created_at + random() * (c.last_message_at - c.created_at)`;
  // Message n: g in messages, titanMessages + g in wa_messages.
  await q(
    `insert into messages (business_id, conversation_id, content, message_type, sender_type, sender_id, is_read,
                           meta_data, status, created_at)
     select $1, c.id, case when kind = 'activity' then 'Conversation assigned to Bench Owner'
                           else ${BODY('g', sizes.messages)} end,
            kind, sender, case when sender = 'customer' then c.initiator_id else $4::bigint end, true, '{}'::jsonb,
            case when kind = 'text' then 'sent' end, ${when}
       from (select g, 1 + floor(random() * $3::int)::bigint as k, 1 + floor(random() * $5::int)::int as tk,
                    ${KIND('g')} as kind, random() as u from generate_series(1, $2::int) g) m
       join seed_titan c on c.k = m.k
       join seed_texts t on t.k = m.tk
       cross join lateral (select case when kind = 'activity' then 'system' when kind = 'note' or u < 0.5
                                  then 'staff' else 'customer' end as sender) s`,
    [businessId, titanMessages, n[0].titan, userId, texts],
  );
  step(`messages (${int(titanMessages)} over ${int(n[0].titan)} titan_message conversations)`);
  await q(
    `insert into wa_messages (id, business_id, conversation_id, content, message_type, sender_type, sender_id,
                              is_read, meta_data, status, timestamp, created_at)
     select 'wamid.' || md5('search:' || n), $1, c.id,
            case when kind = 'activity' then 'Conversation assigned to Bench Owner'
                 else ${BODY('n', sizes.messages)} end,
            kind, sender, case when sender = 'customer' then c.initiator_id else $4::bigint end, true,
            jsonb_build_object('type', 'text'), case when kind = 'text' then 'delivered' end,
            extract(epoch from at)::int, at
       from (select $6::bigint + g as n, 1 + floor(random() * $3::int)::bigint as k,
                    1 + floor(random() * $5::int)::int as tk, ${KIND('($6::bigint + g)')} as kind, random() as u
               from generate_series(1, $2::int) g) m
       join seed_wa c on c.k = m.k
       join seed_texts t on t.k = m.tk
       cross join lateral (select case when kind = 'activity' then 'system' when kind = 'note' or u < 0.5
                                  then 'staff' else 'customer' end as sender, ${when} as at) s`,
    [businessId, waMessages, Math.max(1, n[0].wa), userId, texts, titanMessages],
  );
  step(`wa_messages (${int(waMessages)} over ${int(n[0].wa)} whatsapp conversations)`);
  await q(`drop table seed_titan, seed_wa, seed_texts`);

  for (const ix of indexes) {
    await q(ix.def);
    if (/search/.test(ix.name)) step(`index ${ix.name}`);
  }
  for (const s of stats)
    await q(`alter index ${s.name} alter column ${s.attnum} set statistics ${s.attstattarget}`);
  step(`the other indexes (${indexes.length} in all)`);
  for (const fk of fkeys) await q(`alter table ${fk.tbl} add constraint "${fk.conname}" ${fk.def}`);
  for (const table of TRIGGERED) await q(`alter table ${table} enable trigger user`);
  const { rows: rebuild } = await q(
    `select 1 from pg_proc where proname = 'titan_rebuild_conversation_counts'`,
  );
  if (rebuild.length > 0) await q(`select titan_rebuild_conversation_counts($1)`, [businessId]);
  step(`foreign keys (${fkeys.length}) validated, triggers on, counts rebuilt`);
  await q(`reset maintenance_work_mem`);
  await q(`vacuum (analyze) customers, conversations, messages, wa_messages`);
  step('vacuum (analyze)');
  return timings;
}

/** The seeded business of a kept database, or null. */
async function findSeeded(client) {
  const exists = await client.query(`select to_regclass('public.businesses') as t`);
  if (!exists.rows[0].t) return null;
  const { rows } = await client.query(
    `select b.id, b.unique_code,
            (select count(*) from conversations c where c.business_id = b.id)::int as conversations,
            (select count(*) from messages m where m.business_id = b.id)::int
              + (select count(*) from wa_messages w where w.business_id = b.id)::int as messages,
            (select count(*) from customers u where u.business_id = b.id)::int as customers
       from businesses b where b.name = $1 order by b.id limit 1`,
    [BUSINESS],
  );
  return rows[0] ?? null;
}

// ---------------------------------------------------------------- the answers

/** The page of the SQL's rows, as `conversation:message` keys (message empty for a customer match). */
const sqlAnswer = (rows) => ({
  count: Number(rows[0]?.total ?? 0),
  keys: rows.filter((r) => r.kind !== null).map((r) => `${r.conversation_id}:${r.msg_id ?? r.wa_id ?? ''}`),
});
const titanAnswer = (body) => {
  const page = JSON.parse(body).result;
  return {
    count: page.count,
    keys: page.results.map((r) => `${r.conversation.id}:${r.message?.id ?? ''}`),
  };
};

// ---------------------------------------------------------------- the suite

export async function run(ctx) {
  const sizes = {
    conversations: intFromEnv('BENCH_SEARCH_CONVERSATIONS', 1_000_000),
    messages: intFromEnv('BENCH_SEARCH_MESSAGES', 10_000_000),
  };
  sizes.customers = Math.max(100, Math.round(sizes.conversations * 0.3));
  const requests = intFromEnv('BENCH_SEARCH_REQUESTS', 200);
  const warmup = intFromEnv('BENCH_SEARCH_WARMUP', 20, 0);
  const concurrency = intFromEnv('BENCH_SEARCH_CONCURRENCY', 2);
  const budgetMs = intFromEnv('BENCH_SEARCH_BUDGET_S', 20) * 1000;

  const database = await keptOrFreshDatabase(ctx, 'BENCH_SEARCH_DATABASE_URL', 'inbox-search');
  const notes = [`database: ${database.describe}`];
  const client = new pg.Client({ connectionString: database.url, application_name: 'titan-bench-seed' });
  client.on('error', () => {});
  await client.connect();
  ctx.defer(() => client.end());

  let seeded = await findSeeded(client);
  if (seeded && (seeded.conversations !== sizes.conversations || seeded.messages !== sizes.messages)) {
    throw new Error(
      `${database.name} holds another seed (${int(seeded.conversations)} conversations, ${int(seeded.messages)} ` +
        'messages): drop it or use another BENCH_SEARCH_DATABASE_URL',
    );
  }
  if (seeded) {
    notes.push(`seed: reused (${int(seeded.conversations)} conversations, ${int(seeded.messages)} messages)`);
  } else {
    const businessCode = await ownerOnDevInstance(
      ctx,
      database,
      { ...OWNER, firstName: 'Bench', lastName: 'Owner' },
      BUSINESS,
    );
    const { rows } = await client.query(
      `select b.id, u.id as user_id from businesses b join memberships m on m.business_id = b.id
         join users u on u.id = m.user_id where b.unique_code = $1`,
      [businessCode],
    );
    const t0 = performance.now();
    ctx.progress(
      `seeding ${int(sizes.conversations)} conversations, ${int(sizes.messages)} messages, ` +
        `${int(sizes.customers)} customers`,
    );
    const timings = await seed(client, Number(rows[0].id), Number(rows[0].user_id), sizes, ctx.progress);
    notes.push(
      `seed: ${int(sizes.conversations)} conversations, ${int(sizes.messages)} messages (80% messages, 20% ` +
        `wa_messages), ${int(sizes.customers)} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
        `(${timings.join('; ')})`,
    );
    seeded = await findSeeded(client);
  }
  const businessId = Number(seeded.id);
  const { rows: size } = await client.query(
    `select pg_size_pretty(pg_total_relation_size('messages')) as messages,
            pg_size_pretty(pg_relation_size('messages_search_idx')) as idx`,
  );
  notes.push(`messages table ${size[0].messages} with its indexes; messages_search_idx ${size[0].idx}`);

  ctx.progress('starting titan (production)');
  const titan = ctx.use(await ctx.startTitan(database));
  let session = await login(titan.url, OWNER.email, OWNER.password);
  let loggedInAt = Date.now();
  const pool = new pg.Pool({
    connectionString: database.url,
    max: POOL_MAX,
    application_name: 'titan-bench-sql',
    options: '-c jit=off', // as Titan's pool
  });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());

  const rows = [];
  const plans = [
    `EXPLAIN (ANALYZE, BUFFERS) of the inbox-search statements (${new Date().toISOString()}), database ` +
      `${database.name}, ${int(seeded.conversations)} conversations, ${int(seeded.messages)} messages; ` +
      'each run alone after the load.',
    '',
  ];
  for (const sc of scenarios(sizes)) {
    if (Date.now() - loggedInAt > 10 * 60_000) {
      session = await login(titan.url, OWNER.email, OWNER.password); // access tokens live 15 minutes
      loggedInAt = Date.now();
    }
    const http = httpClient(titan.url, {
      headers: authHeaders(session.access, seeded.unique_code),
      sockets: concurrency,
      timeoutMs: 300_000, // a common word's search takes seconds on a busy machine
    });
    const path = `/api/msg/search/?q=${encodeURIComponent(sc.q)}`;
    const statement = searchEngine.searchStatementForQuery(businessId, { q: sc.q });
    const sqlOnce = () => inSearchTransaction(pool, (c) => c.query(statement));

    // Same answer on both sides (and a first, cold call of each, not measured).
    const t = titanAnswer((await http.get(path)).body);
    const t0 = performance.now();
    const s = sqlAnswer((await sqlOnce()).rows);
    const oneMs = Math.max(performance.now() - t0, (await timed(sqlOnce)).ms);
    const agree = t.count === s.count && JSON.stringify(t.keys) === JSON.stringify(s.keys);
    if (!agree) {
      notes.push(
        `WARNING ${sc.query}: titan answered count ${t.count}, page ${t.keys.join(',')}; ` +
          `the SQL ${s.count}, ${s.keys.join(',')}`,
      );
    }
    const calls = Math.min(requests, Math.max(MIN_CALLS, Math.floor((budgetMs * concurrency) / oneMs)));
    ctx.progress(`${sc.query}: ${int(s.count)} matches, ${calls} calls a side (one ~${ms(oneMs)} ms)`);
    const { titan: tl, sql: sl } = await interleavedLoads({
      sides: { titan: () => http.get(path), sql: sqlOnce },
      total: calls,
      rounds: Math.min(4, calls),
      concurrency,
      warmup: Math.min(warmup, Math.ceil(calls / 5)),
    });
    http.close();
    for (const [side, m] of [
      ['titan', tl],
      ['sql', sl],
    ]) {
      if (m.errors > 0)
        notes.push(`WARNING ${sc.query}: ${side} had ${m.errors} failed calls (${m.firstError})`);
      if (m.count === 0) throw new Error(`${sc.query}: no ${side} call succeeded: ${m.firstError}`);
    }

    const { rows: plan } = await inSearchTransaction(pool, (c) =>
      c.query({ text: `explain (analyze, buffers) ${statement.text}`, values: statement.values }),
    );
    const lines = plan.map((r) => r['QUERY PLAN']);
    const aloneMs = Number((lines.find((l) => l.startsWith('Execution Time')) ?? '').replace(/[^\d.]/g, ''));
    plans.push(`=== ${sc.query} (count ${s.count}; titan p95 ${ms(tl.p95)} ms, sql p95 ${ms(sl.p95)} ms)`);
    plans.push(`-- params ${JSON.stringify(statement.values)}`, ...lines, '');

    const ratioP95 = tl.p95 / sl.p95;
    const verdict = [
      !agree ? 'ANSWERS DIFFER' : null,
      ratioP95 <= TARGET_RATIO ? `met (${x(ratioP95)})` : `MISSED (${x(ratioP95)})`,
      tl.p95 <= INFO_P95_MS ? `<= ${INFO_P95_MS} ms` : `> ${INFO_P95_MS} ms`,
    ]
      .filter(Boolean)
      .join('; ');
    rows.push({
      query: sc.query,
      q: sc.q,
      count: t.count,
      agree,
      calls,
      titanP50: tl.p50,
      titanP95: tl.p95,
      titanP99: tl.p99,
      sqlP50: sl.p50,
      sqlP95: sl.p95,
      sqlP99: sl.p99,
      ratioP95,
      ratioP50: tl.p50 / sl.p50,
      aloneMs,
      verdict,
      titan: tl,
      sql: sl,
    });
    ctx.progress(`${sc.query}: titan p95 ${ms(tl.p95)} ms, sql p95 ${ms(sl.p95)} ms — ${verdict}`);
  }
  await mkdir(dirname(PLANS_FILE), { recursive: true });
  await writeFile(PLANS_FILE, `${plans.join('\n')}\n`);

  const missed = rows.filter((r) => !(r.ratioP95 <= TARGET_RATIO) || !r.agree);
  notes.push(
    `titan: apps/server/dist/main.js, NODE_ENV=production, GET /api/msg/search/?q= as the owner (default ` +
      `page_size); sql: the same statement (searchStatement, from the built server's conversations-search.js: ` +
      `same text and values) on a pg pool of ${POOL_MAX}; ${concurrency} calls in flight, the sides alternating ` +
      `in 4 rounds after ${warmup} warm-up calls each; calls per side: ${requests}, fewer for a slow statement ` +
      `(about ${budgetMs / 1000} s a side, at least ${MIN_CALLS})`,
    `count = matches (customers' conversations + messages + WhatsApp messages), the same on both sides with the ` +
      `same page when no WARNING says otherwise; alone = the statement's execution time under EXPLAIN ANALYZE ` +
      `with nothing else running (${PLANS_FILE})`,
    missed.length
      ? `${missed.length} of ${rows.length} rows miss the target (p95 <= ${TARGET_RATIO}x the raw SQL): ` +
          missed.map((r) => r.query).join('; ')
      : `all ${rows.length} rows meet the target (p95 <= ${TARGET_RATIO}x the raw SQL)`,
  );
  return {
    title:
      `inbox-search — GET /api/msg/search/ over ${int(seeded.conversations)} conversations and ` +
      `${int(seeded.messages)} messages vs the raw SQL of the same search (ms)`,
    rows,
    notes,
  };
}

async function timed(fn) {
  const t = performance.now();
  const out = await fn();
  return { out, ms: performance.now() - t };
}
