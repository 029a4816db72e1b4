// AI agents (engage.md §5): agents, their immutable config versions, schedules and the ledger of
// fired schedule slots. Only modules/agents/agents.repository.ts touches them.
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  AGENT_CHANNELS,
  AGENT_DELIVERY_STATUSES,
  AGENT_MISSED_POLICIES,
  AGENT_RUN_STATUSES,
  AGENT_RUN_TRIGGERS,
  AGENT_SCHEDULE_KINDS,
  AGENT_SEND_MODES,
  AGENT_STATUSES,
  AGENT_STEP_KINDS,
  type TAgentConfigValues,
} from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { customers } from './inbox';

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
    /** Why the agent has its status, in words (paused after repeated failed runs); null otherwise. */
    statusReason: text('status_reason'),
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
    kind: text('kind', { enum: AGENT_SCHEDULE_KINDS }).notNull(),
    cron: text('cron'),
    everyMinutes: integer('every_minutes'),
    runAt: ts('run_at'),
    timezone: text('timezone').notNull(),
    startAt: ts('start_at'),
    endAt: ts('end_at'),
    missed: text('missed', { enum: AGENT_MISSED_POLICIES }).notNull(),
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

// ---- Runs (migration 0036) ----

/** One run of an agent on one channel for one slot (a schedule's, or the moment of a manual run). */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: bigint('agent_id', { mode: 'number' })
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: AGENT_CHANNELS }).notNull(),
    slot: ts('slot').notNull(),
    trigger: text('trigger', { enum: AGENT_RUN_TRIGGERS }).notNull(),
    configVersion: integer('config_version').notNull(),
    sendMode: text('send_mode', { enum: AGENT_SEND_MODES }).notNull(),
    status: text('status', { enum: AGENT_RUN_STATUSES }).notNull().default('running'),
    /** The last customer id of the audience whose page is recorded: a resumed run goes on after it. */
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    cost: doublePrecision('cost'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** A worker holds the run until then; a run still `running` after it is taken over. */
    lockedUntil: ts('locked_until'),
    createdBy: bigint('created_by', { mode: 'number' }),
    /** A run for one customer alone (a journey's agent step): its audience is this customer. */
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, {
      onDelete: 'cascade',
    }),
    /** Who started a one-customer run, once: a journey step's key (`journey:<run>:<node>:<visit>`). */
    idempotencyKey: text('idempotency_key'),
    startedAt: ts('started_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    // One run per agent × channel × slot, for runs over the agent's audience; a one-customer run
    // is unique by its key instead (many start in the same instant).
    uniqueIndex('agent_runs_agent_channel_slot_key')
      .on(t.agentId, t.channel, t.slot)
      .where(sql`${t.customerId} is null`),
    uniqueIndex('agent_runs_business_idempotency_key')
      .on(t.businessId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('agent_runs_business_agent_started_idx').on(t.businessId, t.agentId, t.startedAt),
    index('agent_runs_running_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'running'`),
  ],
);

export const agentRunSteps = pgTable(
  'agent_run_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => agentRuns.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind', { enum: AGENT_STEP_KINDS }).notNull(),
    name: text('name').notNull(),
    customerId: bigint('customer_id', { mode: 'number' }),
    input: jsonb('input'),
    output: jsonb('output'),
    durationMs: integer('duration_ms').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agent_run_steps_run_seq_key').on(t.runId, t.seq)],
);

/** One recipient's outcome in a run; `idempotency_key` (agent, channel, customer, slot) is unique. */
export const agentDeliveries = pgTable(
  'agent_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => agentRuns.id, { onDelete: 'cascade' }),
    agentId: bigint('agent_id', { mode: 'number' })
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: AGENT_CHANNELS }).notNull(),
    customerId: bigint('customer_id', { mode: 'number' }).notNull(),
    status: text('status', { enum: AGENT_DELIVERY_STATUSES }).notNull(),
    reason: text('reason').notNull().default(''),
    guardrail: text('guardrail'),
    templateId: bigint('template_id', { mode: 'number' }),
    variables: jsonb('variables').$type<Record<string, unknown>>().notNull().default({}),
    subject: text('subject'),
    body: text('body'),
    sendId: uuid('send_id'),
    idempotencyKey: text('idempotency_key').notNull(),
    decidedBy: bigint('decided_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agent_deliveries_idempotency_key').on(t.idempotencyKey),
    index('agent_deliveries_run_status_idx').on(t.runId, t.status),
    index('agent_deliveries_business_customer_idx').on(t.businessId, t.customerId, t.createdAt),
  ],
);
