// Campaigns (issue 31, next-api.md "Campaigns and consent"): a broadcast a marketer composes,
// schedules, tests and measures — an audience of lists and segments with exclusions, content on
// one channel (email, SMS, a WhatsApp template), a schedule (now, at a time, at each recipient's
// local time), a throttle, and optionally an A/B test of up to four variants.
import { z } from 'zod';
import { ZPageQuery } from './conversations';

export const CAMPAIGN_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type TCampaignChannel = (typeof CAMPAIGN_CHANNELS)[number];
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled'] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_SCHEDULE_MODES = ['now', 'at', 'local'] as const;
export const CAMPAIGN_AB_METRICS = ['opens', 'clicks'] as const;
export const CAMPAIGN_MAX_VARIANTS = 4;
export const CAMPAIGN_MAX_TEST_ADDRESSES = 10;
/** SMS and WhatsApp campaigns wait out these hours in the recipient's zone. */
export const CAMPAIGN_QUIET_HOURS = { start: '21:00', end: '08:00' } as const;

export const CAMPAIGN_ERRORS = {
  notFound: 'No such campaign.',
  notDraft: 'Only a draft can be changed; pause or cancel the campaign first.',
  notSchedulable: 'Only a draft can be scheduled.',
  notPausable: 'Only a scheduled or sending campaign can be paused.',
  notResumable: 'Only a paused campaign can be resumed.',
  notCancellable: 'This campaign has already ended.',
  notDeletable: 'A campaign that has started sending cannot be deleted; cancel it instead.',
  noContent: 'Give the campaign its content: a template, or a subject with HTML, or a text body.',
  channelContent: (channel: string) => `This content does not fit a ${channel} campaign.`,
  noAudience: 'Choose at least one list or segment.',
  emptyAudience: 'The audience is empty: nobody would receive this campaign.',
  listNotFound: 'No such list or segment.',
  topicNotFound: 'No such topic.',
  atRequired: 'Choose when to send.',
  localTimeRequired: 'Choose the local time (HH:MM) to send at.',
  localTime: 'A local time is HH:MM (00:00–23:59).',
  inThePast: 'That time has passed.',
  noSender: 'Choose a sender, or set a default sender on a verified domain in Settings → Email domains.',
  noUnsubscribe: 'The content has no unsubscribe link; Titan adds one to the footer of every campaign mail.',
  variantCount: `An A/B test has 2 to ${CAMPAIGN_MAX_VARIANTS} variants.`,
  testShare: 'The test share is a fraction between 0 and 1 (0.5 = half the audience).',
  wait: 'Wait at least 1 minute before picking the winner.',
} as const;

const ZLocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, CAMPAIGN_ERRORS.localTime);

export const ZCampaignAudience = z.strictObject({
  list_ids: z.array(z.number().int().positive()).max(50).default([]),
  segment_ids: z.array(z.number().int().positive()).max(50).default([]),
  exclude_list_ids: z.array(z.number().int().positive()).max(50).default([]),
  /** A consent topic (the preference centre); null until topics exist for the business. */
  topic_id: z.number().int().positive().nullable().optional(),
});
export type TCampaignAudience = z.infer<typeof ZCampaignAudience>;

/** The media a WhatsApp template's header may carry in a campaign (a location header cannot be sent). */
export const WHATSAPP_HEADER_MEDIA_TYPES = ['image', 'video', 'document'] as const;

export const ZWhatsappTemplateContent = z.strictObject({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(1).max(15),
  /** Template variable (by its number or name) → a customer field (`customer.name`, `fields.plan`) or fixed text. */
  variables: z.record(z.string(), z.string().max(1000)).default({}),
  /**
   * The file of an image, video or document header, sent to every recipient: a public http(s)
   * link, or the id `POST /api/whatsapp/media/` answered for an upload (Meta keeps uploads 30 days).
   */
  header_media: z
    .strictObject({
      type: z.enum(WHATSAPP_HEADER_MEDIA_TYPES),
      link: z
        .url({ protocol: /^https?$/, message: 'Enter an http(s) link.' })
        .max(2000)
        .optional(),
      id: z.string().trim().min(1).max(200).optional(),
      /** Documents: the file name the recipient sees. */
      filename: z.string().trim().max(240).optional(),
    })
    .refine((m) => Boolean(m.id) !== Boolean(m.link), {
      message: 'Give either a link or an uploaded file.',
      path: ['link'],
    })
    .refine((m) => m.type === 'document' || m.filename === undefined, {
      message: 'Only a document has a file name.',
      path: ['filename'],
    })
    .nullable()
    .optional(),
});
export type TWhatsappTemplateContent = z.infer<typeof ZWhatsappTemplateContent>;

/** The content: a template (with per-campaign variables), mail written in place, a text body, or a WhatsApp template. */
export const ZCampaignContent = z.strictObject({
  template_id: z.number().int().positive().optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  subject: z.string().trim().max(998).optional(),
  html: z.string().max(500_000).optional(),
  text: z.string().max(100_000).optional(),
  body: z.string().max(1600).optional(),
  whatsapp_template: ZWhatsappTemplateContent.optional(),
});
export type TCampaignContent = z.infer<typeof ZCampaignContent>;

export const ZCampaignSchedule = z.strictObject({
  mode: z.enum(CAMPAIGN_SCHEDULE_MODES),
  /** `at`: the instant (with an offset), or a wall time without one, read in the business's zone. `local`: the day. */
  at: z.string().trim().max(40).optional(),
  /** `local`: HH:MM on each recipient's clock. */
  local_time: ZLocalTime.optional(),
});
export type TCampaignSchedule = z.infer<typeof ZCampaignSchedule>;

/** A variant overrides the content's subject and what is written (at most the content's own keys). */
export const ZCampaignVariant = ZCampaignContent.partial();
export const ZCampaignAb = z.strictObject({
  variants: z
    .array(ZCampaignVariant)
    .min(2, CAMPAIGN_ERRORS.variantCount)
    .max(CAMPAIGN_MAX_VARIANTS, CAMPAIGN_ERRORS.variantCount),
  test_share: z.number().gt(0, CAMPAIGN_ERRORS.testShare).max(1, CAMPAIGN_ERRORS.testShare),
  metric: z.enum(CAMPAIGN_AB_METRICS),
  wait_minutes: z
    .number()
    .int()
    .min(1, CAMPAIGN_ERRORS.wait)
    .max(60 * 24 * 7),
});
export type TCampaignAb = z.infer<typeof ZCampaignAb>;

export const ZCreateCampaignRequest = z.strictObject({
  name: z.string().trim().min(1).max(200),
  channel: z.enum(CAMPAIGN_CHANNELS),
  audience: ZCampaignAudience,
  content: ZCampaignContent,
  /** `Name <local@domain>` for email, else the business's default sender. */
  sender: z.string().trim().max(320).nullable().optional(),
  schedule: ZCampaignSchedule.default({ mode: 'now' }),
  throttle_per_hour: z.number().int().min(1).max(10_000_000).nullable().optional(),
  ab: ZCampaignAb.nullable().optional(),
});
export type TCreateCampaignRequest = z.infer<typeof ZCreateCampaignRequest>;
export const ZUpdateCampaignRequest = ZCreateCampaignRequest;

export const ZCampaignChecklistItem = z.object({
  key: z.enum(['domain_verified', 'unsubscribe', 'audience', 'quota', 'content', 'sender']),
  ok: z.boolean(),
  /** Why not, in words a marketer can act on; null when fine. */
  detail: z.string().nullable(),
});

export const ZCampaign = z.object({
  id: z.string(),
  name: z.string(),
  channel: z.enum(CAMPAIGN_CHANNELS),
  status: z.enum(CAMPAIGN_STATUSES),
  audience: ZCampaignAudience,
  content: ZCampaignContent,
  sender: z.string().nullable(),
  schedule: ZCampaignSchedule,
  throttle_per_hour: z.number().int().nullable(),
  ab: ZCampaignAb.nullable(),
  /** The A/B winner's index once picked. */
  winner: z.number().int().nullable(),
  /** Recipients fixed when sending began, and how many of them the sender is done with: their send
   * recorded, or skipped at queue time (the business's frequency cap; `skipped_reasons`). */
  recipients: z.number().int(),
  processed: z.number().int(),
  /** Customers passed over, counted by reason (no address, not subscribed, …). */
  skipped_reasons: z.record(z.string(), z.number().int()),
  scheduled_at: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCampaign = z.infer<typeof ZCampaign>;

/** A campaign id (a UUID; anything else is simply not found). */
export const ZCampaignParams = z.object({ id: z.string().max(64) });
export const ZCampaignQuery = ZPageQuery.extend({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  search: z.string().trim().max(200).optional(),
});

export const ZCampaignAudienceCountRequest = z.strictObject({
  channel: z.enum(CAMPAIGN_CHANNELS),
  audience: ZCampaignAudience,
});
/** The audience as chosen: who would receive it, and who is passed over (apart). */
export const ZCampaignAudienceCount = z.object({
  total: z.number().int(),
  reachable: z.number().int(),
  suppressed: z.number().int(),
  no_consent: z.number().int(),
  no_address: z.number().int(),
  /** Customers who left the campaign's topic in the preference centre. */
  out_of_topic: z.number().int(),
});
export type TCampaignAudienceCount = z.infer<typeof ZCampaignAudienceCount>;

export const ZCampaignTestRequest = z.strictObject({
  to: z.array(z.string().trim().min(3).max(320)).min(1).max(CAMPAIGN_MAX_TEST_ADDRESSES),
  /** Preview as this customer (their fields fill the template); else placeholders. */
  customer_id: z.number().int().positive().optional(),
});
export const ZCampaignTestResult = z.object({ send_ids: z.array(z.string()) });

export const ZCampaignChecklist = z.object({
  ready: z.boolean(),
  items: z.array(ZCampaignChecklistItem),
  audience: ZCampaignAudienceCount,
  /** WhatsApp: Meta's pricing category and the estimate for the reachable audience. */
  estimated_cost: z
    .object({
      category: z.string(),
      per_message: z.number().nullable(),
      total: z.number().nullable(),
      currency: z.string(),
    })
    .nullable(),
});
export type TCampaignChecklist = z.infer<typeof ZCampaignChecklist>;

const ZTotals = z.object({
  recipients: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  opened: z.number().int(),
  /** Opens by machines (mail privacy proxies, scanners), apart from people's. */
  opened_machine: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  unsubscribed: z.number().int(),
  replied: z.number().int(),
  failed: z.number().int(),
});
export const ZCampaignReport = z.object({
  totals: ZTotals,
  variants: z.array(ZTotals.extend({ index: z.number().int(), winner: z.boolean() })),
  links: z.array(z.object({ url: z.string(), clicks: z.number().int(), unique_clickers: z.number().int() })),
  /** Per hour: sends recorded and events seen. */
  series: z.array(
    z.object({ at: z.string(), sent: z.number().int(), opened: z.number().int(), clicked: z.number().int() }),
  ),
});
export type TCampaignReport = z.infer<typeof ZCampaignReport>;

export const ZCampaignRecipient = z.object({
  customer_id: z.number().int(),
  name: z.string().nullable(),
  address: z.string().nullable(),
  variant: z.number().int().nullable(),
  /** pending (not yet due), waiting (A/B rest), recorded (its send exists), skipped. */
  state: z.string(),
  due_at: z.string().nullable(),
  send_id: z.string().nullable(),
  send_status: z.string().nullable(),
  skip_reason: z.string().nullable(),
});
export type TCampaignRecipient = z.infer<typeof ZCampaignRecipient>;
export const ZCampaignRecipientsQuery = ZPageQuery;
