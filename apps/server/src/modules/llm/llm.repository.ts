// The only code that touches llm_settings and llm_usage.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { llmSettings, llmUsage } from '../../db/schema';

export type LlmSettingsRow = typeof llmSettings.$inferSelect;
export type LlmUsageRow = typeof llmUsage.$inferSelect;
export type NewLlmUsage = typeof llmUsage.$inferInsert;

export async function findSettings(db: Db, businessId: number): Promise<LlmSettingsRow | null> {
  const [row] = await db.select().from(llmSettings).where(eq(llmSettings.businessId, businessId)).limit(1);
  return row ?? null;
}

/** Writes the business's settings; `apiKeySealed` undefined keeps the stored key if the URL stays. */
export async function upsertSettings(
  db: Db,
  values: {
    businessId: number;
    baseUrl: string;
    model: string;
    embeddingModel: string | null;
    /** Undefined keeps the stored key — only while the base URL stays the same. */
    apiKeySealed?: string | null;
    updatedBy: number | null;
  },
): Promise<LlmSettingsRow> {
  const now = new Date();
  const set = {
    baseUrl: values.baseUrl,
    model: values.model,
    embeddingModel: values.embeddingModel,
    updatedBy: values.updatedBy,
    updatedAt: now,
    // The key follows its URL: whoever may change the settings must not be able to have the stored
    // key sent to a server of their own. Decided in the statement, so a concurrent save cannot slip
    // between reading the URL and writing it.
    apiKeySealed:
      values.apiKeySealed !== undefined
        ? values.apiKeySealed
        : sql<
            string | null
          >`case when ${llmSettings.baseUrl} = excluded.base_url then ${llmSettings.apiKeySealed} else null end`,
  };
  const [row] = await db
    .insert(llmSettings)
    .values({ businessId: values.businessId, ...set, apiKeySealed: values.apiKeySealed ?? null })
    .onConflictDoUpdate({ target: llmSettings.businessId, set })
    .returning();
  return row!;
}

export async function deleteSettings(db: Db, businessId: number): Promise<boolean> {
  const rows = await db.delete(llmSettings).where(eq(llmSettings.businessId, businessId)).returning();
  return rows.length > 0;
}

export async function insertUsage(db: Db, row: NewLlmUsage): Promise<void> {
  await db.insert(llmUsage).values(row);
}

/** A business's calls, oldest first, optionally of one purpose (and ref). */
export async function listUsage(
  db: Db,
  businessId: number,
  filter: { purpose?: string; ref?: string } = {},
): Promise<LlmUsageRow[]> {
  return db
    .select()
    .from(llmUsage)
    .where(
      and(
        eq(llmUsage.businessId, businessId),
        filter.purpose ? eq(llmUsage.purpose, filter.purpose) : undefined,
        filter.ref ? eq(llmUsage.ref, filter.ref) : undefined,
      ),
    )
    .orderBy(asc(llmUsage.id));
}

/** Calls and tokens of a business since `since`. */
export async function sumUsage(
  db: Db,
  businessId: number,
  since: Date,
): Promise<{ calls: number; promptTokens: number; completionTokens: number }> {
  const [row] = await db
    .select({
      calls: sql<number>`count(*)::int`,
      promptTokens: sql<number>`coalesce(sum(${llmUsage.promptTokens}), 0)::int`,
      completionTokens: sql<number>`coalesce(sum(${llmUsage.completionTokens}), 0)::int`,
    })
    .from(llmUsage)
    .where(and(eq(llmUsage.businessId, businessId), sql`${llmUsage.createdAt} >= ${since}`));
  return row ?? { calls: 0, promptTokens: 0, completionTokens: 0 };
}
