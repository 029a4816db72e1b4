// Auto-assignment on two runtimes (two app instances) against one PostgreSQL (issue 29): both
// engines hear every new conversation on the feed and race for it, and are also driven by hand, at
// the same time. No conversation is assigned twice (one assignee, one activity line), no member ever
// holds more open conversations of the group than its capacity, and those that waited are handed
// out oldest first as capacity frees.
import { describe, expect, it } from 'vitest';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
} from '../../../testing/test-runtime';
import { assignWaiting } from '..';

const MEMBERS = 10;
const CAPACITY = 7;
const CONVERSATIONS = 100;

async function seed(rt: TestRuntime, mode: string) {
  const db = rt.database;
  const [b] = await db.query<{ id: string }>(
    `insert into businesses (name, unique_code) values ('Two Runtimes', $1) returning id`,
    [`two-rt-${mode}`],
  );
  const businessId = Number(b!.id);
  const [g] = await db.query<{ id: string }>(
    `insert into chat_groups (business_id, name, slug) values ($1, 'Support', 'support') returning id`,
    [businessId],
  );
  const groupId = Number(g!.id);
  const users = await db.query<{ id: string }>(
    `insert into users (email, username, first_name)
       select 'm' || i || '-' || $1 || '@example.com', 'm' || i || '-' || $1, 'Member ' || i
       from generate_series(1, ${MEMBERS}) i returning id`,
    [mode],
  );
  const ids = users.map((u) => Number(u.id));
  for (const id of ids) {
    await db.query(`insert into memberships (business_id, user_id, role) values ($1, $2, 'agent')`, [
      businessId,
      id,
    ]);
    await db.query(`insert into chat_group_members (business_id, group_id, user_id) values ($1, $2, $3)`, [
      businessId,
      groupId,
      id,
    ]);
    await db.query(
      `insert into user_presence (user_id, status) values ($1, 'online')
      on conflict (user_id) do update set status = 'online', last_seen_at = now()`,
      [id],
    );
  }
  await db.query(
    `insert into chat_group_assignment (chat_group_id, business_id, mode, capacity) values ($1, $2, $3, $4)`,
    [groupId, businessId, mode, CAPACITY],
  );
  return { businessId, groupId, ids };
}

const insertConversations = (rt: TestRuntime, businessId: number, groupId: number, n: number) =>
  Promise.all(
    Array.from({ length: n }, () =>
      rt.database.query(
        `insert into conversations (business_id, channel, status, assigned_chat_group_id)
         values ($1, 'titan_message', 'active', $2)`,
        [businessId, groupId],
      ),
    ),
  );

async function check(rt: TestRuntime, businessId: number, groupId: number) {
  const db = rt.database;
  const perMember = await db.query<{ assignee_id: string; n: number }>(
    `select assignee_id, count(*)::int as n from conversations
     where business_id = $1 and assigned_chat_group_id = $2 and assignee_id is not null and status <> 'resolved'
     group by assignee_id`,
    [businessId, groupId],
  );
  const lines = await db.query<{ conversation_id: string; n: number }>(
    `select conversation_id, count(*)::int as n from messages
     where business_id = $1 and message_type = 'activity' and meta_data->>'action' = 'assigned'
     group by conversation_id having count(*) > 1`,
    [businessId],
  );
  const [waiting] = await db.query<{ n: number }>(
    `select count(*)::int as n from conversations where business_id = $1 and assignee_id is null and status = 'active'`,
    [businessId],
  );
  return { perMember: perMember.map((r) => r.n), doubled: lines, waiting: waiting!.n };
}

describe.runIf(testDbKind === 'postgres')('auto-assignment on two runtimes', () => {
  for (const mode of ['round_robin', 'least_busy']) {
    it(`${mode}: never assigns a conversation twice nor beyond capacity`, async () => {
      const store = await createTestStore();
      const rt1 = await createTestRuntime({ store, http: false });
      const rt2 = await createTestRuntime({ store, http: false });
      try {
        const { businessId, groupId, ids } = await seed(rt1, mode);
        // Both engines hear the inserts; both are also driven by hand at the same time.
        await Promise.all([
          insertConversations(rt1, businessId, groupId, CONVERSATIONS / 2),
          insertConversations(rt2, businessId, groupId, CONVERSATIONS / 2),
          ...Array.from({ length: 4 }, (_, i) => assignWaiting((i % 2 ? rt1 : rt2).services.db, businessId)),
        ]);
        await Promise.all([
          assignWaiting(rt1.services.db, businessId),
          assignWaiting(rt2.services.db, businessId),
        ]);
        await Promise.all([rt1.assigner.idle(), rt2.assigner.idle()]);
        const first = await check(rt1, businessId, groupId);
        expect(first.doubled).toEqual([]);
        expect(first.perMember).toHaveLength(MEMBERS);
        expect(Math.max(...first.perMember)).toBeLessThanOrEqual(CAPACITY);
        expect(first.perMember.reduce((a, b) => a + b, 0)).toBe(MEMBERS * CAPACITY);
        expect(first.waiting).toBe(CONVERSATIONS - MEMBERS * CAPACITY);

        // Every assigned conversation has exactly one assignee and one activity line naming them.
        const [mismatch] = await rt1.database.query<{ n: number }>(
          `select count(*)::int as n from conversations c
           where c.business_id = $1 and c.assignee_id is not null and not exists (
             select 1 from messages m where m.conversation_id = c.id and m.message_type = 'activity'
               and (m.meta_data->'assignee'->>'id')::bigint = c.assignee_id)`,
          [businessId],
        );
        expect(mismatch!.n).toBe(0);

        // Freeing capacity on both runtimes hands out the oldest waiting ones, still within capacity.
        const oldestWaiting = await rt1.database.query<{ id: string }>(
          `select id from conversations where business_id = $1 and assignee_id is null
           order by awaiting_assignment_at, id limit 10`,
          [businessId],
        );
        const toResolve = await rt1.database.query<{ id: string }>(
          `select distinct on (assignee_id) id from conversations
           where business_id = $1 and assignee_id is not null order by assignee_id, id`,
          [businessId],
        );
        expect(toResolve).toHaveLength(ids.length);
        await Promise.all(
          toResolve.map((r, i) =>
            (i % 2 ? rt1 : rt2).database.query(`update conversations set status = 'resolved' where id = $1`, [
              r.id,
            ]),
          ),
        );
        await expect
          .poll(async () => (await check(rt2, businessId, groupId)).waiting, {
            timeout: 20_000,
            interval: 100,
          })
          .toBe(CONVERSATIONS - MEMBERS * CAPACITY - ids.length);
        await Promise.all([rt1.assigner.idle(), rt2.assigner.idle()]);
        const second = await check(rt2, businessId, groupId);
        expect(second.doubled).toEqual([]);
        expect(Math.max(...second.perMember)).toBeLessThanOrEqual(CAPACITY);
        const nowAssigned = await rt2.database.query<{ id: string }>(
          `select id from conversations where id = any($1::bigint[]) and assignee_id is not null`,
          [oldestWaiting.map((r) => r.id)],
        );
        expect(nowAssigned).toHaveLength(10);
      } finally {
        await rt2.close();
        await rt1.close();
        await store.destroy();
      }
    }, 120_000);
  }
});
