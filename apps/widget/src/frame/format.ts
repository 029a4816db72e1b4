// Display helpers: message times, list times (spec "Conversations screen"), accent contrast. Times
// and dates are ICU messages of the visitor's catalogue, formatted in their locale.
import type { TTranslator } from './i18n';

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

type T = Pick<TTranslator, 't'>;

export function formatTime(iso: string, { t }: T): string {
  return t('message_time', { time: new Date(iso) });
}

/** Time if today, "Yesterday", month-day this year, otherwise month-day-year. */
export function formatListTime(iso: string | null, tr: T, now = new Date()): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (sameDay(date, now)) return formatTime(iso, tr);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return tr.t('yesterday');
  return tr.t(date.getFullYear() === now.getFullYear() ? 'list_date' : 'list_date_other_year', { date });
}

export const DEFAULT_COLOR = '#111827';

/** The accent colour if it is a #rrggbb colour, and the text colour readable on it. */
export function accentColors(color: string | undefined): { accent: string; onAccent: string } {
  const accent = color && /^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_COLOR;
  const n = parseInt(accent.slice(1), 16);
  const brightness = ((n >> 16) * 299 + ((n >> 8) & 255) * 587 + (n & 255) * 114) / 1000;
  return { accent, onAccent: brightness > 160 ? '#111827' : '#ffffff' };
}
