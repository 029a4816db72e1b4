// Display helpers: message times, list times (spec "Conversations screen"), accent contrast.

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** Time if today, "Yesterday", month-day this year, otherwise month-day-year. */
export function formatListTime(iso: string | null, now = new Date()): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (sameDay(date, now)) return formatTime(iso);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return 'Yesterday';
  return date.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

export const DEFAULT_COLOR = '#111827';

/** The accent colour if it is a #rrggbb colour, and the text colour readable on it. */
export function accentColors(color: string | undefined): { accent: string; onAccent: string } {
  const accent = color && /^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_COLOR;
  const n = parseInt(accent.slice(1), 16);
  const brightness = ((n >> 16) * 299 + ((n >> 8) & 255) * 587 + (n & 255) * 114) / 1000;
  return { accent, onAccent: brightness > 160 ? '#111827' : '#ffffff' };
}
