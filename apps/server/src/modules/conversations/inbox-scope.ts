// Which conversations the caller may see: owners, admins and API keys see the whole business;
// agents see their chat groups' conversations and those assigned to no group.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { businessOf } from '../auth';
import type { InboxScope } from './conversations.repository';
import { findUserGroupIds } from './conversations.repository';

export async function scopeFor(
  db: Db,
  businessId: number,
  role: string,
  userId: number | null,
): Promise<InboxScope> {
  if (role !== 'agent' || userId === null) return { businessId, groupIds: null };
  return { businessId, groupIds: await findUserGroupIds(db, businessId, userId) };
}

export async function scopeOf(db: Db, request: FastifyRequest): Promise<InboxScope> {
  const business = businessOf(request);
  const userId = request.auth?.kind === 'user' ? request.auth.userId : null;
  return scopeFor(db, business.id, business.role, userId);
}
