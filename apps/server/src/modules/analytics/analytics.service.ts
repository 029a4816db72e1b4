// First-party analytics: product events recorded server-side, and errors reported by browsers.
import type { TAnalyticsEvent, TAnalyticsEventName } from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limiter';
import type { OutboundDeps } from '../../platform/safe-fetch';
import type { AnalyticsProviderConfig } from './analytics.provider';
import {
  businessIdByCode,
  deleteEventsBefore,
  insertAnalyticsEvent,
  listAnalyticsEvents,
} from './analytics.repository';

export type AnalyticsDeps = {
  db: Db;
  limiter: RateLimiter;
  config: Pick<Config, 'ANALYTICS_EVENTS_DAILY_MAX'> & AnalyticsProviderConfig;
  /** The outbound guard's settings (the optional provider's web config). */
  external: Pick<OutboundDeps, 'guarded' | 'publicUrl' | 'resolveHost'>;
};

export const ANALYTICS_ERRORS = {
  dailyQuota: 'Too many error reports today. Reports are stored again from midnight UTC.',
} as const;

const DAY_SECONDS = 24 * 60 * 60;

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

/**
 * An event reported by a browser, anyone's: stored only within the day's allowance of the
 * business it names (X-Business-Code), or of all reports naming none, so no number of clients
 * grows the table without bound. Beyond it: 429, not stored.
 */
export async function recordClientEvent(
  deps: AnalyticsDeps,
  input: RecordEventInput & { businessCode?: string | undefined },
): Promise<TAnalyticsEvent> {
  const businessId = input.businessCode ? await businessIdByCode(deps.db, input.businessCode) : null;
  try {
    // Fixed windows aligned to the epoch: a day's window is the UTC day.
    await deps.limiter.hit({
      key: `analytics:day:${businessId ?? 'none'}`,
      max: deps.config.ANALYTICS_EVENTS_DAILY_MAX,
      windowSeconds: DAY_SECONDS,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited')
      throw new AppError('rate_limited', ANALYTICS_ERRORS.dailyQuota, null, err.headers);
    throw err;
  }
  return recordEvent(deps.db, { ...input, businessId });
}

/** One retention batch: events recorded before `cutoff`, oldest first. */
export async function deleteOldEvents(db: Db, cutoff: Date, limit: number): Promise<number> {
  return deleteEventsBefore(db, cutoff, limit);
}
