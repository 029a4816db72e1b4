import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { analyticsEvents, businesses } from '../../db/schema';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

export async function insertAnalyticsEvent(db: Db, event: NewAnalyticsEvent) {
  const [row] = await db.insert(analyticsEvents).values(event).returning();
  return row!;
}

export async function listAnalyticsEvents(db: Db, event: string, limit: number) {
  return db
    .select()
    .from(analyticsEvents)
    .where(eq(analyticsEvents.event, event))
    .orderBy(desc(analyticsEvents.id))
    .limit(limit);
}

/** Deletes up to `limit` events recorded before `cutoff`, oldest first; answers how many. */
export async function deleteEventsBefore(db: Db, cutoff: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    with doomed as (
      select id from analytics_events
      where created_at < ${cutoff.toISOString()}::timestamptz
      order by created_at, id
      limit ${limit}
      for update skip locked
    )
    delete from analytics_events where id = any(array(select id from doomed))
    returning id`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

/**
 * The id of the business with this public code, or null: a read of the businesses table (never
 * written here) — the business module records its own analytics events, so it cannot be imported back.
 */
export async function businessIdByCode(db: Db, code: string): Promise<number | null> {
  const [row] = await db
    .select({ id: businesses.id })
    .from(businesses)
    .where(eq(businesses.uniqueCode, code))
    .limit(1);
  return row?.id ?? null;
}
