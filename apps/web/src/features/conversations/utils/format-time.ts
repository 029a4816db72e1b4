// Times as the inbox shows them (spec section 2): a row's last message time is the time today,
// "Yesterday", month-day this year, else month-day-year; messages are grouped under day dividers.
import { format, isSameDay, isSameYear, subDays } from 'date-fns';

import { CONVERSATIONS_STRINGS } from '../strings';

const TIME = 'h:mm a';

function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatLastMessageTime(value: string | null, now: Date = new Date()): string {
  const date = value ? toDate(value) : null;
  if (!date) return '';
  if (isSameDay(date, now)) return format(date, TIME);
  if (isSameDay(date, subDays(now, 1))) return CONVERSATIONS_STRINGS.yesterday;
  if (isSameYear(date, now)) return format(date, 'MMM d');
  return format(date, 'MMM d, yyyy');
}

export function formatMessageTime(value: string): string {
  const date = toDate(value);
  return date ? format(date, TIME) : '';
}

export function formatDayDivider(value: string | Date, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  if (isSameDay(date, now)) return CONVERSATIONS_STRINGS.today;
  if (isSameDay(date, subDays(now, 1))) return CONVERSATIONS_STRINGS.yesterday;
  if (isSameYear(date, now)) return format(date, 'EEEE, MMMM d');
  return format(date, 'MMMM d, yyyy');
}

/** A local-day key, so messages can be grouped by the day they were written. */
export function dayKey(value: string): string {
  const date = toDate(value);
  return date ? format(date, 'yyyy-MM-dd') : value;
}
