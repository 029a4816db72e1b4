// Seeds ONE business with a large shared inbox, for the inbox benchmarks:
//   1,000,000 conversations, 5,000,000 messages (own channel), 300,000 customers, 5 chat groups,
//   and one WhatsApp message per WhatsApp conversation (wa_messages, ~200,000).
//
// Titan is started once on the database so its migrations run and the owner signs up and creates
// the business through the real API (NODE_ENV=development, for the development outbox); Titan is
// then stopped and the rows are bulk-loaded in SQL, a few set-based INSERT … SELECT generate_series
// statements:
//   - the realtime/count triggers on conversations, messages and wa_messages are disabled
//     (ALTER TABLE … DISABLE TRIGGER USER) and re-enabled afterwards; Titan's conversation counts
//     are rebuilt with titan_rebuild_conversation_counts(business) when that function exists;
//   - the secondary indexes and foreign keys of the loaded tables are dropped before the load and
//     recreated afterwards from their exact definitions (pg_get_indexdef / pg_get_constraintdef),
//     so the foreign keys are validated once, set-based;
//   - then VACUUM (ANALYZE), so the planner has statistics and index-only scans a visibility map,
//     as autovacuum would give a long-lived database.
// Distributions (independent, seeded with setseed so two seeds look alike): ~30% resolved,
// ~40% unread, ~50% business_replied, 80/20 titan_message/whatsapp; created_at evenly over the
// last 2 years in id order; last_message_at = created_at + gap (median ~4 days, at most 60 days,
// never after now); ~70% assigned to one of the chat groups; initiators drawn from the customers.
// Messages: every titan_message conversation gets its newest message at exactly last_message_at
// (from staff when business_replied, else from the customer, unread when the conversation is);
// the rest are spread uniformly at random over those conversations, dated between created_at and
// last_message_at; ids follow created_at, as in a live system.
//
// Standalone: node bench/seed/inbox.mjs <database-url>   (a fresh, empty database; the server must
// be built). Sizes: BENCH_SEED_CONVERSATIONS, BENCH_SEED_MESSAGES, BENCH_SEED_CUSTOMERS.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createBusiness, login, signUp } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';

export const OWNER = {
  email: 'bench.owner@example.test',
  password: 'bench correct horse battery staple',
  business: 'Bench Inbox Ltd',
};

const GROUPS = ['Sales', 'Support', 'Billing', 'Onboarding', 'VIP'];
const AGENTS = 20;
const LABELS = [
  'Billing',
  'Bug',
  'Refund',
  'Urgent',
  'VIP',
  'Shipping',
  'Feedback',
  'Sales lead',
  'Follow up',
  'Churn risk',
  'Onboarding',
  'Spam check',
];
const LABEL_COLORS = ['#ef4444', '#f97316', '#eab308', '#22c55e', '#14b8a6', '#3b82f6'];
const LOADED_TABLES = [
  'customers',
  'chat_groups',
  'conversations',
  'messages',
  'wa_messages',
  'conversation_labels',
];
const TRIGGER_TABLES = ['conversations', 'messages', 'wa_messages'];

const LOREM =
  'Hello, I have a question about my order. Could you tell me when it ships? Thanks a lot for the quick ' +
  'reply, that helps. The invoice shows a different address than the one I entered at checkout. Can I ' +
  'change the plan to yearly billing and keep my discount? The app logs me out every few minutes on my ' +
  'phone. Sure, I can send a screenshot of the error message. We would like a demo for our support team ' +
  'next week, any afternoon works. Your colleague already fixed it, you can close this conversation now.';

export function seedSizes() {
  return {
    conversations: intFromEnv('BENCH_SEED_CONVERSATIONS', 1_000_000),
    messages: intFromEnv('BENCH_SEED_MESSAGES', 5_000_000),
    customers: intFromEnv('BENCH_SEED_CUSTOMERS', 300_000),
    groups: GROUPS.length,
  };
}

/**
 * The seeded business in `url`, or null when the owner is not there. Counts the rows, so a
 * half-done seed is not mistaken for a finished one.
 */
export async function findSeed(url) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const owner = await client.query(
      `select u.id as user_id, b.id as business_id, b.unique_code
         from users u join memberships m on m.user_id = u.id join businesses b on b.id = m.business_id
        where lower(u.email) = lower($1) and b.name = $2
        order by b.id limit 1`,
      [OWNER.email, OWNER.business],
    );
    if (owner.rowCount === 0) return null;
    const { user_id: userId, business_id: businessId, unique_code: businessCode } = owner.rows[0];
    const counts = await client.query(
      `select (select count(*) from conversations where business_id = $1)::int as conversations,
              (select count(*) from messages where business_id = $1)::int as messages,
              (select count(*) from wa_messages where business_id = $1)::int as wa_messages,
              (select count(*) from customers where business_id = $1)::int as customers,
              (select count(*) from chat_groups where business_id = $1)::int as chat_groups,
              (select count(*) from conversations where business_id = $1 and assignee_id is not null)::int
                as assigned,
              (select count(*) from conversation_labels x join labels l on l.id = x.label_id
                where l.business_id = $1)::int as conversation_labels,
              (select max(last_message_at) from conversations where business_id = $1) as seeded_at,
              (select count(*) from pg_trigger t where t.tgrelid in
                 ('conversations'::regclass, 'messages'::regclass, 'wa_messages'::regclass)
                 and not t.tgisinternal and t.tgenabled = 'D')::int as disabled_triggers`,
      [businessId],
    );
    const c = counts.rows[0];
    return {
      url,
      userId: Number(userId),
      businessId: Number(businessId),
      businessCode,
      email: OWNER.email,
      password: OWNER.password,
      counts: {
        conversations: c.conversations,
        messages: c.messages,
        wa_messages: c.wa_messages,
        customers: c.customers,
        chat_groups: c.chat_groups,
        assigned: c.assigned,
        conversation_labels: c.conversation_labels,
      },
      seededAt: c.seeded_at,
      complete: c.conversations > 0 && c.disabled_triggers === 0 && c.assigned === c.conversations,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Seeds `database` ({ kind: 'postgres', url }, fresh: Titan's migrations not yet run or run on an
 * empty inbox). `startTitan(database, opts)` starts the built server (bench/lib/servers.mjs).
 * Returns the seed (as findSeed) plus { timings: [{ step, seconds }], totalSeconds }.
 */
export async function seedInbox(database, { startTitan, log = () => {}, sizes = seedSizes() } = {}) {
  if (database.kind !== 'postgres') throw new Error('the inbox seed needs PostgreSQL');
  const timings = [];
  const t0 = performance.now();
  let tStep = t0;
  const step = (name) => {
    const now = performance.now();
    timings.push({ step: name, seconds: (now - tStep) / 1000 });
    log(`${name}: ${((now - tStep) / 1000).toFixed(1)} s`);
    tStep = now;
  };

  // 1. Migrations, owner and business through the API.
  log('starting titan (NODE_ENV=development) to migrate and sign up the owner');
  const titan = await startTitan(database, { env: { NODE_ENV: 'development' } });
  let userId;
  let business;
  try {
    const session = await signUp(titan.url, {
      email: OWNER.email,
      password: OWNER.password,
      firstName: 'Bench',
      lastName: 'Owner',
    });
    userId = session.user.pk;
    business = await createBusiness(titan.url, session.access, OWNER.business);
    // The login works on the production instance too (same database; new token there).
    await login(titan.url, OWNER.email, OWNER.password);
  } finally {
    await titan.stop();
  }
  step('migrate + sign up + business (API)');

  const client = new pg.Client({ connectionString: database.url, application_name: 'titan-bench-seed' });
  client.on('error', () => {});
  await client.connect();
  const q = (text, params) => client.query(text, params);
  try {
    const { rows: biz } = await q('select id from businesses where unique_code = $1', [business.unique_code]);
    const businessId = Number(biz[0].id);

    await q(`set synchronous_commit = off`);
    await q(`set work_mem = '1GB'`);
    await q(`set maintenance_work_mem = '1GB'`);
    await q(`set max_parallel_maintenance_workers = 2`);
    await q(`select setseed(0.4242)`);

    // 2. Out of the way: user triggers, secondary indexes, foreign keys.
    for (const t of TRIGGER_TABLES) await q(`alter table ${t} disable trigger user`);
    const { rows: indexes } = await q(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i join pg_class c on c.oid = i.indrelid
        where c.relname = any($1) and c.relnamespace = 'public'::regnamespace
          and not i.indisprimary
          and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
      [LOADED_TABLES],
    );
    const { rows: fkeys } = await q(
      `select conname, conrelid::regclass::text as tbl, pg_get_constraintdef(oid) as def
         from pg_constraint
        where contype = 'f' and (conrelid::regclass::text = any($1) or confrelid::regclass::text = any($1))
          and connamespace = 'public'::regnamespace`,
      [LOADED_TABLES],
    );
    // Only drop what references or lives on the loaded tables and is empty now (a fresh database).
    const { rows: nonEmpty } = await q(
      `select (select count(*) from conversations) + (select count(*) from messages)
            + (select count(*) from wa_messages) + (select count(*) from customers) as n`,
    );
    if (Number(nonEmpty[0].n) > 0) {
      throw new Error('the inbox tables are not empty: the seed needs a fresh database');
    }
    for (const fk of fkeys) await q(`alter table ${fk.tbl} drop constraint "${fk.conname}"`);
    for (const ix of indexes) await q(`drop index ${ix.name}`);
    step(`disable triggers, drop ${indexes.length} indexes + ${fkeys.length} foreign keys`);

    // 3. Customers and chat groups.
    await q(
      `insert into customers (business_id, name, email, phone, fields, created_at, updated_at, last_seen_at)
       select $1, 'Customer ' || g, 'customer' || g || '@example.test', '+1555' || lpad(g::text, 7, '0'),
              '{}'::jsonb, ts, ts, ts + interval '1 hour'
         from (select g, now() - interval '730 days' * random() as ts
                 from generate_series(1, $2::int) g) s`,
      [businessId, sizes.customers],
    );
    await q(
      `insert into chat_groups (business_id, name, slug)
       select $1, name, lower(name) from unnest($2::text[]) name`,
      [businessId, GROUPS],
    );
    // The team: 20 agents beside the owner (every conversation has an assignee), and 12 labels.
    await q(
      `insert into users (email, username, first_name, last_name)
       select 'agent' || i || '@inbox.bench.test', 'inbox-bench-agent-' || i, 'Agent', 'No. ' || i
         from generate_series(1, $1::int) i`,
      [AGENTS],
    );
    await q(
      `insert into memberships (business_id, user_id, role)
       select $1, id, 'agent' from users where email like 'agent%@inbox.bench.test'`,
      [businessId],
    );
    await q(
      `insert into labels (business_id, name, color)
       select $1, name, ($3::text[])[1 + (i::int - 1) % cardinality($3::text[])]
         from unnest($2::text[]) with ordinality as l(name, i)`,
      [businessId, LABELS, LABEL_COLORS],
    );
    const { rows: ranges } = await q(
      `select (select min(id) from customers where business_id = $1) as cmin,
              (select count(*) from customers where business_id = $1) as cn,
              (select max(id) - min(id) + 1 from customers where business_id = $1) as cspan,
              (select array_agg(id order by id) from chat_groups where business_id = $1) as groups,
              (select array_agg(user_id order by user_id) from memberships where business_id = $1) as members,
              (select array_agg(id order by id) from labels where business_id = $1) as labels`,
      [businessId],
    );
    const r = ranges[0];
    if (Number(r.cspan) !== Number(r.cn)) throw new Error('customer ids are not contiguous');
    step(
      `customers (${sizes.customers.toLocaleString('en-US')}) + chat groups (${GROUPS.length}) + ` +
        `${AGENTS} agents + ${LABELS.length} labels`,
    );

    // 4. Conversations: created_at evenly over 2 years in id order; the gap to the last message
    //    is random()^4 of the time left (at most 60 days), so last_message_at <= now().
    await q(
      `insert into conversations (business_id, title, status, is_read, channel, initiator_id,
                                  assigned_chat_group_id, last_message_at, business_replied,
                                  created_at, updated_at, assignee_id)
       select $1, 'Conversation ' || g,
              case when r_status < 0.3 then 'resolved' else 'active' end,
              r_read >= 0.4,
              case when r_channel < 0.2 then 'whatsapp' else 'titan_message' end,
              $3::bigint + floor(random() * $4::int)::bigint,
              case when r_group < 0.7 then ($5::bigint[])[1 + floor(random() * cardinality($5::bigint[]))::int] end,
              lma, r_replied < 0.5, created, lma,
              ($6::bigint[])[1 + floor(random() * cardinality($6::bigint[]))::int]
         from (select g, random() as r_status, random() as r_read, random() as r_channel,
                      random() as r_group, random() as r_replied,
                      now() - interval '730 days' * (1 - g::float8 / $2::int) - random() * interval '60 seconds'
                        as created
                 from generate_series(1, $2::int) g) s
         cross join lateral (
           select created + random() ^ 4 * least(interval '60 days', greatest(now() - created, interval '0'))
             as lma) l`,
      [businessId, sizes.conversations, r.cmin, Number(r.cn), r.groups, r.members],
    );
    // 1 to 3 labels each (consecutive ones of the 12, from a place set by the id).
    await q(
      `insert into conversation_labels (conversation_id, label_id)
       select c.id, ($2::bigint[])[1 + ((c.id * 7 + j) % cardinality($2::bigint[]))::int]
         from conversations c cross join generate_series(0, 2) j
        where c.business_id = $1 and j <= c.id % 3`,
      [businessId, r.labels],
    );
    step(`conversations (${sizes.conversations.toLocaleString('en-US')}), assigned and labelled`);

    // 5. Messages over the titan_message conversations (newest = last_message_at), ids by time.
    await q(
      `create temp table seed_tc as
       select row_number() over (order by id) as k, id, created_at, last_message_at, initiator_id,
              business_replied, is_read
         from conversations where business_id = $1 and channel = 'titan_message'`,
      [businessId],
    );
    await q(`create unique index on seed_tc (k)`);
    await q(`analyze seed_tc`);
    const { rows: tcRows } = await q(`select count(*)::int as n from seed_tc`);
    const nTitan = tcRows[0].n;
    const newest = Math.min(nTitan, sizes.messages);
    const extra = sizes.messages - newest;
    await q(
      `insert into messages (business_id, conversation_id, content, message_type, sender_type, sender_id,
                             is_read, meta_data, status, created_at)
       select $1, conversation_id, content, 'text', sender_type,
              case when sender_type = 'staff' then $5::bigint else initiator_id end,
              is_read, '{}'::jsonb, 'sent', created_at
         from (
           select c.id as conversation_id, c.initiator_id, m.newest,
                  substr($6::text, 1 + floor(random() * 200)::int, 12 + floor(random() * 110)::int) as content,
                  case when m.newest then (case when c.business_replied then 'staff' else 'customer' end)
                       when random() < 0.5 then 'staff' else 'customer' end as sender_type,
                  case when m.newest then c.last_message_at
                       else c.created_at + random() * (c.last_message_at - c.created_at) end as created_at,
                  not (m.newest and not c.business_replied and not c.is_read) as is_read
             from (select k, true as newest from generate_series(1, $2::int) k
                   union all
                   select 1 + floor(random() * $4::int)::bigint, false from generate_series(1, $3::int)) m
             join seed_tc c on c.k = m.k
         ) x
        order by created_at, newest, conversation_id`,
      [businessId, newest, extra, nTitan, userId, LOREM],
    );
    step(
      `messages (${sizes.messages.toLocaleString('en-US')} over ${nTitan.toLocaleString('en-US')} conversations)`,
    );

    // 6. One WhatsApp message (the newest, at last_message_at) per WhatsApp conversation.
    await q(
      `insert into wa_messages (id, business_id, conversation_id, content, message_type, sender_type,
                                sender_id, is_read, meta_data, status, timestamp, created_at)
       select 'wamid.' || encode(sha256(convert_to('bench:' || c.id, 'UTF8')), 'base64'),
              $1, c.id, substr($3::text, 1 + floor(random() * 200)::int, 12 + floor(random() * 110)::int),
              'text', case when c.business_replied then 'staff' else 'customer' end,
              case when c.business_replied then $2::bigint else c.initiator_id end,
              c.business_replied or c.is_read,
              jsonb_build_object('from', '1555' || lpad(c.initiator_id::text, 7, '0'), 'type', 'text'),
              case when c.business_replied then 'delivered' else 'read' end,
              extract(epoch from c.last_message_at)::int, c.last_message_at
         from conversations c
        where c.business_id = $1 and c.channel = 'whatsapp'
        order by c.last_message_at, c.id`,
      [businessId, userId, LOREM],
    );
    step('wa_messages (one per whatsapp conversation)');

    // 7. Indexes, foreign keys (validated), triggers, counts.
    for (const ix of indexes) await q(ix.def);
    step(`recreate ${indexes.length} indexes`);
    for (const fk of fkeys) await q(`alter table ${fk.tbl} add constraint "${fk.conname}" ${fk.def}`);
    step(`re-add + validate ${fkeys.length} foreign keys`);
    for (const t of TRIGGER_TABLES) await q(`alter table ${t} enable trigger user`);
    const { rows: rebuild } = await q(
      `select 1 from pg_proc where proname = 'titan_rebuild_conversation_counts'`,
    );
    if (rebuild.length > 0) await q(`select titan_rebuild_conversation_counts($1)`, [businessId]);
    await q(`drop table seed_tc`);
    step(`enable triggers${rebuild.length > 0 ? ' + titan_rebuild_conversation_counts' : ''}`);

    // 8. Statistics and visibility map.
    await q(`reset maintenance_work_mem`);
    await q(
      `vacuum (analyze) customers, chat_groups, conversations, messages, wa_messages, conversation_labels`,
    );
    step('vacuum (analyze)');
  } finally {
    await client.end().catch(() => {});
  }

  const seed = await findSeed(database.url);
  const totalSeconds = (performance.now() - t0) / 1000;
  return { ...seed, timings, totalSeconds };
}

// ---------------------------------------------------------------- standalone

async function main() {
  const url = process.argv[2];
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error('usage: node bench/seed/inbox.mjs <postgres://…/fresh-database>');
    process.exit(2);
  }
  const { startTitan } = await import('../lib/servers.mjs');
  const existing = await findSeed(url).catch(() => null);
  if (existing) {
    console.error(
      `${new URL(url).pathname.slice(1)} is already seeded (business ${existing.businessCode}, ` +
        `${existing.counts.conversations} conversations): seed into a fresh database`,
    );
    process.exit(1);
  }
  const sizes = seedSizes();
  console.log(
    `seeding ${sizes.conversations.toLocaleString('en-US')} conversations, ` +
      `${sizes.messages.toLocaleString('en-US')} messages, ${sizes.customers.toLocaleString('en-US')} customers`,
  );
  const seed = await seedInbox(
    { kind: 'postgres', url },
    { startTitan, log: (t) => console.log(`  ${t}`), sizes },
  );
  console.log(`seeded in ${seed.totalSeconds.toFixed(1)} s: ${JSON.stringify(seed.counts)}`);
  console.log(
    `business ${seed.businessCode} (id ${seed.businessId}); owner ${seed.email} / ${seed.password}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err.stack ?? err);
    process.exit(1);
  });
}
