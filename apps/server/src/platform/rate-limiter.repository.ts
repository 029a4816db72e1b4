// rate_limits: one row per key holding its current fixed window's count (platform-owned table).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

type WindowRow = { count: number; window_start: string | Date };

/** The start of the current fixed window: windows are aligned to the epoch, so instances agree. */
const windowStart = (seconds: number) =>
  sql`to_timestamp(floor(extract(epoch from now()) / ${seconds}) * ${seconds})`;

/** The current window's count for `key`, if it was hit in this window. */
export async function findWindow(db: Db, key: string, windowSeconds: number): Promise<WindowRow | undefined> {
  const result = await db.execute(sql`
    select count, window_start from rate_limits
    where key = ${key} and window_start = ${windowStart(windowSeconds)}`);
  return (result as unknown as { rows: WindowRow[] }).rows[0];
}

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
  const row = (result as unknown as { rows: WindowRow[] }).rows[0]!;
  return { count: row.count, endsAt: new Date(row.window_start).getTime() + windowSeconds * 1000 };
}

/**
 * Forgets windows that started before `olderThan`. Limits use windows of an hour at most, so rows
 * a day old count nothing any more: without this the table keeps a row per client address ever seen.
 */
export async function pruneRateLimits(db: Db, olderThan: Date): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < ${olderThan.toISOString()}::timestamptz`);
}
