// AI agents (engage.md §5): CRUD with avatars, config versions that are never changed once written
// (each update writes the next), and schedules whose next run is computed in their own time zone.
import {
  AGENT_AVATAR_LIMIT_BYTES,
  AGENT_AVATAR_TYPES,
  AGENT_ERRORS as M,
  type TAgent,
  type TAgentConfig,
  type TAgentConfigValues,
  type TAgentSchedule,
  type TCreateAgentRequest,
  type TFieldErrors,
  type TUpdateAgentRequest,
  type ZAgentConfigRequest,
  type ZAgentScheduleRequest,
  type ZCreateAgentRequest,
  type ZUpdateAgentRequest,
} from '@titan/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Storage } from '../../platform/storage';
import { recordEvent } from '../analytics';
import { listExists } from '../customer-lists';
import { sniffMimeType, storeUpload } from '../files';
import { templateExists } from '../templates';
import { whatsappTemplateExists } from '../whatsapp';
import { externalServerExists } from '../outside-tools';
import * as repo from './agents.repository';
import { lastRuns } from './agents.runs.repository';
import { parseCron, slotAfter, toSchedule } from './agents.schedule';

export type AgentsDeps = { db: Db; storage: Storage };

export const AGENT_IMAGES_FOLDER = 'agent_images';

type CreateBody = z.output<typeof ZCreateAgentRequest>;
type UpdateBody = z.output<typeof ZUpdateAgentRequest>;
type ScheduleBody = z.output<typeof ZAgentScheduleRequest>;
export type { TCreateAgentRequest, TUpdateAgentRequest };

function toConfig(row: repo.ConfigVersionRow): TAgentConfig {
  // Versions saved before the consent mode existed carry the default.
  return {
    ...row.config,
    consent_mode: row.config.consent_mode ?? 'subscribed',
    version: row.version,
    created_at: row.createdAt.toISOString(),
  };
}

async function toAgents(deps: AgentsDeps, businessId: number, rows: repo.AgentRow[]): Promise<TAgent[]> {
  const ids = rows.map((r) => r.id);
  const [configs, schedules, runs] = await Promise.all([
    repo.findConfigVersions(deps.db, businessId, ids, 'current'),
    repo.findSchedules(deps.db, businessId, ids),
    lastRuns(deps.db, businessId, ids),
  ]);
  const configOf = new Map(configs.map((c) => [c.agentId, c]));
  const scheduleOf = new Map(schedules.map((s) => [s.agentId, s]));
  const runOf = new Map(runs.map((r) => [r.agentId, r]));
  return Promise.all(
    rows.map(async (row) => {
      const config = configOf.get(row.id);
      const schedule = scheduleOf.get(row.id);
      const run = runOf.get(row.id);
      return {
        id: row.id,
        name: row.name,
        description: row.description,
        avatar_url: row.avatarKey ? await deps.storage.signedUrl(row.avatarKey, 'avatar') : null,
        status: row.status,
        status_reason: row.statusReason,
        config: config ? toConfig(config) : null,
        schedule: schedule ? toSchedule(schedule) : null,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
        last_run: run
          ? {
              id: run.id,
              status: run.status,
              started_at: run.startedAt.toISOString(),
              channel: run.channel,
              finished_at: run.finishedAt?.toISOString() ?? null,
              error: run.error,
            }
          : null,
      };
    }),
  );
}

async function toAgent(deps: AgentsDeps, row: repo.AgentRow): Promise<TAgent> {
  return (await toAgents(deps, row.businessId, [row]))[0]!;
}

async function mustFind(db: Db, businessId: number, id: number): Promise<repo.AgentRow> {
  const row = await repo.findAgent(db, businessId, id);
  if (!row) throw AppError.notFound(M.notFound);
  return row;
}

export async function findAgents(deps: AgentsDeps, businessId: number): Promise<TAgent[]> {
  return toAgents(deps, businessId, await repo.listAgents(deps.db, businessId));
}

export async function findAgent(deps: AgentsDeps, businessId: number, id: number): Promise<TAgent> {
  return toAgent(deps, await mustFind(deps.db, businessId, id));
}

/**
 * What a config names must be the business's: its lists, templates, MCP servers and plugin
 * connections. Field keys are prefixed by `at`.
 */
async function checkConfigRefs(
  db: Db,
  businessId: number,
  config: TAgentConfigValues,
  at: string,
): Promise<void> {
  const errors: TFieldErrors = {};
  const unknown: number[] = [];
  for (const id of new Set(config.audience.list_ids)) {
    if (!(await listExists(db, businessId, id))) unknown.push(id);
  }
  if (unknown.length > 0) errors[`${at}audience.list_ids`] = [`${M.unknownLists} (${unknown.join(', ')})`];
  for (const [i, c] of config.channels.entries()) {
    if (c.template_id === undefined) continue;
    const key = `${at}channels.${i}.template_id`;
    if (c.channel === 'sms') errors[key] = [M.smsHasNoTemplates];
    else if (c.channel === 'email' && !(await templateExists(db, businessId, c.template_id)))
      errors[key] = [M.unknownTemplate];
    else if (c.channel === 'whatsapp' && !(await whatsappTemplateExists(db, businessId, c.template_id)))
      errors[key] = [M.unknownTemplate];
  }
  for (const [i, t] of config.tools.entries()) {
    if (t.source === 'builtin' || t.server_id === undefined) continue;
    if (!(await externalServerExists(db, businessId, t.source, t.server_id)))
      errors[`${at}tools.${i}.server_id`] = [M.unknownServer];
  }
  if (Object.keys(errors).length > 0) throw AppError.fields(errors);
}

export async function createAgent(
  deps: AgentsDeps,
  businessId: number,
  actorId: number | null,
  body: CreateBody,
  requestId: string,
): Promise<TAgent> {
  if (body.config) await checkConfigRefs(deps.db, businessId, body.config, 'config.');
  else if (body.status === 'active') throw AppError.fields({ status: [M.activeNeedsConfig] });
  const row = await deps.db.transaction(async (tx) => {
    const agent = await repo.insertAgent(tx, {
      businessId,
      name: body.name,
      description: body.description,
      status: body.status,
      createdBy: actorId,
    });
    if (!body.config) return agent;
    await repo.insertConfigVersion(tx, agent, 1, body.config, actorId);
    return (await repo.updateAgent(tx, businessId, agent.id, { configVersion: 1 }))!;
  });
  await recordEvent(deps.db, {
    event: 'user_created_agent',
    userId: actorId,
    businessId,
    requestId,
    properties: { agent_id: row.id },
  });
  return toAgent(deps, row);
}

export async function updateAgent(
  deps: AgentsDeps,
  businessId: number,
  id: number,
  body: UpdateBody,
): Promise<TAgent> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await repo.findAgent(tx, businessId, id, true);
    if (!current) throw AppError.notFound(M.notFound);
    if (body.status === 'active' && current.configVersion === null)
      throw AppError.fields({ status: [M.activeNeedsConfig] });
    const updated = await repo.updateAgent(tx, businessId, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      // A status set by hand replaces the reason Titan gave for the last one.
      ...(body.status !== undefined ? { status: body.status, statusReason: null } : {}),
      ...(body.avatar_url === null ? { avatarKey: null } : {}),
    });
    // A paused agent resumed starts from its next slot: a pause is not downtime to catch up on.
    if (body.status === 'active' && current.status !== 'active') {
      const [schedule] = await repo.findSchedules(tx, businessId, [id]);
      if (schedule) await repo.setNextRun(tx, id, { nextRunAt: safeSlotAfter(schedule, new Date()) });
    }
    return { updated: updated!, oldAvatar: body.avatar_url === null ? current.avatarKey : null };
  });
  if (row.oldAvatar) await deps.storage.delete(row.oldAvatar).catch(() => undefined);
  return toAgent(deps, row.updated);
}

function safeSlotAfter(spec: repo.ScheduleRow, after: Date): Date | null {
  try {
    return slotAfter(spec, after);
  } catch {
    return null;
  }
}

export async function deleteAgent(
  deps: AgentsDeps,
  businessId: number,
  id: number,
  actorId: number | null,
  requestId: string,
): Promise<void> {
  const row = await repo.deleteAgent(deps.db, businessId, id);
  if (!row) throw AppError.notFound(M.notFound);
  if (row.avatarKey) await deps.storage.delete(row.avatarKey).catch(() => undefined);
  await recordEvent(deps.db, {
    event: 'user_deleted_agent',
    userId: actorId,
    businessId,
    requestId,
    properties: { agent_id: id },
  });
}

/** Writes the next config version; earlier versions stay as they were. */
export async function updateAgentConfig(
  deps: AgentsDeps,
  businessId: number,
  id: number,
  actorId: number | null,
  config: z.output<typeof ZAgentConfigRequest>,
): Promise<TAgent> {
  await mustFind(deps.db, businessId, id);
  await checkConfigRefs(deps.db, businessId, config, '');
  const row = await deps.db.transaction(async (tx) => {
    // Locked: two saves never take the same version number.
    const current = await repo.findAgent(tx, businessId, id, true);
    if (!current) throw AppError.notFound(M.notFound);
    const version = (current.configVersion ?? 0) + 1;
    await repo.insertConfigVersion(tx, current, version, config, actorId);
    return (await repo.updateAgent(tx, businessId, id, { configVersion: version }))!;
  });
  return toAgent(deps, row);
}

/** Every config version, newest first. */
export async function findConfigVersions(
  deps: AgentsDeps,
  businessId: number,
  id: number,
): Promise<TAgentConfig[]> {
  await mustFind(deps.db, businessId, id);
  return (await repo.findConfigVersions(deps.db, businessId, [id])).map(toConfig);
}

/** An avatar: PNG, JPEG, GIF or WebP by its bytes, at most 2 MB, under agent_images/{business}/. */
export async function uploadAvatar(
  deps: AgentsDeps,
  businessId: number,
  id: number,
  file: { fileName: string; bytes: Buffer },
): Promise<TAgent> {
  const agent = await mustFind(deps.db, businessId, id);
  if (file.bytes.length === 0) throw AppError.fields({ file: [M.emptyFile] });
  if (file.bytes.length > AGENT_AVATAR_LIMIT_BYTES)
    throw new AppError('payload_too_large', M.avatarTooLarge, { file: [M.avatarTooLarge] });
  const mimeType = await sniffMimeType(file.bytes, file.fileName);
  if (!(AGENT_AVATAR_TYPES as readonly string[]).includes(mimeType))
    throw AppError.fields({ file: [M.notAnImage] }, M.notAnImage);
  const stored = await storeUpload(
    deps,
    businessId,
    `${AGENT_IMAGES_FOLDER}/${businessId}`,
    file,
    AGENT_AVATAR_LIMIT_BYTES,
  );
  const row = await repo.updateAgent(deps.db, businessId, id, { avatarKey: stored.key });
  if (!row) {
    // Deleted meanwhile: nothing refers to the bytes.
    await deps.storage.delete(stored.key).catch(() => undefined);
    throw AppError.notFound(M.notFound);
  }
  if (agent.avatarKey) await deps.storage.delete(agent.avatarKey).catch(() => undefined);
  return toAgent(deps, row);
}

// ---- Schedules ----

export async function findSchedule(
  deps: AgentsDeps,
  businessId: number,
  id: number,
): Promise<TAgentSchedule | null> {
  await mustFind(deps.db, businessId, id);
  const [row] = await repo.findSchedules(deps.db, businessId, [id]);
  return row ? toSchedule(row) : null;
}

/** Sets the agent's schedule (replacing any) and computes its next run from `now`. */
export async function putSchedule(
  deps: AgentsDeps,
  businessId: number,
  id: number,
  body: ScheduleBody,
  now = new Date(),
): Promise<TAgentSchedule> {
  const agent = await mustFind(deps.db, businessId, id);
  const date = (v: string | null | undefined) => (v ? new Date(v) : null);
  const values = {
    kind: body.kind,
    cron: body.kind === 'cron' ? body.cron!.trim().replace(/\s+/g, ' ') : null,
    everyMinutes: body.kind === 'interval' ? body.every_minutes! : null,
    runAt: body.kind === 'once' ? date(body.run_at) : null,
    timezone: body.timezone,
    startAt: date(body.start_at),
    endAt: date(body.end_at),
    missed: body.missed,
    anchorAt: now,
  } satisfies repo.ScheduleValues;
  if (values.cron !== null) {
    try {
      parseCron(values.cron, body.timezone);
    } catch {
      throw AppError.fields({ cron: [M.invalidCron] });
    }
  }
  if (values.runAt && values.runAt.getTime() <= now.getTime())
    throw AppError.fields({ run_at: [M.runAtPast] });
  const next = slotAfter(values, now);
  if (!next) throw AppError.fields({ end_at: [M.neverRuns] });
  return toSchedule(await repo.upsertSchedule(deps.db, agent, { ...values, nextRunAt: next }));
}
