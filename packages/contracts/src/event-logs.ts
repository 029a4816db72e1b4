// The event logs of the sending channels (GET /api/{channel}/events/, /{trackingId}/, /download/):
// every channel answers the WhatsApp log's shape and takes its filters; an email also has a subject,
// its own statuses (opened, clicked, bounced…), its rendered message and human/machine hits.
import { z } from 'zod';

import { EMAIL_LOG_STATUSES, ZEmailMessage } from './email-logs';
import { SMS_LOG_STATUSES, ZSmsMessage } from './sms';
import { WHATSAPP_LOG_STATUSES, ZWhatsappLog, ZWhatsappLogDetail, ZWhatsappLogEvent } from './whatsapp';

export const EVENT_LOG_CHANNELS = ['email', 'whatsapp', 'sms'] as const;
export type TEventLogChannel = (typeof EVENT_LOG_CHANNELS)[number];

/** Every status any channel's log answers. */
type TAnyLogStatus =
  | (typeof WHATSAPP_LOG_STATUSES)[number]
  | (typeof EMAIL_LOG_STATUSES)[number]
  | (typeof SMS_LOG_STATUSES)[number];
export const EVENT_LOG_STATUSES = [
  ...new Set([...WHATSAPP_LOG_STATUSES, ...EMAIL_LOG_STATUSES, ...SMS_LOG_STATUSES]),
] as [TAnyLogStatus, ...TAnyLogStatus[]];
export type TEventLogStatus = (typeof EVENT_LOG_STATUSES)[number];

const shared = {
  subject: z.string().nullable().optional(),
  status: z.enum(EVENT_LOG_STATUSES),
  /** SMS only: parts, encoding and what Twilio charged. */
  segments: z.number().int().nullable().optional(),
  encoding: z.string().nullable().optional(),
  price: z.string().nullable().optional(),
  price_unit: z.string().nullable().optional(),
};

export const ZEventLog = ZWhatsappLog.extend(shared);
export type TEventLog = z.infer<typeof ZEventLog>;

export const ZEventLogEvent = ZWhatsappLogEvent.extend({
  url: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
  machine: z.boolean().nullable().optional(),
  reason: z.string().nullable().optional(),
  /** SMS only: Twilio's own status word. */
  provider_status: z.string().nullable().optional(),
});
export type TEventLogEvent = z.infer<typeof ZEventLogEvent>;

export const ZEventLogDetail = ZWhatsappLogDetail.extend({
  ...shared,
  events: z.array(ZEventLogEvent),
  /** Email only: the message as sent. */
  message: ZEmailMessage.optional(),
  /** SMS only: the text as sent, with its segments. */
  sms: ZSmsMessage.optional(),
});
export type TEventLogDetail = z.infer<typeof ZEventLogDetail>;
