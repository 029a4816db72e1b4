// When each recipient of a campaign is due: at once, at a time read in the business's zone, or at
// a wall time on each recipient's own clock (their stored zone, else their phone's country, else
// the business's). Quiet hours (SMS, WhatsApp) move a due time to their end. Pure functions of a
// clock the caller passes, so tests control time.
import { TZDate } from '@date-fns/tz';
import { getCountry } from 'countries-and-timezones';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { CAMPAIGN_ERRORS, CAMPAIGN_QUIET_HOURS, type TCampaignSchedule } from '@titan/contracts';
import { AppError } from '../../platform/errors';

const zoneOk = new Map<string, boolean>();
function isZone(tz: string): boolean {
  let ok = zoneOk.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    if (zoneOk.size < 2000) zoneOk.set(tz, ok);
  }
  return ok;
}

const countryZone = new Map<string, string | null>();
/** The time zone of the phone's country (its most populous zone when it has several). */
function zoneOfPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const country = parsePhoneNumberFromString(phone)?.country;
  if (!country) return null;
  let zone = countryZone.get(country);
  if (zone === undefined) {
    zone = getCountry(country)?.timezones[0] ?? null;
    countryZone.set(country, zone);
  }
  return zone;
}

/** A customer's zone: stored (fields.timezone / time_zone / tz), else their phone's country, else the business's. */
export function recipientZone(
  customer: { fields: Record<string, unknown> | null; phone: string | null },
  businessZone: string,
): string {
  for (const key of ['timezone', 'time_zone', 'tz']) {
    const v = customer.fields?.[key];
    if (typeof v === 'string' && v && isZone(v)) return v;
  }
  return zoneOfPhone(customer.phone) ?? businessZone;
}

/** The wall clock (y, m, d) in `tz` at `at`. */
function dayIn(at: Date, tz: string): { y: number; m: number; d: number } {
  const t = new TZDate(at.getTime(), tz);
  return { y: t.getFullYear(), m: t.getMonth(), d: t.getDate() };
}

/** The instant whose wall clock in `tz` reads y-m-d hh:mm. */
function instantIn(tz: string, y: number, m: number, d: number, hh: number, mm: number): Date {
  return new Date(new TZDate(y, m, d, hh, mm, 0, 0, tz).getTime());
}

const hm = (s: string) => s.split(':').map(Number) as [number, number];

/**
 * `at` as an instant: with an offset (or Z) as written; without one, a wall time in the business's
 * zone. 400 on `schedule.at` when it is not a time.
 */
export function parseAt(at: string, businessZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(at);
  if (m) {
    const [, y, mo, d, hh = '0', mm = '0'] = m;
    return instantIn(businessZone, Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mm));
  }
  const t = new Date(at);
  if (Number.isNaN(t.getTime())) throw AppError.fields({ 'schedule.at': [CAMPAIGN_ERRORS.atRequired] });
  return t;
}

/** The schedule checked: 400 with the field when it lacks what its mode needs or lies in the past. */
export function checkSchedule(schedule: TCampaignSchedule, businessZone: string, now: Date): void {
  if (schedule.mode === 'at') {
    if (!schedule.at) throw AppError.fields({ 'schedule.at': [CAMPAIGN_ERRORS.atRequired] });
    if (parseAt(schedule.at, businessZone).getTime() < now.getTime() - 60_000)
      throw AppError.fields({ 'schedule.at': [CAMPAIGN_ERRORS.inThePast] });
  }
  if (schedule.mode === 'local' && !schedule.local_time)
    throw AppError.fields({ 'schedule.local_time': [CAMPAIGN_ERRORS.localTimeRequired] });
}

/** When the campaign starts at all (the first moment anyone may be due). */
export function startOf(schedule: TCampaignSchedule, businessZone: string, now: Date): Date {
  if (schedule.mode === 'at' && schedule.at) return parseAt(schedule.at, businessZone);
  return now;
}

/**
 * When one recipient is due. `local`: `local_time` on the recipient's clock on the day of `at`
 * (read in the business's zone; today when absent); a time already past there sends at once.
 */
export function dueFor(schedule: TCampaignSchedule, zone: string, businessZone: string, start: Date): Date {
  if (schedule.mode !== 'local' || !schedule.local_time) return start;
  const day = dayIn(schedule.at ? parseAt(schedule.at, businessZone) : start, businessZone);
  const [hh, mm] = hm(schedule.local_time);
  const due = instantIn(zone, day.y, day.m, day.d, hh, mm);
  return due.getTime() < start.getTime() ? start : due;
}

/** Whether HH:MM falls in [start, end), the span crossing midnight when end < start. */
function inSpan(time: string, start: string, end: string): boolean {
  return start < end ? time >= start && time < end : time >= start || time < end;
}

/** A due time for a text: moved to the end of quiet hours on the recipient's clock when it falls in them. */
export function outOfQuietHours(due: Date, zone: string): Date {
  const t = new TZDate(due.getTime(), zone);
  const time = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
  const { start, end } = CAMPAIGN_QUIET_HOURS;
  if (!inSpan(time, start, end)) return due;
  const [eh, em] = hm(end);
  const today = instantIn(zone, t.getFullYear(), t.getMonth(), t.getDate(), eh, em);
  if (today.getTime() > due.getTime()) return today;
  return instantIn(zone, t.getFullYear(), t.getMonth(), t.getDate() + 1, eh, em);
}
