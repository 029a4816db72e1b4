// Chat groups: teams that own widget conversations; agents see their groups' conversations.
import type { TChatGroup, TChatGroupUser } from '@titan/contracts';
import { type ZSaveChatGroupRequest, type ZUpdateChatGroupRequest } from '@titan/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { forgetMembership } from '../auth';
import { findMembership } from '../business';
import * as repo from './chat-groups.repository';

export const CHAT_GROUP_MESSAGES = {
  slugTaken: 'Another chat group of this business already uses this slug.',
  notMember: 'Only members of this business can join its chat groups.',
} as const;

/** The group's public record; business_id and updated_at stay inside (conversations carry it too). */
export function toChatGroup(row: Omit<repo.ChatGroupRow, 'businessId' | 'updatedAt'>): TChatGroup {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    greeting: row.greeting,
    color: row.color,
    launcher_position: row.launcherPosition,
    visitor_form: row.visitorForm as TChatGroup['visitor_form'],
    allowed_origins: row.allowedOrigins,
    created_at: row.createdAt.toISOString(),
  };
}

function toGroupUser(row: NonNullable<Awaited<ReturnType<typeof repo.findGroupUser>>>): TChatGroupUser {
  return { user: row.user, role: row.role, added_at: row.addedAt.toISOString() };
}

export async function findChatGroups(db: Db, businessId: number): Promise<TChatGroup[]> {
  return (await repo.listGroups(db, businessId)).map(toChatGroup);
}

async function ownGroup(db: Db, businessId: number, id: number): Promise<repo.ChatGroupRow> {
  const row = await repo.findGroup(db, businessId, id);
  if (!row) throw AppError.notFound();
  return row;
}

export async function findChatGroup(db: Db, businessId: number, id: number): Promise<TChatGroup> {
  return toChatGroup(await ownGroup(db, businessId, id));
}

async function assertSlugFree(db: Db, businessId: number, slug: string, exceptId?: number) {
  const existing = await repo.findGroupBySlug(db, businessId, slug);
  if (existing && existing.id !== exceptId) throw AppError.fields({ slug: [CHAT_GROUP_MESSAGES.slugTaken] });
}

export async function createChatGroup(
  db: Db,
  businessId: number,
  input: z.output<typeof ZSaveChatGroupRequest>,
): Promise<TChatGroup> {
  await assertSlugFree(db, businessId, input.slug);
  try {
    return toChatGroup(
      await repo.insertGroup(db, {
        businessId,
        name: input.name,
        slug: input.slug,
        greeting: input.greeting,
        color: input.color,
        launcherPosition: input.launcher_position,
        visitorForm: input.visitor_form,
        allowedOrigins: input.allowed_origins,
      }),
    );
  } catch (err) {
    // Two creations racing for one slug: the unique index decides.
    await assertSlugFree(db, businessId, input.slug);
    throw err;
  }
}

export async function updateChatGroup(
  db: Db,
  businessId: number,
  id: number,
  input: z.output<typeof ZUpdateChatGroupRequest>,
): Promise<TChatGroup> {
  await ownGroup(db, businessId, id);
  if (input.slug !== undefined) await assertSlugFree(db, businessId, input.slug, id);
  const row = await repo.updateGroup(db, businessId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    ...(input.greeting !== undefined ? { greeting: input.greeting } : {}),
    ...(input.color !== undefined ? { color: input.color } : {}),
    ...(input.launcher_position !== undefined ? { launcherPosition: input.launcher_position } : {}),
    ...(input.visitor_form !== undefined ? { visitorForm: input.visitor_form } : {}),
    ...(input.allowed_origins !== undefined ? { allowedOrigins: input.allowed_origins } : {}),
  });
  return toChatGroup(row!);
}

export async function deleteChatGroup(db: Db, businessId: number, id: number): Promise<void> {
  const members = await repo.listGroupUsers(db, businessId, id);
  if (!(await repo.deleteGroup(db, businessId, id))) throw AppError.notFound();
  for (const m of members) forgetMembership(db, businessId, m.user.pk);
}

export async function findChatGroupUsers(
  db: Db,
  businessId: number,
  groupId: number,
): Promise<TChatGroupUser[]> {
  await ownGroup(db, businessId, groupId);
  return (await repo.listGroupUsers(db, businessId, groupId)).map(toGroupUser);
}

export async function findChatGroupUser(db: Db, businessId: number, groupId: number, userId: number) {
  await ownGroup(db, businessId, groupId);
  const row = await repo.findGroupUser(db, businessId, groupId, userId);
  if (!row) throw AppError.notFound();
  return toGroupUser(row);
}

export async function addChatGroupUser(db: Db, businessId: number, groupId: number, userId: number) {
  await ownGroup(db, businessId, groupId);
  if (!(await findMembership(db, businessId, userId)))
    throw AppError.fields({ user_id: [CHAT_GROUP_MESSAGES.notMember] });
  await repo.insertGroupUser(db, businessId, groupId, userId);
  // What the member may see changed: their open sockets look their access up again.
  forgetMembership(db, businessId, userId);
  return findChatGroupUser(db, businessId, groupId, userId);
}

export async function removeChatGroupUser(db: Db, businessId: number, groupId: number, userId: number) {
  await ownGroup(db, businessId, groupId);
  if (!(await repo.deleteGroupUser(db, businessId, groupId, userId))) throw AppError.notFound();
  forgetMembership(db, businessId, userId);
}
