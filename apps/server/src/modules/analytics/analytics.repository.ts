import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { analyticsEvents } from '../../db/schema';

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
