// The event logs of the sending channels (GET /api/{channel}/events/, /{trackingId}/, /download/):
// every channel answers the WhatsApp log's shape and takes its filters; an email also has a subject.
import { z } from 'zod';

import { ZWhatsappLog, ZWhatsappLogDetail } from './whatsapp';

export const EVENT_LOG_CHANNELS = ['email', 'whatsapp', 'sms'] as const;
export type TEventLogChannel = (typeof EVENT_LOG_CHANNELS)[number];

const subject = { subject: z.string().nullable().optional() };

export const ZEventLog = ZWhatsappLog.extend(subject);
export type TEventLog = z.infer<typeof ZEventLog>;

export const ZEventLogDetail = ZWhatsappLogDetail.extend(subject);
export type TEventLogDetail = z.infer<typeof ZEventLogDetail>;
