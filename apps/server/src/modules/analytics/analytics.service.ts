// First-party analytics: product events recorded server-side, and errors reported by browsers.
import type { TAnalyticsEvent, TAnalyticsEventName } from '@titan/contracts';
import type { Db } from '../../db/client';
import { insertAnalyticsEvent, listAnalyticsEvents } from './analytics.repository';

export type RecordEventInput = {
  event: TAnalyticsEventName;
  properties?: Record<string, unknown>;
  userId?: number | null;
  businessId?: number | null;
  requestId?: string | null;
};

export async function recordEvent(db: Db, input: RecordEventInput): Promise<TAnalyticsEvent> {
  const row = await insertAnalyticsEvent(db, {
    event: input.event,
    properties: input.properties ?? {},
    userId: input.userId ?? null,
    businessId: input.businessId ?? null,
    requestId: input.requestId ?? null,
  });
  return toAnalyticsEvent(row);
}

export async function findRecentEvents(
  db: Db,
  event: TAnalyticsEventName,
  limit = 50,
): Promise<TAnalyticsEvent[]> {
  return (await listAnalyticsEvents(db, event, limit)).map(toAnalyticsEvent);
}

function toAnalyticsEvent(row: Awaited<ReturnType<typeof insertAnalyticsEvent>>): TAnalyticsEvent {
  return {
    id: row.id,
    event: row.event as TAnalyticsEventName,
    properties: row.properties,
    created_at: row.createdAt.toISOString(),
  };
}
