// Small display rules of the event logs.
import type { TEventLog, TEventLogChannel } from '@titan/contracts';

import { EVENT_LOGS_STRINGS } from '../strings';

/** What a logged message was: its template, or its WhatsApp type (text, image…). */
export function logKind(log: Pick<TEventLog, 'type' | 'template_name'>): string {
  return log.template_name ? EVENT_LOGS_STRINGS.logs.template(log.template_name) : log.type;
}

export type TLogColumn = keyof typeof EVENT_LOGS_STRINGS.logs.columns;

/** The list's columns per channel: every channel shares the send's fields, WhatsApp adds its own. */
export const LOG_COLUMNS: Record<TEventLogChannel, readonly TLogColumn[]> = {
  email: ['recipient', 'subject', 'status', 'created'],
  whatsapp: ['recipient', 'type', 'status', 'sentBy', 'created'],
  sms: ['recipient', 'segments', 'status', 'sentBy', 'created'],
};

/** A text's parts and encoding, e.g. "2 (UCS-2)". */
export function segmentsLabel(log: Pick<TEventLog, 'segments' | 'encoding'>): string {
  if (log.segments === null || log.segments === undefined) return EVENT_LOGS_STRINGS.logs.none;
  return log.encoding ? `${log.segments} (${log.encoding})` : String(log.segments);
}
