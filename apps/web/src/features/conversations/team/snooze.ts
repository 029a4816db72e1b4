// Snooze presets in the business's time zone (issue 29): later today (+3 hours), tomorrow 09:00,
// next Monday 09:00; a custom time is read as a wall-clock time in that zone.
import { TZDate } from '@date-fns/tz';
import { addDays, addHours, nextMonday, setHours, startOfHour } from 'date-fns';

export type SnoozePreset = 'later' | 'tomorrow' | 'next_week';

export function snoozePresetTime(preset: SnoozePreset, timeZone: string, now = new Date()): Date {
  const local = new TZDate(now.getTime(), timeZone);
  const nineOn = (day: TZDate) => setHours(startOfHour(day), 9);
  switch (preset) {
    case 'later':
      return new Date(startOfHour(addHours(local, 3)).getTime());
    case 'tomorrow':
      return new Date(nineOn(addDays(local, 1)).setMinutes(0, 0, 0));
    case 'next_week':
      return new Date(nineOn(nextMonday(local)).setMinutes(0, 0, 0));
  }
}

/** A `datetime-local` value (YYYY-MM-DDTHH:mm) read in `timeZone`; null when it is not one. */
export function wallTimeIn(value: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, timeZone).getTime());
}

/** A time as the business reads it: weekday, day, month, hours and minutes in its zone. */
export function formatInZone(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(date);
}
