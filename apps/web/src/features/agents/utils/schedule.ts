// An agent's schedule as the screen edits it (a few plain choices) and as the API stores it (cron,
// interval or once): the conversion both ways, the schedule in words ("Every Monday at 09:00,
// Europe/Berlin") and its next runs, computed with croner — the library the server uses — in the
// schedule's own time zone, so what the screen lists is what the server will fire.
import type { TAgentSchedule, TAgentScheduleRequest } from '@titan/contracts';
import { Cron } from 'croner';

import { browserTimeZone } from '../../../lib/time-zones';
import { AGENT_STRINGS } from '../strings';

const W = AGENT_STRINGS.schedule.words;

export const SCHEDULE_PRESETS = ['none', 'weekly', 'daily', 'monthly', 'interval', 'once', 'cron'] as const;
export type TSchedulePreset = (typeof SCHEDULE_PRESETS)[number];

/** The schedule part of the agent form. Times are HH:MM; run_at is a local date-time in `timezone`. */
export type TScheduleForm = {
  preset: TSchedulePreset;
  /** 0 = Sunday … 6 = Saturday (cron's numbering). */
  days: number[];
  time: string;
  day_of_month: number;
  every_hours: number;
  run_at: string;
  cron: string;
  timezone: string;
  missed: 'skip' | 'run_once';
  /** Optional window (local date-times in `timezone`; '' = none). */
  start_at: string;
  end_at: string;
};

export function emptyScheduleForm(timezone = browserTimeZone()): TScheduleForm {
  return {
    preset: 'none',
    days: [1],
    time: '09:00',
    day_of_month: 1,
    every_hours: 24,
    run_at: '',
    cron: '0 9 * * 1',
    timezone,
    missed: 'skip',
    start_at: '',
    end_at: '',
  };
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** A cron expression the simple choices can show: "M H * * d[,d]", "M H * * *", "M H D * *". */
type TSimpleCron =
  | { kind: 'weekly'; days: number[]; time: string }
  | { kind: 'daily'; time: string }
  | { kind: 'monthly'; day: number; time: string };

function expandDays(field: string): number[] | null {
  const days = new Set<number>();
  for (const part of field.split(',')) {
    const range = /^([0-7])(?:-([0-7]))?$/.exec(part);
    if (!range) return null;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) return null;
    for (let d = from; d <= to; d += 1) days.add(d % 7);
  }
  return [...days].sort((a, b) => a - b);
}

function readSimpleCron(cron: string): TSimpleCron | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour) || month !== '*') return null;
  const m = Number(minute);
  const h = Number(hour);
  if (m > 59 || h > 23) return null;
  const time = `${pad(h)}:${pad(m)}`;
  if (dom === '*' && dow === '*') return { kind: 'daily', time };
  if (dom === '*') {
    const days = expandDays(dow);
    return days && days.length > 0 ? { kind: 'weekly', days, time } : null;
  }
  if (dow === '*' && /^\d{1,2}$/.test(dom) && Number(dom) >= 1 && Number(dom) <= 31)
    return { kind: 'monthly', day: Number(dom), time };
  return null;
}

/** The form's choices for a stored schedule (a cron the choices cannot show stays a custom cron). */
export function scheduleToForm(
  schedule: TAgentSchedule | null,
  fallbackZone: string = browserTimeZone(),
): TScheduleForm {
  const form = emptyScheduleForm(schedule?.timezone ?? fallbackZone);
  if (!schedule) return form;
  form.missed = schedule.missed;
  if (schedule.start_at) form.start_at = localInZone(schedule.start_at, schedule.timezone);
  if (schedule.end_at) form.end_at = localInZone(schedule.end_at, schedule.timezone);
  if (schedule.kind === 'interval' && schedule.every_minutes) {
    if (schedule.every_minutes % 60 === 0)
      return { ...form, preset: 'interval', every_hours: schedule.every_minutes / 60 };
    return { ...form, preset: 'cron', cron: `*/${schedule.every_minutes} * * * *` };
  }
  if (schedule.kind === 'once' && schedule.run_at)
    return { ...form, preset: 'once', run_at: localInZone(schedule.run_at, schedule.timezone) };
  const cron = schedule.cron ?? '';
  const simple = readSimpleCron(cron);
  if (!simple) return { ...form, preset: 'cron', cron };
  if (simple.kind === 'weekly')
    return { ...form, preset: 'weekly', days: simple.days, time: simple.time, cron };
  if (simple.kind === 'daily') return { ...form, preset: 'daily', time: simple.time, cron };
  return { ...form, preset: 'monthly', day_of_month: simple.day, time: simple.time, cron };
}

function cronAt(time: string, dom: string, dow: string): string {
  const match = TIME.exec(time);
  const [h, m] = match ? [Number(match[1]), Number(match[2])] : [9, 0];
  return `${m} ${h} ${dom} * ${dow}`;
}

/** The parts of a wall-clock time in a zone. */
function partsInZone(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    y: get('year'),
    mo: get('month'),
    d: get('day'),
    h: get('hour') % 24,
    mi: get('minute'),
    s: get('second'),
  };
}

/** "2026-12-01T09:00" (a datetime-local value) for an instant, as the clock in `timeZone` reads. */
export function localInZone(iso: string, timeZone: string): string {
  const p = partsInZone(new Date(iso), timeZone);
  return `${p.y}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}`;
}

/** The instant a wall-clock time in `timeZone` names (the first, when the clock repeats it). */
export function zonedToIso(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  const wanted = Date.UTC(y, mo - 1, d, h, mi);
  let guess = wanted;
  // Two corrections settle any offset, DST changes included.
  for (let i = 0; i < 2; i += 1) {
    const p = partsInZone(new Date(guess), timeZone);
    const shown = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi);
    guess += wanted - shown;
  }
  return new Date(guess).toISOString();
}

/** The schedule request for the form's choices, or null for "no schedule". */
export function formToSchedule(form: TScheduleForm): TAgentScheduleRequest | null {
  const start = form.preset === 'once' ? null : zonedToIso(form.start_at, form.timezone);
  const end = form.preset === 'once' ? null : zonedToIso(form.end_at, form.timezone);
  const base = {
    timezone: form.timezone,
    missed: form.missed,
    ...(start ? { start_at: start } : {}),
    ...(end ? { end_at: end } : {}),
  };
  switch (form.preset) {
    case 'none':
      return null;
    case 'weekly':
      return { ...base, kind: 'cron', cron: cronAt(form.time, '*', [...form.days].sort().join(',') || '*') };
    case 'daily':
      return { ...base, kind: 'cron', cron: cronAt(form.time, '*', '*') };
    case 'monthly':
      return { ...base, kind: 'cron', cron: cronAt(form.time, String(form.day_of_month), '*') };
    case 'interval':
      return { ...base, kind: 'interval', every_minutes: Math.round(form.every_hours * 60) };
    case 'once': {
      const runAt = zonedToIso(form.run_at, form.timezone);
      return runAt ? { ...base, kind: 'once', run_at: runAt } : { ...base, kind: 'once' };
    }
    case 'cron':
      return { ...base, kind: 'cron', cron: form.cron.trim() };
    default: {
      const unreachable: never = form.preset;
      return unreachable;
    }
  }
}

function joinWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function daysInWords(days: number[]): string {
  const key = days.join(',');
  if (key === '1,2,3,4,5') return W.weekdays;
  if (key === '0,6') return W.weekends;
  if (days.length === 7) return W.day;
  return joinWords(days.map((d) => W.dayNames[d] ?? String(d)));
}

function intervalInWords(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? W.everyDay : W.everyNDays(minutes / 1440);
  if (minutes % 60 === 0) return minutes === 60 ? W.everyHour : W.everyNHours(minutes / 60);
  return minutes === 1 ? W.everyMinute : W.everyNMinutes(minutes);
}

/** A date and time as people read them, in the schedule's zone: "Mon, 7 Dec 2026, 09:00". */
export function formatInZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** The schedule in words, its time zone last: "Every Monday at 09:00, Europe/Berlin". */
export function scheduleInWords(schedule: TAgentScheduleRequest | TAgentSchedule | null): string {
  if (!schedule) return W.none;
  const zone = schedule.timezone;
  if (schedule.kind === 'interval' && schedule.every_minutes)
    return `${intervalInWords(schedule.every_minutes)}, ${zone}`;
  if (schedule.kind === 'once')
    return schedule.run_at ? `${W.once(formatInZone(schedule.run_at, zone))}, ${zone}` : W.onceUnset;
  const cron = schedule.cron ?? '';
  const simple = readSimpleCron(cron);
  if (!simple) return `${W.cron(cron)}, ${zone}`;
  if (simple.kind === 'daily') return `${W.everyDayAt(simple.time)}, ${zone}`;
  if (simple.kind === 'monthly') return `${W.monthly(simple.day, simple.time)}, ${zone}`;
  return `${W.weekly(daysInWords(simple.days), simple.time)}, ${zone}`;
}

/**
 * The next `count` runs after `from` (ISO instants), or an error in words when the schedule cannot
 * run. Intervals count from `start_at`, else from `from` (the server counts from when it was saved).
 */
export function nextRuns(
  schedule: TAgentScheduleRequest | null,
  count = 5,
  from: Date = new Date(),
): { runs: string[] } | { error: string } {
  if (!schedule) return { runs: [] };
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: schedule.timezone });
  } catch {
    return { error: AGENT_STRINGS.schedule.badZone };
  }
  if (schedule.kind === 'once') {
    if (!schedule.run_at) return { error: AGENT_STRINGS.schedule.pickTime };
    return Date.parse(schedule.run_at) > from.getTime() ? { runs: [schedule.run_at] } : { runs: [] };
  }
  const end = schedule.end_at ? Date.parse(schedule.end_at) : Infinity;
  const before = (runs: string[]) => ({ runs: runs.filter((r) => Date.parse(r) <= end) });
  if (schedule.kind === 'interval') {
    const every = (schedule.every_minutes ?? 0) * 60_000;
    if (every <= 0) return { error: AGENT_STRINGS.schedule.pickInterval };
    const start = schedule.start_at ? Date.parse(schedule.start_at) : from.getTime();
    const steps = Math.max(0, Math.ceil((from.getTime() - start) / every));
    return before(
      Array.from({ length: count }, (_, i) => new Date(start + (steps + i) * every).toISOString()),
    );
  }
  try {
    const job = new Cron(schedule.cron ?? '', {
      timezone: schedule.timezone,
      paused: true,
      ...(schedule.start_at ? { startAt: schedule.start_at } : {}),
    });
    return before(job.nextRuns(count, from).map((d) => d.toISOString()));
  } catch {
    return { error: AGENT_STRINGS.schedule.badCron };
  }
}
