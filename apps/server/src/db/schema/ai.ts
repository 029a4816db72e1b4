// The AI in the inbox (modules/ai): every run of the first responder and the staff copilot.
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { AI_RUN_KINDS, AI_RUN_RATINGS, AI_RUN_STATUSES, type TAiRunStep } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { users } from './identity';
import { conversations, messages } from './inbox';

export const aiRuns = pgTable(
  'ai_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    conversationId: bigint('conversation_id', { mode: 'number' }).references(() => conversations.id, {
      onDelete: 'cascade',
    }),
    /** The customer message a responder run answers (claimed once: the unique index). */
    triggerMessageId: bigint('trigger_message_id', { mode: 'number' }).references(() => messages.id, {
      onDelete: 'set null',
    }),
    kind: text('kind', { enum: AI_RUN_KINDS }).notNull(),
    status: text('status', { enum: AI_RUN_STATUSES }).notNull().default('running'),
    outcome: text('outcome'),
    steps: jsonb('steps').$type<TAiRunStep[]>().notNull().default([]),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    /** A WhatsApp customer message the responder run answers (wamid; migration 0076). */
    triggerWaMessageId: text('trigger_wa_message_id'),
    /** A running responder run's lease: past it, the recovery pass takes the run (migration 0076). */
    lockedUntil: ts('locked_until'),
    /** How many times the run was started (1, then 2 when recovery retried it). */
    attempts: integer('attempts').notNull().default(1),
    rating: text('rating', { enum: AI_RUN_RATINGS }),
    /** Why staff rated the answer so (migration 0076). */
    ratingReason: text('rating_reason'),
    ratedBy: bigint('rated_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    ratedAt: ts('rated_at'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('ai_runs_business_idx').on(t.businessId, sql`${t.createdAt} DESC`),
    index('ai_runs_conversation_idx').on(t.conversationId, t.createdAt),
    uniqueIndex('ai_runs_trigger_uq')
      .on(t.triggerMessageId)
      .where(sql`${t.kind} = 'responder'`),
    uniqueIndex('ai_runs_trigger_wa_uq')
      .on(t.businessId, t.triggerWaMessageId)
      .where(sql`${t.kind} = 'responder' AND ${t.triggerWaMessageId} IS NOT NULL`),
    index('ai_runs_running_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'running'`),
    index('ai_runs_rated_idx')
      .on(t.businessId, t.ratedAt)
      .where(sql`${t.rating} IS NOT NULL`),
  ],
);
