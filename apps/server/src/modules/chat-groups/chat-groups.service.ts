// Chat groups: teams that own widget conversations; agents see their groups' conversations.
import {
  AI_ERRORS,
  DEFAULT_AI_RESPONDER,
  DEFAULT_ASSIGNMENT,
  DEFAULT_WIDGET_LOCALE,
  matchWidgetLocale,
  type TWidgetLocale,
  type TAiResponderSettings,
  type TAssignmentSettings,
  type TChatGroup,
  type TChatGroupSettings,
  type TChannel,
  type TChatGroupUser,
} from '@titan/contracts';
import { type ZSaveChatGroupRequest, type ZUpdateChatGroupRequest } from '@titan/contracts';
import type { z } from 'zod';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { announceChange } from '../../platform/realtime/change-log.repository';
import { forgetMembership } from '../auth';
import { findMembership } from '../business';
import { findMcpServerRow } from '../mcp-servers';
import { findPluginRow } from '../plugins';
import { isOpenAt } from './business-hours';
import * as repo from './chat-groups.repository';

export const CHAT_GROUP_ERRORS = {
  slugTaken: 'Another chat group of this business already uses this slug.',
  notMember: 'Only members of this business can join its chat groups.',
} as const;

/** The group's public record; business_id and updated_at stay inside (conversations carry it too). */
export function toChatGroup(
  row: Pick<
    repo.ChatGroupRow,
    | 'id'
    | 'name'
    | 'slug'
    | 'greeting'
    | 'color'
    | 'launcherPosition'
    | 'visitorForm'
    | 'allowedOrigins'
    | 'createdAt'
  >,
): TChatGroup {
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

const toAssignment = (row: repo.AssignmentRow | null | undefined): TAssignmentSettings =>
  row ? { mode: row.mode, capacity: row.capacity } : { ...DEFAULT_ASSIGNMENT };

/** The widget's language, business hours, SLA and CSAT settings as the group's routes answer them. */
const toLanguage = (row: repo.ChatGroupRow) => ({
  locale: (matchWidgetLocale(row.locale) ?? DEFAULT_WIDGET_LOCALE) as TWidgetLocale,
  strings: row.strings,
  business_hours: row.businessHours,
  away_message: row.awayMessage,
  sla: row.sla,
  csat: row.csat,
});

/** The service-level columns a create or update writes (only those sent). */
const serviceLevelPatch = (input: z.output<typeof ZUpdateChatGroupRequest>) => ({
  ...(input.business_hours !== undefined ? { businessHours: input.business_hours } : {}),
  ...(input.away_message !== undefined ? { awayMessage: input.away_message } : {}),
  ...(input.sla !== undefined
    ? {
        sla:
          input.sla && (input.sla.first_response_minutes !== null || input.sla.resolution_minutes !== null)
            ? input.sla
            : null,
      }
    : {}),
  ...(input.csat !== undefined ? { csat: input.csat } : {}),
});

const toAiResponder = (stored: repo.ChatGroupRow['aiResponder']): TAiResponderSettings =>
  stored ? { ...DEFAULT_AI_RESPONDER, ...stored } : { ...DEFAULT_AI_RESPONDER };

/**
 * The group as its own routes answer it: the record, its auto-assignment, widget language and AI
 * first responder.
 */
async function withSettings(db: Db, row: repo.ChatGroupRow): Promise<TChatGroupSettings> {
  return {
    ...toChatGroup(row),
    assignment: toAssignment(await repo.findAssignment(db, row.id)),
    ...toLanguage(row),
    ai_responder: toAiResponder(row.aiResponder),
  };
}

export async function findChatGroups(db: Db, businessId: number): Promise<TChatGroupSettings[]> {
  const assignments = new Map((await repo.findAssignments(db, businessId)).map((a) => [a.chatGroupId, a]));
  return (await repo.listGroups(db, businessId)).map((row) => ({
    ...toChatGroup(row),
    assignment: toAssignment(assignments.get(row.id)),
    ...toLanguage(row),
    ai_responder: toAiResponder(row.aiResponder),
  }));
}

/**
 * Saves a group's auto-assignment, announced on the change feed (table chat_group_assignment): every
 * instance's assignment engine looks at the group's waiting conversations again.
 */
async function saveAssignment(db: Db, businessId: number, groupId: number, settings: TAssignmentSettings) {
  await db.transaction(async (tx) => {
    await repo.saveAssignment(tx, businessId, groupId, settings);
    await announceAssignment(tx, businessId, groupId);
  });
}

const announceAssignment = (db: Queryable, businessId: number, groupId: number) =>
  announceChange(db, { businessId, table: 'chat_group_assignment', op: 'UPDATE', rowId: String(groupId) });

/**
 * The group's AI first responder as the inbox reads it (auto-assignment passes by what it holds;
 * the responder answers by it). Off for a group never set, or one that does not exist.
 */
export async function findAiResponderSettings(
  db: Queryable,
  groupId: number,
): Promise<TAiResponderSettings & { businessId: number | null }> {
  const row = await repo.findAiResponder(db, groupId);
  return { ...toAiResponder(row?.aiResponder ?? null), businessId: row?.businessId ?? null };
}

/** The channels on which the group's AI holds conversations from the start ("always" only). */
export function aiHeldChannels(settings: TAiResponderSettings): TChannel[] {
  if (settings.mode !== 'always') return [];
  return settings.channels.map((c) => (c === 'widget' ? 'titan_message' : c));
}

/**
 * Everything an auto-assignment claim needs of its group, read once: null when assignment is off
 * (or was never set); `open` whether the group's business hours are open at `at`; `aiHeld` the
 * channels its AI first responder holds (aiHeldChannels).
 */
export async function findAssignmentRules(db: Queryable, groupId: number, at: Date) {
  const row = await repo.findAssignmentRules(db, groupId);
  if (!row || row.mode === 'off') return null;
  return {
    businessId: row.businessId,
    mode: row.mode,
    capacity: row.capacity,
    lastUserId: row.lastUserId,
    open: isOpenAt(row.businessHours, at),
    aiHeld: aiHeldChannels(toAiResponder(row.aiResponder)),
  };
}

export { moveAssignmentCursor } from './chat-groups.repository';

async function ownGroup(db: Db, businessId: number, id: number): Promise<repo.ChatGroupRow> {
  const row = await repo.findGroup(db, businessId, id);
  if (!row) throw AppError.notFound();
  return row;
}

export async function findChatGroup(db: Db, businessId: number, id: number): Promise<TChatGroupSettings> {
  return withSettings(db, await ownGroup(db, businessId, id));
}

async function assertSlugFree(db: Db, businessId: number, slug: string, exceptId?: number) {
  const existing = await repo.findGroupBySlug(db, businessId, slug);
  if (existing && existing.id !== exceptId) throw AppError.fields({ slug: [CHAT_GROUP_ERRORS.slugTaken] });
}

export async function createChatGroup(
  db: Db,
  businessId: number,
  input: z.output<typeof ZSaveChatGroupRequest>,
): Promise<TChatGroupSettings> {
  await assertSlugFree(db, businessId, input.slug);
  await assertOwnTools(db, businessId, input.ai_responder);
  let row: repo.ChatGroupRow;
  try {
    row = await repo.insertGroup(db, {
      businessId,
      name: input.name,
      slug: input.slug,
      greeting: input.greeting,
      color: input.color,
      launcherPosition: input.launcher_position,
      visitorForm: input.visitor_form,
      allowedOrigins: input.allowed_origins,
      ...(input.locale !== undefined ? { locale: input.locale } : {}),
      ...(input.strings !== undefined ? { strings: input.strings } : {}),
      ...(input.ai_responder !== undefined ? { aiResponder: input.ai_responder } : {}),
      ...serviceLevelPatch(input),
    });
  } catch (err) {
    // Two creations racing for one slug: the unique index decides.
    await assertSlugFree(db, businessId, input.slug);
    throw err;
  }
  if (input.assignment) await saveAssignment(db, businessId, row.id, input.assignment);
  return withSettings(db, row);
}

/** The responder's tools must name the business's own MCP servers and plugin connections. */
async function assertOwnTools(db: Db, businessId: number, settings: TAiResponderSettings | undefined) {
  const errors: Record<string, string[]> = {};
  for (const [i, tool] of (settings?.tools ?? []).entries()) {
    const found =
      tool.source === 'mcp'
        ? await findMcpServerRow({ db }, businessId, tool.server_id)
        : await findPluginRow({ db }, businessId, tool.server_id);
    if (!found) errors[`ai_responder.tools.${i}.server_id`] = [AI_ERRORS.unknownTool];
  }
  if (Object.keys(errors).length) throw AppError.fields(errors);
}

export async function updateChatGroup(
  db: Db,
  businessId: number,
  id: number,
  input: z.output<typeof ZUpdateChatGroupRequest>,
): Promise<TChatGroupSettings> {
  await ownGroup(db, businessId, id);
  await assertOwnTools(db, businessId, input.ai_responder);
  if (input.slug !== undefined) await assertSlugFree(db, businessId, input.slug, id);
  const row = await repo.updateGroup(db, businessId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    ...(input.greeting !== undefined ? { greeting: input.greeting } : {}),
    ...(input.color !== undefined ? { color: input.color } : {}),
    ...(input.launcher_position !== undefined ? { launcherPosition: input.launcher_position } : {}),
    ...(input.visitor_form !== undefined ? { visitorForm: input.visitor_form } : {}),
    ...(input.allowed_origins !== undefined ? { allowedOrigins: input.allowed_origins } : {}),
    ...(input.locale !== undefined ? { locale: input.locale } : {}),
    ...(input.strings !== undefined ? { strings: input.strings } : {}),
    ...(input.ai_responder !== undefined ? { aiResponder: input.ai_responder } : {}),
    ...serviceLevelPatch(input),
  });
  if (input.assignment) await saveAssignment(db, businessId, id, input.assignment);
  // What the AI holds changed: auto-assignment looks at the group's waiting conversations again.
  else if (input.ai_responder) await announceAssignment(db, businessId, id);
  return withSettings(db, row!);
}

export async function deleteChatGroup(db: Db, businessId: number, id: number): Promise<void> {
  const members = await repo.listGroupUsers(db, businessId, id);
  if (!(await repo.deleteGroup(db, businessId, id))) throw AppError.notFound();
  for (const m of members) forgetMembership(db, businessId, m.user.pk);
}

/** The members who answer the group's chat (user ids), for its visitors' "is anyone online". */
export async function findChatGroupMemberIds(db: Db, businessId: number, groupId: number): Promise<number[]> {
  return (await repo.listGroupUsers(db, businessId, groupId)).map((row) => row.user.pk);
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
    throw AppError.fields({ user_id: [CHAT_GROUP_ERRORS.notMember] });
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
