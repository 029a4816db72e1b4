// Which conversations the caller may see: owners, admins and API keys see the whole business;
// agents see their chat groups' conversations and those assigned to no group. A custom role
// (member or API key) with a chat group scope sees those groups' conversations and the unassigned
// ones; one without a scope sees the whole business.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import {
  findMembersRolesAndGroups,
  findUserGroupIds,
  type InboxScope,
} from './conversation-conditions.repository';
import { businessOf } from './request-context';

export { type InboxScope, scopeConditions } from './conversation-conditions.repository';

/** The whole business: what the system (jobs, channels, the AI) acts within. */
export const businessScope = (businessId: number): InboxScope => ({ businessId, groupIds: null });

export async function scopeFor(
  db: Db,
  businessId: number,
  role: string,
  userId: number | null,
  custom: { customRoleId?: number | null; scopeGroupIds?: number[] | null } | null = null,
): Promise<InboxScope> {
  if (custom?.customRoleId) return { businessId, groupIds: custom.scopeGroupIds ?? null };
  if (role !== 'agent' || userId === null) return { businessId, groupIds: null };
  return { businessId, groupIds: await findUserGroupIds(db, businessId, userId) };
}

/**
 * scopeFor several users of one business at once, by their built-in roles: each member's chat
 * groups (agents) or null (the whole business), roles and groups read in one statement. Users who
 * are not members are left out.
 */
export async function memberScopesOf(
  db: Db,
  businessId: number,
  userIds: readonly number[],
): Promise<Map<number, number[] | null>> {
  const rows = await findMembersRolesAndGroups(db, businessId, userIds);
  return new Map(rows.map((r) => [r.userId, r.role === 'agent' ? r.groupIds : null]));
}

export async function scopeOf(db: Db, request: FastifyRequest): Promise<InboxScope> {
  const business = businessOf(request);
  const userId = request.auth?.kind === 'user' ? request.auth.userId : null;
  return scopeFor(db, business.id, business.role, userId, business);
}
