// Auto-assignment's SQL (issue 29): which chat groups have conversations waiting, who of a group is
// eligible (online, a member, under capacity), and the claim of the oldest waiting conversation.
// Part of the conversations module, whose repositories alone write conversations. The claim runs
// under one advisory lock per chat group, so two instances never hand out the same capacity twice,
// and takes its conversation FOR UPDATE SKIP LOCKED, re-checking it still waits, so no conversation
// is assigned twice. bench/suites/auto-assign.mjs runs these same statements as its floor.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { advisoryLock, rowsOf } from '../../db/sql';
import type { ConversationRow } from './conversations.repository';

/** The lock every claim in a chat group holds: capacity is counted and spent under it. */
export const assignmentLockKey = (groupId: number) => `auto-assign:${groupId}`;

/** Chat groups with auto-assignment on and at least one conversation waiting (of one business, or all). */
export async function groupsWaiting(
  db: Queryable,
  businessId: number | null,
): Promise<{ groupId: number; businessId: number }[]> {
  const rows = await rowsOf<{ chat_group_id: string | number; business_id: string | number }>(
    db,
    sql`select a.chat_group_id, a.business_id from chat_group_assignment a
      where a.mode <> 'off' ${businessId === null ? sql`` : sql`and a.business_id = ${businessId}`}
        and exists (select 1 from conversations c
          where c.assigned_chat_group_id = a.chat_group_id and c.awaiting_assignment_at is not null
            and c.assignee_id is null and c.status = 'active')`,
  );
  return rows.map((r) => ({ groupId: Number(r.chat_group_id), businessId: Number(r.business_id) }));
}

export type Candidate = { userId: number; open: number; name: string };

/**
 * The group's members who are online, still members of the business, with how many open (not
 * resolved) conversations of the group each holds; in user id order (round robin's circle).
 */
export async function candidates(db: Queryable, businessId: number, groupId: number): Promise<Candidate[]> {
  const rows = await rowsOf<{
    user_id: string | number;
    open: number;
    first_name: string;
    last_name: string;
    email: string;
  }>(
    db,
    sql`select m.user_id, u.first_name, u.last_name, u.email,
        (select count(*) from conversations c
          where c.business_id = m.business_id and c.assignee_id = m.user_id
            and c.assigned_chat_group_id = m.group_id and c.status <> 'resolved')::int as open
      from chat_group_members m
      join memberships ms on ms.business_id = m.business_id and ms.user_id = m.user_id
      join user_presence p on p.user_id = m.user_id and p.status = 'online'
      join users u on u.id = m.user_id
      where m.group_id = ${groupId} and m.business_id = ${businessId}
      order by m.user_id`,
  );
  return rows.map((r) => ({
    userId: Number(r.user_id),
    open: Number(r.open),
    name: `${r.first_name} ${r.last_name}`.trim() || r.email,
  }));
}

/**
 * The group's `limit` oldest waiting conversations nobody else holds, locked. Conversations on
 * `aiHeld` channels wait only once the AI handed them to a person.
 */
export async function lockOldestWaiting(
  db: Queryable,
  groupId: number,
  aiHeld: readonly string[] = [],
  limit = 1,
): Promise<Pick<ConversationRow, 'id' | 'businessId' | 'channel'>[]> {
  const rows = await rowsOf<{
    id: string | number;
    business_id: string | number;
    channel: ConversationRow['channel'];
  }>(
    db,
    sql`select id, business_id, channel from conversations
      where assigned_chat_group_id = ${groupId} and awaiting_assignment_at is not null
        and assignee_id is null and status = 'active'
        ${
          aiHeld.length
            ? sql`and (ai_handed_off_at is not null or channel not in (${sql.join(
                aiHeld.map((c) => sql`${c}`),
                sql`, `,
              )}))`
            : sql``
        }
      order by awaiting_assignment_at, id
      limit ${limit} for update skip locked`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    businessId: Number(row.business_id),
    channel: row.channel,
  }));
}

/** One conversation to hand out, with its activity line (as insertInternalMessage writes one). */
export type Assignment = {
  conversationId: number;
  userId: number;
  content: string;
  metaData: Record<string, unknown>;
};

/**
 * Gives each locked conversation to its member and writes its "assigned" activity line, in one
 * statement (the 0048 trigger stops them waiting): a conversation that no longer waits is left as
 * it is, with no line. The lines are internal (read, never sent; a WhatsApp conversation's in
 * wa_messages under an id of Titan's), in the order given. Answers the ids assigned.
 */
export async function assignMany(db: Queryable, picks: readonly Assignment[]): Promise<Set<number>> {
  if (picks.length === 0) return new Set();
  const rows = await rowsOf<{ id: string | number }>(
    db,
    sql`with p as (
        select * from unnest(${sql.param(picks.map((p) => p.conversationId))}::bigint[],
          ${sql.param(picks.map((p) => p.userId))}::bigint[],
          ${sql.param(picks.map((p) => p.content))}::text[],
          ${sql.param(picks.map((p) => JSON.stringify(p.metaData)))}::text[])
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
  );
  return new Set(rows.map((r) => Number(r.id)));
}

export { advisoryLock };
