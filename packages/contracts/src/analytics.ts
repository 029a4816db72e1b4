// First-party analytics: events the web app and the server record (spec section 8).
import { z } from 'zod';

export const ANALYTICS_EVENTS = [
  'user_signed_up',
  'user_logged_in',
  'user_created_business',
  'user_created_agent',
  'user_deleted_agent',
  'user_created_template',
  'ERROR',
] as const;
export const ZAnalyticsEventName = z.enum(ANALYTICS_EVENTS);
export type TAnalyticsEventName = z.infer<typeof ZAnalyticsEventName>;

/** What a browser may report. Server-side events are recorded directly, not through this call. */
export const ZRecordAnalyticsEventRequest = z.object({
  event: z.literal('ERROR'),
  properties: z
    .object({
      message: z.string().max(2000),
      stack: z.string().max(20_000).optional(),
      url: z.string().max(2000).optional(),
      status: z.number().int().optional(),
    })
    .strict(),
});
export type TRecordAnalyticsEventRequest = z.infer<typeof ZRecordAnalyticsEventRequest>;

export const ZAnalyticsEvent = z.object({
  id: z.number().int(),
  event: ZAnalyticsEventName,
  properties: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type TAnalyticsEvent = z.infer<typeof ZAnalyticsEvent>;
