// Read-only conditions over the inbox's tables that modules above the conversations module compose
// into their own statements: which conversations a viewer may see (the inbox, sends and their logs,
// WhatsApp logs, the directory) and the segment builder's inbox behaviour rules (directory). The
// conversations module owns these tables and alone writes them; these only read, so they sit below
// every module that needs them. `platform/inbox-scope.ts` resolves a caller's scope.
import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { chatGroupMembers, conversations, messages, waMessages } from '../db/schema';

/**
 * What one viewer may see: a whole business, or (agents) the conversations of their chat groups
 * plus those assigned to no group.
 */
export type InboxScope = { businessId: number; groupIds: number[] | null };

/** The conditions on `conversations` that keep a statement to what the scope's viewer may see. */
export function scopeConditions(scope: InboxScope): SQL[] {
  const where: SQL[] = [eq(conversations.businessId, scope.businessId)];
  if (scope.groupIds !== null) {
    where.push(
      scope.groupIds.length > 0
        ? or(
            isNull(conversations.assignedChatGroupId),
            inArray(conversations.assignedChatGroupId, scope.groupIds),
          )!
        : isNull(conversations.assignedChatGroupId),
    );
  }
  return where;
}

export async function findUserGroupIds(db: Queryable, businessId: number, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: chatGroupMembers.groupId })
    .from(chatGroupMembers)
    .where(and(eq(chatGroupMembers.businessId, businessId), eq(chatGroupMembers.userId, userId)));
  return rows.map((r) => r.id);
}

/**
 * Several users' built-in roles in a business (those not members left out) with the chat groups of
 * each, in one statement.
 */
export async function findMembersRolesAndGroups(
  db: Queryable,
  businessId: number,
  userIds: readonly number[],
): Promise<{ userId: number; role: string; groupIds: number[] }[]> {
  if (userIds.length === 0) return [];
  const rows = await rowsOf<{ user_id: number; role: string; group_ids: number[] }>(
    db,
    sql`select m.user_id::float8 as user_id, m.role,
        coalesce(array_agg(g.group_id::float8) filter (where g.group_id is not null), '{}') as group_ids
      from memberships m
      left join chat_group_members g on g.business_id = m.business_id and g.user_id = m.user_id
      where m.business_id = ${businessId} and m.user_id = any(${sql.param([...userIds])}::bigint[])
      group by m.user_id, m.role`,
  );
  return rows.map((r) => ({ userId: Number(r.user_id), role: r.role, groupIds: r.group_ids.map(Number) }));
}

/**
 * The segment builder's "replied" (directory): the customer (its id in `customerId`) wrote to the
 * business — a message of theirs, on any channel, in a conversation they started here — at or
 * after `since`. Kept to the business: another business's conversations never match.
 */
export function customerWroteCondition(businessId: number, customerId: SQL, since: SQL): SQL {
  const wrote = (table: typeof messages | typeof waMessages) =>
    sql`exists (select 1 from ${conversations} rc join ${table} rm on rm.conversation_id = rc.id
      where rc.business_id = ${businessId} and rc.initiator_id = ${customerId}
        and rm.business_id = ${businessId} and rm.sender_type = 'customer' and rm.created_at >= ${since})`;
  return sql`(${wrote(messages)} or ${wrote(waMessages)})`;
}

/**
 * The segment builder's "has an open conversation": one the customer started here that is not
 * resolved (active or snoozed); with `since`, one whose last message is that recent.
 */
export function openConversationCondition(businessId: number, customerId: SQL, since?: SQL): SQL {
  return sql`exists (select 1 from ${conversations} oc where oc.business_id = ${businessId}
    and oc.initiator_id = ${customerId} and oc.status <> 'resolved'${
      since ? sql` and oc.last_message_at >= ${since}` : sql``
    })`;
}
