// The email event logs (GET /api/email/events/, /{trackingId}/, /download/): the shared log shape
// with email's statuses, the subject and sender, and for one email the rendered message and a
// timeline whose opens and clicks say whether a person or a machine made them.
import { z } from 'zod';

import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { ZDateTimeParam } from './dates';
import { ZSendOutcomeFilter } from './engage-metrics';
import { ZWhatsappLog, ZWhatsappLogEvent } from './whatsapp';

/** Email's status order (queued < sending < sent < delivered < opened < clicked), then finals. */
export const EMAIL_LOG_STATUSES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'opened',
  'clicked',
  'failed',
  'error',
  'bounced',
  'complained',
  'suppressed',
  'cancelled',
] as const;
export type TEmailLogStatus = (typeof EMAIL_LOG_STATUSES)[number];

export const ZEmailLogFilter = z.object({
  status: z.enum(EMAIL_LOG_STATUSES, { message: `Choose ${EMAIL_LOG_STATUSES.join(', ')}.` }).optional(),
  /** What the sends count as on the dashboard (SEND_OUTCOME_STATUSES): the same rows as its figures. */
  outcome: ZSendOutcomeFilter,
  /** Matches the recipient, the subject, the template name or the Message-ID. */
  search: z.string().trim().max(100).optional(),
  template_id: z.coerce.number({ message: 'Must be a whole number.' }).int().positive().optional(),
  /** The sends of one agent's runs (cause `agent`). */
  agent_id: z.coerce.number({ message: 'Must be a whole number.' }).int().positive().optional(),
  created_at__gte: ZDateTimeParam.optional(),
  created_at__lte: ZDateTimeParam.optional(),
});
export type TEmailLogFilter = z.infer<typeof ZEmailLogFilter>;

export const ZEmailLogListQuery = ZEmailLogFilter.extend({
  page: z.coerce.number({ message: 'Must be a whole number.' }).int().min(1).default(1),
  page_size: z.coerce
    .number({ message: 'Must be a whole number.' })
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT),
});
export type TEmailLogListQuery = z.infer<typeof ZEmailLogListQuery>;

export const ZEmailLog = ZWhatsappLog.extend({
  status: z.enum(EMAIL_LOG_STATUSES),
  subject: z.string().nullable(),
});
export type TEmailLog = z.infer<typeof ZEmailLog>;

export const ZEmailLogEvent = ZWhatsappLogEvent.extend({
  /** A click's destination. */
  url: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** Opens and clicks: true for privacy proxies, link scanners, HEAD probes, too-fast clicks. */
  machine: z.boolean().nullable(),
  /** Why a hit counts as a machine's (`google_image_proxy`, `head_request`, `too_fast`, …). */
  reason: z.string().nullable(),
});
export type TEmailLogEvent = z.infer<typeof ZEmailLogEvent>;

/** The message as it was handed to the mail server (what the recipient got). */
export const ZEmailMessage = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  subject: z.string().nullable(),
  html: z.string().nullable(),
  text: z.string().nullable(),
});
export type TEmailMessage = z.infer<typeof ZEmailMessage>;

export const ZEmailLogDetail = ZEmailLog.extend({
  request: z.record(z.string(), z.unknown()),
  response: z.record(z.string(), z.unknown()).nullable(),
  message: ZEmailMessage,
  /** Oldest first: queued, sent, delivered, opens and clicks as they came, a bounce with its reason. */
  events: z.array(ZEmailLogEvent),
});
export type TEmailLogDetail = z.infer<typeof ZEmailLogDetail>;
