// Business hours (issue 29): whether a chat group answers at an instant, and when it opens again.
// Pure: the instant is always passed in (tests inject their clock). Wall-clock times are read in the
// group's time zone through Intl, so daylight-saving changes move the openings with the clock.
import { minutesOf, WEEKDAYS, type TBusinessHours, type TGroupAvailability } from '@titan/contracts';

type Local = { year: number; month: number; day: number; minutes: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in the zone at the instant. */
function localOf(at: Date, timeZone: string): Local & { seconds: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    minutes: (parts.hour! % 24) * 60 + parts.minute!,
    seconds: parts.second!,
  };
}

/** The zone's offset from UTC (ms) at the instant. */
function offsetAt(at: Date, timeZone: string): number {
  const l = localOf(at, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, 0, l.minutes, l.seconds);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of a wall-clock time in the zone (a time skipped by a DST change moves forward). */
function instantOf(local: Local, timeZone: string): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, 0, local.minutes);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  const second = wall - offsetAt(new Date(guess), timeZone);
  if (second !== guess) guess = Math.max(guess, second);
  return new Date(guess);
}

/** The calendar day `days` after the local day (calendar arithmetic: zones play no part). */
function addDays(l: Local, days: number): Local & { weekday: number; iso: string } {
  const d = new Date(Date.UTC(l.year, l.month - 1, l.day + days));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    minutes: 0,
    // WEEKDAYS starts on Monday; getUTCDay() on Sunday.
    weekday: (d.getUTCDay() + 6) % 7,
    iso: d.toISOString().slice(0, 10),
  };
}

function rangesOn(hours: TBusinessHours, weekday: number): [number, number][] {
  return hours.weekly
    .filter((r) => r.day === WEEKDAYS[weekday])
    .map((r) => [minutesOf(r.start), minutesOf(r.end)] as [number, number])
    .sort((a, b) => a[0] - b[0]);
}

/** Whether the group answers at the instant (always, without business hours). */
export function isOpenAt(hours: TBusinessHours | null, at: Date): boolean {
  if (!hours) return true;
  const now = localOf(at, hours.time_zone);
  const today = addDays(now, 0);
  if (hours.holidays.includes(today.iso)) return false;
  return rangesOn(hours, today.weekday).some(([start, end]) => start <= now.minutes && now.minutes < end);
}

/** How far ahead an opening is looked for: past that, the group is closed "until further notice". */
const HORIZON_DAYS = 400;

/**
 * When the group next opens after the instant (the instant itself when open); null without
 * business hours or without an opening within the horizon.
 */
export function nextOpening(hours: TBusinessHours | null, at: Date): Date | null {
  if (!hours) return null;
  if (isOpenAt(hours, at)) return at;
  const now = localOf(at, hours.time_zone);
  const holidays = new Set(hours.holidays);
  for (let d = 0; d <= HORIZON_DAYS; d++) {
    const day = addDays(now, d);
    if (holidays.has(day.iso)) continue;
    for (const [start] of rangesOn(hours, day.weekday)) {
      if (d === 0 && start <= now.minutes) continue;
      const opening = instantOf({ ...day, minutes: start }, hours.time_zone);
      if (opening.getTime() > at.getTime()) return opening;
    }
  }
  return null;
}

/** Whether the group answers now, and if not, when it is back and what it says meanwhile. */
export function availabilityAt(
  group: { businessHours: TBusinessHours | null; awayMessage: string },
  at: Date,
): TGroupAvailability {
  if (isOpenAt(group.businessHours, at)) return { open: true, reopens_at: null, away_message: '' };
  return {
    open: false,
    reopens_at: nextOpening(group.businessHours, at)?.toISOString() ?? null,
    away_message: group.awayMessage,
  };
}

/**
 * The closed period the instant falls in, as a key: when the group opens again ('never' when no
 * opening is ahead). Null when the group is open. The away reply goes once per conversation per key.
 */
export function closedPeriodKey(hours: TBusinessHours | null, at: Date): string | null {
  if (isOpenAt(hours, at)) return null;
  return nextOpening(hours, at)?.toISOString() ?? 'never';
}
