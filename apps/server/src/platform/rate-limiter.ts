// Fixed-window limits counted in PostgreSQL, so every instance enforces the same window.
import type { Db } from '../db/client';
import { AppError } from './errors';
import { countHit, findWindow } from './rate-limiter.repository';

export { countHit, pruneRateLimits } from './rate-limiter.repository';

export type Limit = { key: string; max: number; windowSeconds: number };

export class RateLimiter {
  constructor(private readonly db: Db) {}

  /** Throws 429 when a limit is already used up, without counting this attempt. */
  async check(...limits: Limit[]): Promise<void> {
    let retryAfter = 0;
    for (const limit of limits) {
      const window = limit.windowSeconds;
      const row = await findWindow(this.db, limit.key, window);
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
