// Whole days in the business's time zone as instants for the API's created_at__gte/__lte: the
// dashboard's "last 30 days", a custom range and the logs' From/To all count the same days the
// server buckets its series by (the business's zone), whatever zone the browser is in. Days are
// built from calendar parts with @date-fns/tz, so a day that gains or loses an hour (DST) is whole.
import { TZDate } from '@date-fns/tz';

export type TDayRange = { created_at__gte: string; created_at__lte: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(value: string): [number, number, number] | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Reject dates that roll over (2026-02-30).
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  return [y, m - 1, d];
}

/** The first millisecond of a day (YYYY-MM-DD) in `timeZone`, or null when it is not a date. */
export function dayStart(value: string, timeZone: string): Date | null {
  const p = parts(value);
  return p ? new Date(new TZDate(p[0], p[1], p[2], timeZone).getTime()) : null;
}

/** The last millisecond of a day (YYYY-MM-DD) in `timeZone`, or null when it is not a date. */
export function dayEnd(value: string, timeZone: string): Date | null {
  const p = parts(value);
  return p ? new Date(new TZDate(p[0], p[1], p[2] + 1, timeZone).getTime() - 1) : null;
}

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const here = new TZDate(now.getTime(), timeZone);
  return formatDay(here.getFullYear(), here.getMonth(), here.getDate());
}

function formatDay(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The date (YYYY-MM-DD) `days` days before `value`. */
export function daysBefore(value: string, days: number): string {
  const p = parts(value)!;
  const date = new Date(Date.UTC(p[0], p[1], p[2] - days));
  return formatDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** Whole days from `from` to `to` inclusive in `timeZone`, or null when they make no range. */
export function dayRange(from: string, to: string, timeZone: string): TDayRange | null {
  const start = dayStart(from, timeZone);
  const end = dayEnd(to, timeZone);
  if (!start || !end || end < start) return null;
  return { created_at__gte: start.toISOString(), created_at__lte: end.toISOString() };
}

/** The last `days` whole days up to the end of today in `timeZone` (stable within a day). */
export function lastDays(days: number, timeZone: string, now: Date = new Date()): TDayRange {
  const today = todayIn(timeZone, now);
  return dayRange(daysBefore(today, days - 1), today, timeZone)!;
}
