// AI agents (engage.md §5): agents, their immutable config versions, schedules and the ledger of
// fired schedule slots. Only modules/agents/agents.repository.ts touches them.
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { TAgentConfigValues } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

export const AGENT_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;

export const agents = pgTable(
  'agents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Under agent_images/{business id}/ in storage. */
    avatarKey: text('avatar_key'),
    status: text('status', { enum: AGENT_STATUSES }).notNull().default('draft'),
    /** The current config version; null before the first. */
    configVersion: integer('config_version'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('agents_business_updated_idx').on(t.businessId, t.updatedAt)],
);

/** One config version; a trigger refuses any update (a change writes the next version). */
export const agentConfigVersions = pgTable(
  'agent_config_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agentId: bigint('agent_id', { mode: 'number' })
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    config: jsonb('config').$type<TAgentConfigValues>().notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agent_config_versions_agent_version_key').on(t.agentId, t.version)],
);

export const agentSchedules = pgTable(
  'agent_schedules',
  {
    agentId: bigint('agent_id', { mode: 'number' })
      .primaryKey()
      .references(() => agents.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['cron', 'interval', 'once'] }).notNull(),
    cron: text('cron'),
    everyMinutes: integer('every_minutes'),
    runAt: ts('run_at'),
    timezone: text('timezone').notNull(),
    startAt: ts('start_at'),
    endAt: ts('end_at'),
    missed: text('missed', { enum: ['skip', 'run_once'] }).notNull(),
    /** Where an interval counts from (start_at, else when the schedule was saved). */
    anchorAt: ts('anchor_at').notNull().defaultNow(),
    nextRunAt: ts('next_run_at'),
    lastFiredAt: ts('last_fired_at'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('agent_schedules_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.nextRunAt} is not null`),
  ],
);

/** A schedule slot that fired: at most one per agent × slot; the run loop consumes them. */
export const agentScheduleFires = pgTable(
  'agent_schedule_fires',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    agentId: bigint('agent_id', { mode: 'number' })
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    slot: ts('slot').notNull(),
    catchUp: boolean('catch_up').notNull().default(false),
    firedAt: ts('fired_at').notNull().defaultNow(),
    consumedAt: ts('consumed_at'),
  },
  (t) => [
    uniqueIndex('agent_schedule_fires_agent_slot_key').on(t.agentId, t.slot),
    index('agent_schedule_fires_pending_idx')
      .on(t.firedAt)
      .where(sql`${t.consumedAt} is null`),
  ],
);
