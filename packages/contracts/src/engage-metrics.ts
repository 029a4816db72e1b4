// GET /api/metrics/engage/: the /engage dashboard (engage.md §7) — conversations opened, unanswered
// and the median first response; sends per channel and their outcomes; agents' deliveries and
// runs — over a date range with a daily series. Email open and click rates come from
// GET /api/metrics/email-metrics/ over the same range.
import { z } from 'zod';

import { ZDateTimeParam } from './dates';
import { EMAIL_METRICS_MAX_DAYS, EMAIL_METRICS_ERRORS } from './email-metrics';

export const ZEngageMetricsQuery = z
  .object({
    created_at__gte: ZDateTimeParam.optional(),
    created_at__lte: ZDateTimeParam.optional(),
  })
  .superRefine((q, ctx) => {
    if (!q.created_at__gte || !q.created_at__lte) return;
    if (q.created_at__lte < q.created_at__gte) {
      ctx.addIssue({ code: 'custom', path: ['created_at__lte'], message: EMAIL_METRICS_ERRORS.order });
    } else if (
      q.created_at__lte.getTime() - q.created_at__gte.getTime() >
      EMAIL_METRICS_MAX_DAYS * 86_400_000
    ) {
      ctx.addIssue({ code: 'custom', path: ['created_at__gte'], message: EMAIL_METRICS_ERRORS.tooLong });
    }
  });
export type TEngageMetricsQueryInput = z.input<typeof ZEngageMetricsQuery>;

export const SEND_CHANNELS = ['email', 'sms', 'whatsapp', 'titan_message'] as const;

/** What became of sends: waiting, handed over, delivered (or read, opened, clicked), failed, not sent. */
export const ZSendOutcomes = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  not_sent: z.number().int(),
});
export type TSendOutcomes = z.infer<typeof ZSendOutcomes>;

export type TSendOutcome = Exclude<keyof TSendOutcomes, 'total'>;
export const SEND_OUTCOMES = ['pending', 'sent', 'delivered', 'failed', 'not_sent'] as const;

/**
 * The one definition of what each send status counts as, shared by the dashboard, the event logs'
 * `outcome` filter and the email metrics. Email goes through an SMTP relay that reports no
 * delivery: a mail the server accepted and that did not bounce is delivered (so is one opened,
 * clicked or complained about: it arrived). Other channels are delivered on the provider's receipt.
 */
export const SEND_OUTCOME_STATUSES: Record<
  (typeof SEND_CHANNELS)[number],
  Record<TSendOutcome, readonly string[]>
> = {
  email: {
    pending: ['queued', 'sending'],
    sent: [],
    delivered: ['sent', 'delivered', 'opened', 'clicked', 'complained'],
    failed: ['failed', 'bounced'],
    not_sent: ['suppressed', 'cancelled'],
  },
  sms: {
    pending: ['queued', 'sending'],
    sent: ['accepted', 'sent'],
    delivered: ['delivered'],
    failed: ['failed', 'undelivered', 'bounced', 'complained'],
    not_sent: ['suppressed', 'cancelled'],
  },
  whatsapp: {
    pending: ['queued', 'sending'],
    sent: ['accepted', 'sent'],
    delivered: ['delivered', 'read'],
    failed: ['failed', 'bounced', 'complained'],
    not_sent: ['suppressed', 'cancelled'],
  },
  titan_message: {
    pending: ['queued', 'sending'],
    sent: ['sent'],
    delivered: ['delivered', 'read'],
    failed: ['failed', 'bounced', 'complained'],
    not_sent: ['suppressed', 'cancelled'],
  },
};

/** What a send of `channel` at `status` counts as (an unknown status: handed over, `sent`). */
export function sendOutcome(channel: (typeof SEND_CHANNELS)[number], status: string): TSendOutcome {
  const table = SEND_OUTCOME_STATUSES[channel];
  for (const outcome of SEND_OUTCOMES) if (table[outcome].includes(status)) return outcome;
  return 'sent';
}

export const ZSendOutcomeFilter = z
  .enum(SEND_OUTCOMES, { message: `Choose ${SEND_OUTCOMES.join(', ')}.` })
  .optional();

/** One member's or group's service levels (GET /api/metrics/engage/ `team`). */
export const ZServiceLevelRow = z.object({
  conversations: z.number().int(),
  first_response_seconds: z.number().int().nullable(),
  resolution_seconds: z.number().int().nullable(),
  csat_average: z.number().nullable(),
  csat_responses: z.number().int(),
});
export type TServiceLevelRow = z.infer<typeof ZServiceLevelRow>;

export const ZEngageMetrics = z.object({
  created_at__gte: z.string(),
  created_at__lte: z.string(),
  conversations: z.object({
    opened: z.number().int(),
    unanswered: z.number().int(),
    answered: z.number().int(),
    /** Seconds from a conversation's start to its first staff or agent reply; null: none answered. */
    median_first_response_seconds: z.number().int().nullable(),
  }),
  sends: z.object({
    channels: z.array(ZSendOutcomes.extend({ channel: z.enum(SEND_CHANNELS) })),
  }),
  agents: z.object({
    /** Agents' sends (cause `agent`): their deliveries once queued. */
    deliveries: ZSendOutcomes,
    /** Agent runs started in the range (previews aside): how many, and how they stand. */
    runs: z.object({
      total: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      awaiting_approval: z.number().int(),
    }),
  }),
  /**
   * The team's service levels over conversations opened (or reopened) in the range: average first
   * response and resolution (seconds; null: none yet) and CSAT (average rating 1–5 of the surveys
   * answered, and how many), per member who held them and per chat group.
   */
  team: z.object({
    members: z.array(ZServiceLevelRow.extend({ user_id: z.number().int(), name: z.string() })),
    groups: z.array(ZServiceLevelRow.extend({ chat_group_id: z.number().int(), name: z.string() })),
  }),
  series: z.array(
    z.object({
      date: z.string(),
      conversations_opened: z.number().int(),
      conversations_unanswered: z.number().int(),
      email: z.number().int(),
      sms: z.number().int(),
      whatsapp: z.number().int(),
      titan_message: z.number().int(),
    }),
  ),
});
export type TEngageMetrics = z.infer<typeof ZEngageMetrics>;
