// GET /api/metrics/email-metrics/: what happened to a business's email over a date range — totals,
// rates (human and all) and a daily series — from the send spine (channel email).
import { z } from 'zod';

import { ZDateTimeParam } from './dates';

/** The longest range one answer covers (a daily series of at most this many days). */
export const EMAIL_METRICS_MAX_DAYS = 366;
/** Without `created_at__gte`, the range starts this many days before its end. */
export const EMAIL_METRICS_DEFAULT_DAYS = 30;

export const EMAIL_METRICS_ERRORS = {
  order: 'Must not be before created_at__gte.',
  tooLong: `Choose a range of at most ${EMAIL_METRICS_MAX_DAYS} days.`,
  id: 'Must be a positive whole number.',
} as const;

const ZId = z.coerce
  .number({ message: EMAIL_METRICS_ERRORS.id })
  .int(EMAIL_METRICS_ERRORS.id)
  .positive(EMAIL_METRICS_ERRORS.id);

export const ZEmailMetricsQuery = z
  .object({
    created_at__gte: ZDateTimeParam.optional(),
    created_at__lte: ZDateTimeParam.optional(),
    template_id: ZId.optional(),
    /** An agent's sends (cause `agent`, cause_id the agent's id). */
    agent_id: z.string().trim().min(1).max(100).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.created_at__gte && q.created_at__lte) {
      if (q.created_at__lte < q.created_at__gte) {
        ctx.addIssue({ code: 'custom', path: ['created_at__lte'], message: EMAIL_METRICS_ERRORS.order });
      } else if (
        q.created_at__lte.getTime() - q.created_at__gte.getTime() >
        EMAIL_METRICS_MAX_DAYS * 86_400_000
      ) {
        ctx.addIssue({ code: 'custom', path: ['created_at__gte'], message: EMAIL_METRICS_ERRORS.tooLong });
      }
    }
  });
export type TEmailMetricsQuery = z.infer<typeof ZEmailMetricsQuery>;
export type TEmailMetricsQueryInput = z.input<typeof ZEmailMetricsQuery>;

export const ZEmailMetricsTotals = z.object({
  /** Sends the mail server accepted (bounced and complained included: they were sent). */
  sent: z.number().int(),
  /** Sent and not bounced: with an SMTP relay, acceptance without a bounce is delivery. */
  delivered: z.number().int(),
  /** Sends opened at least once, machine opens included (a click counts as an open). */
  opened: z.number().int(),
  /** Sends opened (or clicked) at least once by a person: machine hits left out. */
  opened_human: z.number().int(),
  clicked: z.number().int(),
  clicked_human: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  /** Sends whose recipient unsubscribed through them. */
  unsubscribed: z.number().int(),
});
export type TEmailMetricsTotals = z.infer<typeof ZEmailMetricsTotals>;

/** Fractions between 0 and 1 (4 decimals); null when the denominator is 0. */
const rate = z.number().min(0).max(1).nullable();
export const ZEmailMetricsRates = z.object({
  /** delivered / sent */
  delivery: rate,
  /** opened / delivered */
  open: rate,
  /** opened_human / delivered */
  open_human: rate,
  /** clicked / delivered */
  click: rate,
  /** clicked_human / delivered */
  click_human: rate,
  /** clicked / opened */
  click_to_open: rate,
  /** clicked_human / opened_human */
  click_to_open_human: rate,
  /** bounced / sent */
  bounce: rate,
  /** complained / delivered */
  complaint: rate,
  /** unsubscribed / delivered */
  unsubscribe: rate,
});
export type TEmailMetricsRates = z.infer<typeof ZEmailMetricsRates>;

/** One UTC day of the range, by the day the sends were created (days without sends are zeros). */
export const ZEmailMetricsDay = z.object({
  date: z.string(),
  sent: z.number().int(),
  delivered: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
});
export type TEmailMetricsDay = z.infer<typeof ZEmailMetricsDay>;

export const ZEmailMetrics = z.object({
  /** The range the figures cover (ISO instants). */
  created_at__gte: z.string(),
  created_at__lte: z.string(),
  totals: ZEmailMetricsTotals,
  rates: ZEmailMetricsRates,
  series: z.array(ZEmailMetricsDay),
});
export type TEmailMetrics = z.infer<typeof ZEmailMetrics>;
