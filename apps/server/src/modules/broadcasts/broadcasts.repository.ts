// The only code that touches `broadcasts`.
import { and, eq, sql } from 'drizzle-orm';
import { broadcasts } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type BroadcastRow = typeof broadcasts.$inferSelect;

export async function insertBroadcast(
  db: Queryable,
  values: {
    businessId: number;
    channel: string;
    listId: number;
    request: Record<string, unknown>;
    total: number;
    createdBy: number | null;
  },
): Promise<BroadcastRow> {
  const [row] = await db
    .insert(broadcasts)
    .values({ ...values, status: 'queued' })
    .returning();
  return row!;
}

export async function findBroadcast(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<BroadcastRow | null> {
  const [row] = await db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.businessId, businessId), eq(broadcasts.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findBroadcastById(db: Queryable, id: string): Promise<BroadcastRow | null> {
  const [row] = await db.select().from(broadcasts).where(eq(broadcasts.id, id)).limit(1);
  return row ?? null;
}

/** Takes an unfinished broadcast for fanning out (a resumed one too); null when it has ended. */
export async function startRunning(db: Queryable, id: string): Promise<BroadcastRow | null> {
  const [row] = await db
    .update(broadcasts)
    .set({ status: 'running', updatedAt: new Date() })
    .where(and(eq(broadcasts.id, id), sql`${broadcasts.status} in ('queued', 'running')`))
    .returning();
  return row ?? null;
}

/**
 * A batch fanned out: the cursor moves past it and its counts are added, in the transaction that
 * recorded its sends. Only while the broadcast runs (a cancelled one stops taking batches).
 */
export async function advance(
  db: Queryable,
  id: string,
  batch: { cursor: number; queued: number; skipped: Record<string, number> },
): Promise<boolean> {
  const skipped = Object.entries(batch.skipped).filter(([, n]) => n > 0);
  let reasons = sql`${broadcasts.skippedReasons}`;
  for (const [reason, n] of skipped)
    reasons = sql`jsonb_set(${reasons}, ${`{${reason}}`}::text[], to_jsonb(coalesce((${reasons} ->> ${reason})::int, 0) + ${n}::int))`;
  const rows = await db
    .update(broadcasts)
    .set({
      cursor: batch.cursor,
      queued: sql`${broadcasts.queued} + ${batch.queued}`,
      skippedReasons: reasons,
      updatedAt: new Date(),
    })
    .where(and(eq(broadcasts.id, id), eq(broadcasts.status, 'running')))
    .returning({ id: broadcasts.id });
  return rows.length === 1;
}

export async function finish(
  db: Queryable,
  id: string,
  status: 'done' | 'failed' | 'cancelled',
  error: string | null = null,
): Promise<BroadcastRow | null> {
  const [row] = await db
    .update(broadcasts)
    .set({ status, error, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(broadcasts.id, id), sql`${broadcasts.status} in ('queued', 'running')`))
    .returning();
  return row ?? null;
}

/** A campaign's broadcast: running from the start, fed customers by the campaign (no list). */
export async function insertCampaignBroadcast(
  db: Queryable,
  values: {
    businessId: number;
    channel: string;
    campaignId: string;
    request: Record<string, unknown>;
    createdBy: number | null;
  },
): Promise<BroadcastRow> {
  const [row] = await db
    .insert(broadcasts)
    .values({ ...values, listId: null, status: 'running' })
    .returning();
  return row!;
}

/** A fed batch counted into the broadcast's total (a list broadcast knows its total up front). */
export async function addToTotal(db: Queryable, id: string, n: number): Promise<void> {
  await db
    .update(broadcasts)
    .set({ total: sql`${broadcasts.total} + ${n}` })
    .where(eq(broadcasts.id, id));
}

/** Broadcasts left unfinished (a stopped fan-out) untouched since `before`: to resume. */
export async function findStalled(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(
      and(
        sql`${broadcasts.status} in ('queued', 'running')`,
        // A campaign's broadcasts are fed by the campaign, which resumes them itself.
        sql`${broadcasts.campaignId} is null`,
        sql`${broadcasts.updatedAt} < ${before.toISOString()}::timestamptz`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}
