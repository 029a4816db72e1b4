// The event logs of the sending channels (GET /api/{channel}/events/, /{trackingId}/, /download/):
// every channel answers the WhatsApp log's shape and takes its filters; an email also has a subject,
// its own statuses (opened, clicked, bounced…), its rendered message and human/machine hits.
import { z } from 'zod';

import { EMAIL_LOG_STATUSES, ZEmailMessage } from './email-logs';
import { WHATSAPP_LOG_STATUSES, ZWhatsappLog, ZWhatsappLogDetail, ZWhatsappLogEvent } from './whatsapp';

export const EVENT_LOG_CHANNELS = ['email', 'whatsapp', 'sms'] as const;
export type TEventLogChannel = (typeof EVENT_LOG_CHANNELS)[number];

/** Every status any channel's log answers. */
export const EVENT_LOG_STATUSES = [...new Set([...WHATSAPP_LOG_STATUSES, ...EMAIL_LOG_STATUSES])] as [
  (typeof WHATSAPP_LOG_STATUSES)[number] | (typeof EMAIL_LOG_STATUSES)[number],
  ...((typeof WHATSAPP_LOG_STATUSES)[number] | (typeof EMAIL_LOG_STATUSES)[number])[],
];
export type TEventLogStatus = (typeof EVENT_LOG_STATUSES)[number];

const shared = {
  subject: z.string().nullable().optional(),
  status: z.enum(EVENT_LOG_STATUSES),
};

export const ZEventLog = ZWhatsappLog.extend(shared);
export type TEventLog = z.infer<typeof ZEventLog>;

export const ZEventLogEvent = ZWhatsappLogEvent.extend({
  url: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
  machine: z.boolean().nullable().optional(),
  reason: z.string().nullable().optional(),
});
export type TEventLogEvent = z.infer<typeof ZEventLogEvent>;

export const ZEventLogDetail = ZWhatsappLogDetail.extend({
  ...shared,
  events: z.array(ZEventLogEvent),
  /** Email only: the message as sent. */
  message: ZEmailMessage.optional(),
});
export type TEventLogDetail = z.infer<typeof ZEventLogDetail>;
