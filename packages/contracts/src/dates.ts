// Dates in filters, read strictly: YYYY-MM-DD, or an ISO 8601 date-time with its offset (Z or
// ±HH:MM), each part within its calendar. Date.parse is lenient (2025-02-30 becomes March 2, a time
// without an offset takes the server's zone), so it only reads what this check let through. Years
// are kept within 1 to 9999, which PostgreSQL compares as timestamps.
import { z } from 'zod';

export const DATE_MESSAGE = 'Enter a valid date/time.';
export const DATE_RANGE_MESSAGE = 'Enter a date/time between the years 1 and 9999.';

// Years of five or six digits (and signed ones) are read so that they are told the range, not the format.
const ISO_DATE_TIME =
  /^([+-]\d{6}|\d{4,5})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2})))?$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) =>
  m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/** What is wrong with `text` as a filter date: 'format', 'range', or null when it is a good one. */
export function strictDateProblem(text: string): 'format' | 'range' | null {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return 'format';
  const [, y, mo, d, h, mi, s, , oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  if (month < 1 || month > 12 || Number(d) < 1 || Number(d) > daysIn(year, month)) return 'format';
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)) return 'format';
  if (oh !== undefined && (Number(oh) > 23 || Number(om) > 59)) return 'format';
  if (year < 1 || year > 9999) return 'range';
  // An offset can carry the instant past either end (0001-01-01T00:00+01:00).
  const utcYear = new Date(text).getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999 ? null : 'range';
}

/** A filter date as text, checked strictly and kept as given (so a schema reads and writes it alike). */
export const ZStrictDate = z.string().superRefine((v, ctx) => {
  const problem = strictDateProblem(v);
  if (problem)
    ctx.addIssue({ code: 'custom', message: problem === 'range' ? DATE_RANGE_MESSAGE : DATE_MESSAGE });
});

/** A date/time query parameter, answered as a Date (a bare date is that day's start, UTC). */
export const ZDateTimeParam = ZStrictDate.transform((v) => new Date(v));

/** A bare YYYY-MM-DD, as opposed to a date-time. */
export const isBareDate = (v: string) => /^[+-]?\d{4,6}-\d{2}-\d{2}$/.test(v);

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** YYYY-MM-DD of `at` on the wall clock of `timeZone` (an IANA name). */
export function localDate(at: Date, timeZone: string): string {
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  return f.format(at);
}

/** Every date (YYYY-MM-DD) in `timeZone` from the day of `from` to the day of `to`, both included. */
export function localDates(from: Date, to: Date, timeZone: string): string[] {
  const last = localDate(to, timeZone);
  const out: string[] = [];
  for (let t = Date.parse(`${localDate(from, timeZone)}T00:00:00Z`); ; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    if (date > last) break;
    out.push(date);
  }
  return out;
}
