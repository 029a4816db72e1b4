// The LLM (engage.md §6): a business's own model settings and the usage of every call. Only
// modules/llm/llm.repository.ts touches them.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { businesses } from './business';

/** A business's own OpenAI-compatible model; without a row it uses the server's (LLM_*). */
export const llmSettings = pgTable('llm_settings', {
  businessId: bigint('business_id', { mode: 'number' })
    .primaryKey()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  /** The model for /embeddings at the same server (knowledge-base hybrid search); null: none. */
  embeddingModel: text('embedding_model'),
  /** Sealed with APP_SECRET (platform/crypto.ts); null when the model needs no key. */
  apiKeySealed: text('api_key_sealed'),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const LLM_USAGE_SOURCES = ['business', 'server'] as const;
export const LLM_USAGE_STATUSES = ['ok', 'error'] as const;

/** One call to a model: what for (`purpose`, and `ref`, e.g. an agent run), which model, its tokens and time. */
export const llmUsage = pgTable(
  'llm_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    ref: text('ref'),
    source: text('source', { enum: LLM_USAGE_SOURCES }).notNull(),
    model: text('model').notNull(),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    totalTokens: integer('total_tokens').notNull().default(0),
    durationMs: integer('duration_ms').notNull(),
    attempts: integer('attempts').notNull().default(1),
    status: text('status', { enum: LLM_USAGE_STATUSES }).notNull(),
    errorKind: text('error_kind'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('llm_usage_business_created_idx').on(t.businessId, t.createdAt),
    index('llm_usage_business_ref_idx')
      .on(t.businessId, t.purpose, t.ref)
      .where(sql`${t.ref} IS NOT NULL`),
  ],
);
