// A segment's conditions in words, one line each ("Last seen before 1 Sep 2026").
import type { TSegmentFilter } from '@titan/contracts';

import { formatDate } from '../../../lib/format';

const CONSENT: Record<string, string> = {
  subscribed: 'subscribed',
  unsubscribed: 'unsubscribed',
  unknown: 'not asked yet',
  bounced: 'bounced',
  complained: 'complained',
};

export function segmentInWords(segment: TSegmentFilter): string[] {
  const lines: string[] = [];
  if (segment.search) lines.push(`Name, email or phone contains “${segment.search}”`);
  if (segment.has_email !== undefined)
    lines.push(segment.has_email ? 'Has an email address' : 'Has no email address');
  if (segment.has_phone !== undefined)
    lines.push(segment.has_phone ? 'Has a phone number' : 'Has no phone number');
  if (segment.channel) lines.push(`Has talked to you on ${segment.channel}`);
  if (segment.created_at__gte) lines.push(`Added on or after ${formatDate(segment.created_at__gte)}`);
  if (segment.created_at__lte) lines.push(`Added on or before ${formatDate(segment.created_at__lte)}`);
  if (segment.last_seen_at__gte) lines.push(`Last seen on or after ${formatDate(segment.last_seen_at__gte)}`);
  if (segment.last_seen_at__lte)
    lines.push(`Last seen on or before ${formatDate(segment.last_seen_at__lte)}`);
  for (const channel of ['email', 'sms', 'whatsapp'] as const) {
    const status = segment[`${channel}_status`];
    if (status)
      lines.push(
        `${channel === 'email' ? 'Email' : channel === 'sms' ? 'SMS' : 'WhatsApp'}: ${CONSENT[status] ?? status}`,
      );
  }
  for (const [key, value] of Object.entries(segment.fields ?? {})) lines.push(`${key} is ${String(value)}`);
  return lines;
}
