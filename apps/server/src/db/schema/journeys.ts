// Journeys and customer events (modules/journeys): the events that start journeys and end their
// waits, the journeys with their versions, each customer's pass through one (a run) and the step
// ledger — one row per customer × journey version × step visit — whose due rows are the timers.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  JOURNEY_REENTRY,
  JOURNEY_RUN_STATUSES,
  JOURNEY_STATUSES,
  JOURNEY_STEP_STATUSES,
} from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { customers } from './inbox';

export const customerEvents = pgTable(
  'customer_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
    /** `api` (posted) or `titan` (a fact Titan emitted). */
    source: text('source', { enum: ['api', 'titan'] }).notNull(),
    idempotencyKey: text('idempotency_key'),
    occurredAt: ts('occurred_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When journeys heard it (started runs, ended waits); null until then. */
    processedAt: ts('processed_at'),
    /**
     * An event a journey's update step caused (a label it added…): the journeys whose steps led
     * to it, oldest first, and the step. A journey in the chain is not started by it again.
     */
    origin: jsonb('origin').$type<{ journeys: number[]; step_id: number }>(),
  },
  (t) => [
    uniqueIndex('customer_events_idempotency_key').on(t.businessId, t.idempotencyKey),
    index('customer_events_pending_idx')
      .on(t.id)
      .where(sql`${t.processedAt} is null`),
    index('customer_events_customer_idx').on(t.customerId, t.name, t.occurredAt),
  ],
);

export const journeys = pgTable(
  'journeys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', { enum: JOURNEY_STATUSES }).notNull().default('draft'),
    reentry: text('reentry', { enum: JOURNEY_REENTRY }).notNull().default('never'),
    /** The newest version. */
    version: integer('version').notNull().default(1),
    /** The version new customers enter; null until first published. */
    liveVersion: integer('live_version'),
    /** The events its published versions start on or wait for (emitters skip the others). */
    eventNames: text('event_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The journey's goal: an event within N days of entering (its conversion); null: none. */
    goal: jsonb('goal').$type<{ event: string; within_days: number }>(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('journeys_business_idx').on(t.businessId, t.id)],
);

export const journeyVersions = pgTable(
  'journey_versions',
  {
    journeyId: bigint('journey_id', { mode: 'number' })
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    graph: jsonb('graph').$type<Record<string, unknown>>().notNull(),
    reentry: text('reentry').notNull(),
    publishedAt: ts('published_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.journeyId, t.version] })],
);

export const journeyRuns = pgTable(
  'journey_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    journeyId: bigint('journey_id', { mode: 'number' })
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    triggerEventId: bigint('trigger_event_id', { mode: 'number' }),
    status: text('status', { enum: JOURNEY_RUN_STATUSES }).notNull().default('active'),
    enteredAt: ts('entered_at').notNull(),
    endedAt: ts('ended_at'),
    /** A test run: its waits last this many times less. Null for customers who entered for real. */
    clockSpeed: integer('clock_speed'),
  },
  (t) => [
    uniqueIndex('journey_runs_trigger_key').on(t.journeyId, t.triggerEventId),
    index('journey_runs_customer_idx').on(t.journeyId, t.customerId, t.id),
  ],
);

export const journeySteps = pgTable(
  'journey_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => journeyRuns.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    journeyId: bigint('journey_id', { mode: 'number' }).notNull(),
    version: integer('version').notNull(),
    customerId: bigint('customer_id', { mode: 'number' }).notNull(),
    nodeId: text('node_id').notNull(),
    visit: integer('visit').notNull().default(1),
    status: text('status', { enum: JOURNEY_STEP_STATUSES }).notNull(),
    /** When the loop takes it: now for a step to run, the timer's end for a wait. */
    dueAt: ts('due_at'),
    /** A wait for this event (until_event). */
    waitEvent: text('wait_event'),
    /** Held by a worker until then; a worker that died leaves it to be taken again. */
    leaseUntil: ts('lease_until'),
    /**
     * How many times a worker took it since it was last due (migration 0095): a step that keeps
     * failing for a reason Titan cannot explain fails for good after STEP_ATTEMPTS, saying so.
     */
    attempts: integer('attempts').notNull().default(0),
    outcome: text('outcome'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    enteredAt: ts('entered_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('journey_steps_visit_key').on(t.runId, t.nodeId, t.visit),
    index('journey_steps_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} in ('pending', 'waiting')`),
    index('journey_steps_event_idx')
      .on(t.customerId, t.waitEvent)
      .where(sql`${t.status} = 'waiting' and ${t.waitEvent} is not null`),
    index('journey_steps_stats_idx').on(t.journeyId, t.nodeId, t.status),
  ],
);

/** Who is in a segment-triggered journey's segment as of its last scan (entering = a new row). */
export const journeySegmentMembers = pgTable(
  'journey_segment_members',
  {
    journeyId: bigint('journey_id', { mode: 'number' })
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    enteredAt: ts('entered_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.journeyId, t.customerId], name: 'journey_segment_members_pkey' })],
);
