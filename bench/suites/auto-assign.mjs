// Auto-assignment (issue 29): 1,000 new conversations handed out across 20 online members of one
// chat group by two Titan processes (two instances, as deployed behind a load balancer) on one
// PostgreSQL. Titan's figure: conversations assigned per second, from the moment the 1,000 rows are
// committed (one insert; both engines hear them on the change feed) to the moment none waits.
// The floor, in the same run: a bare loop doing the same claiming statements — the ones in
// apps/server/src/modules/conversations/auto-assign.repository.ts and auto-assign.ts, copied below —
// on two pg connections at once (two "instances"), over another 1,000 conversations of another group
// with the same members, after the Titans stopped (so they cannot take the floor's rows). Target:
// Titan ≥ 0.5× the floor's rate. Checked on both sides: every conversation assigned exactly once (one
// assignee, one "assigned" activity line) and no member above the capacity.
import { readFileSync } from 'node:fs';
import pg from 'pg';

export const name = 'auto-assign';

const CONVERSATIONS = Number(process.env.BENCH_ASSIGN_CONVERSATIONS ?? 1_000);
const MEMBERS = 20;
/** 20 × 50 = 1,000: every conversation finds a place, and every member ends exactly full. */
const CAPACITY = Math.ceil(CONVERSATIONS / MEMBERS);
const TARGET_RATIO = 0.5;

const perSec = (v) => Math.round(v).toLocaleString('en-US');
export const columns = [
  { key: 'side', label: 'side' },
  { key: 'conversations', label: 'conversations', align: 'right' },
  { key: 'seconds', label: 'seconds', align: 'right', format: (v) => v.toFixed(2) },
  { key: 'perSec', label: 'assigned/s', align: 'right', format: perSec },
  { key: 'maxHeld', label: 'max held', align: 'right' },
  { key: 'check', label: 'check' },
  { key: 'verdict', label: `target (>= ${TARGET_RATIO}x the floor)` },
];

async function seedGroup(client, businessId, slug, userIds) {
  const { rows } = await client.query(
    `insert into chat_groups (business_id, name, slug) values ($1, $2, $2) returning id`,
    [businessId, slug],
  );
  const groupId = Number(rows[0].id);
  await client.query(
    `insert into chat_group_members (business_id, group_id, user_id)
     select $1, $2, u from unnest($3::bigint[]) u`,
    [businessId, groupId, userIds],
  );
  await client.query(
    `insert into chat_group_assignment (chat_group_id, business_id, mode, capacity)
     values ($1, $2, 'round_robin', $3)`,
    [groupId, businessId, CAPACITY],
  );
  return groupId;
}

async function seed(client) {
  const { rows: b } = await client.query(
    `insert into businesses (name, unique_code) values ('Bench Assign', 'bench-assign') returning id`,
  );
  const businessId = Number(b[0].id);
  const { rows: users } = await client.query(
    `insert into users (email, username, first_name, last_name)
     select 'member' || i || '@assign.bench', 'assign-member-' || i, 'Member', i::text
     from generate_series(1, ${MEMBERS}) i returning id`,
  );
  const userIds = users.map((u) => Number(u.id));
  await client.query(
    `insert into memberships (business_id, user_id, role) select $1, u, 'agent' from unnest($2::bigint[]) u`,
    [businessId, userIds],
  );
  // Online, and seen far in the future: the presence sweep leaves them online for the whole run.
  await client.query(
    `insert into user_presence (user_id, status, last_seen_at)
     select u, 'online', now() + interval '1 day' from unnest($1::bigint[]) u`,
    [userIds],
  );
  return { businessId, userIds };
}

const insertConversations = (client, businessId, groupId) =>
  client.query(
    `insert into conversations (business_id, channel, status, title, assigned_chat_group_id)
     select $1, 'titan_message', 'active', 'Bench ' || i, $2 from generate_series(1, ${CONVERSATIONS}) i`,
    [businessId, groupId],
  );

/** The group's waiting conversations (none left: all handed out). */
async function waiting(client, groupId) {
  const { rows } = await client.query(
    `select count(*)::int as n from conversations
     where assigned_chat_group_id = $1 and assignee_id is null and status = 'active'`,
    [groupId],
  );
  return rows[0].n;
}

/** No conversation assigned twice, none left out, nobody above capacity. */
async function verify(client, groupId) {
  const { rows: held } = await client.query(
    `select assignee_id, count(*)::int as n from conversations
     where assigned_chat_group_id = $1 and assignee_id is not null group by assignee_id`,
    [groupId],
  );
  const { rows: lines } = await client.query(
    `select c.id, count(m.id)::int as n from conversations c
     left join messages m on m.conversation_id = c.id and m.message_type = 'activity'
       and m.meta_data->>'action' = 'assigned' and (m.meta_data->'assignee'->>'id')::bigint = c.assignee_id
     where c.assigned_chat_group_id = $1 group by c.id having count(m.id) <> 1`,
    [groupId],
  );
  const { rows: all } = await client.query(
    `select count(*)::int as n from messages m join conversations c on c.id = m.conversation_id
     where c.assigned_chat_group_id = $1 and m.message_type = 'activity'`,
    [groupId],
  );
  const maxHeld = Math.max(0, ...held.map((r) => r.n));
  const assigned = held.reduce((a, r) => a + r.n, 0);
  const problems = [];
  if (assigned !== CONVERSATIONS) problems.push(`${assigned} assigned of ${CONVERSATIONS}`);
  if (maxHeld > CAPACITY) problems.push(`a member holds ${maxHeld} > capacity ${CAPACITY}`);
  if (lines.length > 0)
    problems.push(`${lines.length} conversations without exactly one matching activity line`);
  if (all[0].n !== CONVERSATIONS)
    problems.push(`${all[0].n} activity lines for ${CONVERSATIONS} conversations`);
  return { maxHeld, check: problems.length === 0 ? 'ok' : problems.join('; '), ok: problems.length === 0 };
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux; else NaN). */
function cpuMsOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

// ------------------------------------------------------------------ the floor: the same statements

/** Conversations one claim hands out at most (auto-assign.ts CLAIM_BATCH). */
const CLAIM_BATCH = 50;

const nameOf = (m) => `${m.first_name} ${m.last_name}`.trim() || m.email;

/** One claim as auto-assign.ts claimBatch() makes it: how many it assigned (0: nothing or nobody left). */
async function claimBatch(client, groupId) {
  await client.query('begin');
  try {
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`auto-assign:${groupId}`]);
    const { rows: s } = await client.query(
      `select a.business_id, a.mode, a.capacity, a.last_user_id, g.business_hours, g.ai_responder
       from chat_group_assignment a join chat_groups g on g.id = a.chat_group_id
       where a.chat_group_id = $1 limit 1`,
      [groupId],
    );
    const settings = s[0];
    if (!settings || settings.mode === 'off') return (await client.query('commit'), 0);
    const { rows: members } = await client.query(
      `select m.user_id, u.first_name, u.last_name, u.email,
          (select count(*) from conversations c
            where c.business_id = m.business_id and c.assignee_id = m.user_id
              and c.assigned_chat_group_id = m.group_id and c.status <> 'resolved')::int as open
        from chat_group_members m
        join memberships ms on ms.business_id = m.business_id and ms.user_id = m.user_id
        join user_presence p on p.user_id = m.user_id and p.status = 'online'
        join users u on u.id = m.user_id
        where m.group_id = $1 and m.business_id = $2
        order by m.user_id`,
      [groupId, settings.business_id],
    );
    const room = members.reduce((n, c) => n + Math.max(0, settings.capacity - c.open), 0);
    if (room === 0) return (await client.query('commit'), 0);
    const { rows: waiting } = await client.query(
      `select id, business_id, channel from conversations
       where assigned_chat_group_id = $1 and awaiting_assignment_at is not null
         and assignee_id is null and status = 'active'
       order by awaiting_assignment_at, id
       limit $2 for update skip locked`,
      [groupId, Math.min(room, CLAIM_BATCH)],
    );
    // Round robin: the next member after the last one given, among those under capacity.
    const picks = [];
    let last = settings.last_user_id === null ? null : Number(settings.last_user_id);
    for (const conversation of waiting) {
      const eligible = members.filter((c) => c.open < settings.capacity);
      const after = eligible.findIndex((c) => last === null || Number(c.user_id) > last);
      const chosen = after <= 0 ? eligible[0] : eligible[after];
      if (!chosen) break;
      picks.push({ conversation, chosen });
      chosen.open++;
      last = Number(chosen.user_id);
    }
    if (picks.length === 0) return (await client.query('commit'), 0);
    // Assigned with their activity lines in one statement (auto-assign.repository.ts assignMany).
    const { rows: assigned } = await client.query(
      `with p as (
          select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])
            with ordinality as p(id, user_id, content, meta, n)
        ), assigned as (
          update conversations c set assignee_id = p.user_id, updated_at = now()
          from p
          where c.id = p.id and c.assignee_id is null and c.awaiting_assignment_at is not null
          returning c.id, c.business_id, c.channel
        ), lines as (
          select a.id, a.business_id, a.channel, p.content, p.meta::jsonb as meta, p.n
          from assigned a join p on p.id = a.id
        ), own as (
          insert into messages (business_id, conversation_id, is_read, status, message_type, sender_type,
            sender_id, content, meta_data)
          select business_id, id, true, null, 'activity', 'system', null, content, meta
          from lines where channel <> 'whatsapp' order by n
          returning 1
        ), wa as (
          insert into wa_messages (id, business_id, conversation_id, is_read, status, message_type,
            sender_type, sender_id, content, meta_data)
          select 'titan-activity-' || gen_random_uuid(), business_id, id, true, null, 'activity', 'system',
            null, content, meta
          from lines where channel = 'whatsapp' order by n
          returning 1
        )
        select id from assigned`,
      [
        picks.map((p) => p.conversation.id),
        picks.map((p) => p.chosen.user_id),
        picks.map((p) => `Auto-assignment assigned this conversation to ${nameOf(p.chosen)}`),
        picks.map((p) =>
          JSON.stringify({
            action: 'assigned',
            actor: null,
            assignee: { id: Number(p.chosen.user_id), name: nameOf(p.chosen) },
            previous_assignee_id: null,
            auto: settings.mode,
          }),
        ),
      ],
    );
    const ids = new Set(assigned.map((r) => String(r.id)));
    const done = picks.filter((p) => ids.has(String(p.conversation.id)));
    if (done.length === 0) return (await client.query('commit'), 0);
    await client.query(`update chat_group_assignment set last_user_id = $1 where chat_group_id = $2`, [
      done[done.length - 1].chosen.user_id,
      groupId,
    ]);
    await client.query('commit');
    return done.length;
  } catch (err) {
    await client.query('rollback');
    throw err;
  }
}

export async function run(ctx) {
  const database = await ctx.database();
  if (database.kind !== 'postgres') throw new Error(`auto-assign needs PostgreSQL: ${database.describe}`);
  const notes = [`database: ${database.describe}`];

  ctx.progress('starting two titans on one database');
  const one = ctx.use(await ctx.startTitan(database));
  const two = ctx.use(await ctx.startTitan(database));

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  ctx.defer(() => client.end());
  const { businessId, userIds } = await seed(client);
  const titanGroup = await seedGroup(client, businessId, 'titan', userIds);
  const floorGroup = await seedGroup(client, businessId, 'floor', userIds);
  // The floor's group is off while the titans run (they would take its conversations).
  await client.query(`update chat_group_assignment set mode = 'off' where chat_group_id = $1`, [floorGroup]);

  ctx.progress(`titan: ${CONVERSATIONS} new conversations, two instances assigning`);
  const titanCpu0 = cpuMsOf(one.pid) + cpuMsOf(two.pid);
  await insertConversations(client, businessId, titanGroup);
  // From the insert's commit, as the floor's clock starts after its own insert: the engines hear the
  // rows then (the insert's own cost, the same on both sides, is not assignment).
  const t0 = performance.now();
  const deadline = Date.now() + 300_000;
  while ((await waiting(client, titanGroup)) > 0) {
    if (Date.now() > deadline) throw new Error('titan did not assign every conversation within 5 minutes');
    await new Promise((r) => setTimeout(r, 5));
  }
  const titanSeconds = (performance.now() - t0) / 1000;
  const titanCpuMs = cpuMsOf(one.pid) + cpuMsOf(two.pid) - titanCpu0;
  const titanCheck = await verify(client, titanGroup);
  await one.stop();
  await two.stop();

  ctx.progress(`floor: the same statements on two connections`);
  await client.query(`update chat_group_assignment set mode = 'round_robin' where chat_group_id = $1`, [
    floorGroup,
  ]);
  await insertConversations(client, businessId, floorGroup);
  const loops = await Promise.all(
    [0, 1].map(async () => {
      const c = new pg.Client({ connectionString: database.url });
      await c.connect();
      return c;
    }),
  );
  ctx.defer(() => Promise.all(loops.map((c) => c.end())));
  const f0 = performance.now();
  const floorCpu0 = process.cpuUsage();
  await Promise.all(
    loops.map(async (c) => {
      while ((await claimBatch(c, floorGroup)) > 0);
    }),
  );
  const floorSeconds = (performance.now() - f0) / 1000;
  const floorCpu = process.cpuUsage(floorCpu0);
  const floorCpuMs = (floorCpu.user + floorCpu.system) / 1000;
  const floorCheck = await verify(client, floorGroup);

  const titanRate = CONVERSATIONS / titanSeconds;
  const floorRate = CONVERSATIONS / floorSeconds;
  const ratio = titanRate / floorRate;
  const met = ratio >= TARGET_RATIO && titanCheck.ok && floorCheck.ok;
  notes.push(
    `${MEMBERS} members online, capacity ${CAPACITY} each, round robin; titan: 2 processes, woken by the change feed; ` +
      `floor: 2 pg connections looping claimBatch's statements (up to ${CLAIM_BATCH} a claim) (advisory lock per group, FOR UPDATE SKIP LOCKED)`,
    `titan ${Math.round(titanRate)} assigned/s, floor ${Math.round(floorRate)} assigned/s, ratio ${ratio.toFixed(2)} ` +
      `(target >= ${TARGET_RATIO}) — ${met ? 'met' : 'MISSED'}`,
    `CPU per conversation assigned (from /proc; PostgreSQL's share not counted): titan ` +
      `${(titanCpuMs / CONVERSATIONS).toFixed(2)} ms (both processes, insert to last assigned), floor ` +
      `${(floorCpuMs / CONVERSATIONS).toFixed(2)} ms (the bench process, its two loops)`,
  );
  if (!titanCheck.ok || !floorCheck.ok) {
    throw new Error(`auto-assign check failed: titan ${titanCheck.check}; floor ${floorCheck.check}`);
  }
  return {
    title: `auto-assignment of ${CONVERSATIONS.toLocaleString('en-US')} conversations across ${MEMBERS} members, two instances`,
    rows: [
      {
        side: 'titan',
        conversations: CONVERSATIONS,
        seconds: titanSeconds,
        perSec: titanRate,
        maxHeld: titanCheck.maxHeld,
        check: titanCheck.check,
        verdict: '',
      },
      {
        side: 'floor',
        conversations: CONVERSATIONS,
        seconds: floorSeconds,
        perSec: floorRate,
        maxHeld: floorCheck.maxHeld,
        check: floorCheck.check,
        verdict: '',
      },
      {
        side: 'titan/floor',
        conversations: CONVERSATIONS,
        seconds: titanSeconds / floorSeconds,
        perSec: ratio,
        maxHeld: '',
        check: '',
        verdict: met ? `met (${ratio.toFixed(2)})` : `MISSED (${ratio.toFixed(2)})`,
      },
    ],
    notes,
  };
}
