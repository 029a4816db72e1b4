// Fixed-window limits counted in PostgreSQL, so every instance enforces the same window.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { AppError } from './errors';

export type Limit = { key: string; max: number; windowSeconds: number };

export class RateLimiter {
  constructor(private readonly db: Db) {}

  /** Throws 429 when a limit is already used up, without counting this attempt. */
  async check(...limits: Limit[]): Promise<void> {
    let retryAfter = 0;
    for (const limit of limits) {
      const window = limit.windowSeconds;
      const result = await this.db.execute(sql`
        select count, window_start from rate_limits
        where key = ${limit.key} and window_start = ${windowStart(window)}`);
      const row = (result as unknown as { rows: { count: number; window_start: string | Date }[] }).rows[0];
      if (row && row.count >= limit.max) {
        const ends = new Date(row.window_start).getTime() + window * 1000;
        retryAfter = Math.max(retryAfter, Math.ceil((ends - Date.now()) / 1000), 1);
      }
    }
    if (retryAfter > 0) throw tooMany(retryAfter);
  }

  /** Counts one hit against each limit; throws 429 (with the longest wait) when any is exceeded. */
  async hit(...limits: Limit[]): Promise<void> {
    let retryAfter = 0;
    for (const limit of limits) {
      const { count, endsAt } = await countHit(this.db, limit.key, limit.windowSeconds);
      if (count > limit.max) retryAfter = Math.max(retryAfter, Math.ceil((endsAt - Date.now()) / 1000), 1);
    }
    if (retryAfter > 0) throw tooMany(retryAfter);
  }
}

/** The start of the current fixed window: windows are aligned to the epoch, so instances agree. */
const windowStart = (seconds: number) =>
  sql`to_timestamp(floor(extract(epoch from now()) / ${seconds}) * ${seconds})`;

/**
 * Counts one hit on `key` in its current fixed window of `windowSeconds`: the hits so far, this
 * one included, and when the window ends (epoch milliseconds).
 */
export async function countHit(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; endsAt: number }> {
  const result = await db.execute(sql`
    insert into rate_limits as r (key, window_start, count)
    values (${key}, ${windowStart(windowSeconds)}, 1)
    on conflict (key) do update set
      count = case when r.window_start = excluded.window_start then r.count + 1 else 1 end,
      window_start = excluded.window_start
    returning count, window_start`);
  // Both drivers answer { rows }; the generic PgDatabase type cannot say so.
  const row = (result as unknown as { rows: { count: number; window_start: string | Date }[] }).rows[0]!;
  return { count: row.count, endsAt: new Date(row.window_start).getTime() + windowSeconds * 1000 };
}

/**
 * Forgets windows that started before `olderThan`. Limits use windows of an hour at most, so rows
 * a day old count nothing any more: without this the table keeps a row per client address ever seen.
 */
export async function pruneRateLimits(db: Db, olderThan: Date): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < ${olderThan.toISOString()}::timestamptz`);
}

type StoreResult = { current: number; ttl: number };
/** What the plugin passes a route's store: its merged limit settings, the route among them. */
type RouteParams = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * A store for @fastify/rate-limit that counts in rate_limits too: its default store counts per
 * process, which multiplies every route's limit by the number of instances. One store per route
 * (the plugin asks each route for its `child`), keyed by the route and the client's key.
 */
export function sharedRateLimitStore(db: Db) {
  return class SharedRateLimitStore {
    private readonly route: string;

    constructor(params?: unknown) {
      const info = (params as RouteParams | undefined)?.routeInfo ?? {};
      this.route = `route:${[info.method ?? ''].flat().join(',')} ${info.url ?? ''}`;
    }

    incr(key: string, done: (error: Error | null, result?: StoreResult) => void, timeWindow: number): void {
      const windowSeconds = Math.max(1, Math.ceil(timeWindow / 1000));
      countHit(db, `${this.route}|${key}`, windowSeconds).then(
        ({ count, endsAt }) => done(null, { current: count, ttl: Math.max(0, endsAt - Date.now()) }),
        (error: Error) => done(error),
      );
    }

    child(params: unknown): SharedRateLimitStore {
      return new SharedRateLimitStore(params);
    }
  };
}

function tooMany(retryAfter: number): AppError {
  return new AppError('rate_limited', `Too many attempts. Try again in ${retryAfter} seconds.`, null, {
    'retry-after': String(retryAfter),
  });
}
