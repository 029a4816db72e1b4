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
        where key = ${limit.key}
          and window_start = to_timestamp(floor(extract(epoch from now()) / ${window}) * ${window})`);
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
      const window = limit.windowSeconds;
      const result = await this.db.execute(sql`
        insert into rate_limits as r (key, window_start, count)
        values (${limit.key}, to_timestamp(floor(extract(epoch from now()) / ${window}) * ${window}), 1)
        on conflict (key) do update set
          count = case when r.window_start = excluded.window_start then r.count + 1 else 1 end,
          window_start = excluded.window_start
        returning count, window_start`);
      // Both drivers answer { rows }; the generic PgDatabase type cannot say so.
      const row = (result as unknown as { rows: { count: number; window_start: string | Date }[] }).rows[0]!;
      if (row.count > limit.max) {
        const ends = new Date(row.window_start).getTime() + window * 1000;
        retryAfter = Math.max(retryAfter, Math.ceil((ends - Date.now()) / 1000), 1);
      }
    }
    if (retryAfter > 0) throw tooMany(retryAfter);
  }
}

function tooMany(retryAfter: number): AppError {
  return new AppError('rate_limited', `Too many attempts. Try again in ${retryAfter} seconds.`, null, {
    'retry-after': String(retryAfter),
  });
}
