// The WhatsApp Business channel (api.md "WhatsApp").
import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { ZDateTimeParam } from './dates';
import { ZSendOutcomeFilter } from './engage-metrics';

export const ZWhatsappAccount = z.object({
  phone_number_id: z.string(),
  waba_id: z.string(),
  display_phone_number: z.string(),
  verify_token: z.string(),
  /** Where to point the app's webhook at Meta. */
  webhook_url: z.string(),
  has_access_token: z.boolean(),
  has_app_secret: z.boolean(),
});
export type TWhatsappAccount = z.infer<typeof ZWhatsappAccount>;

const digits = z
  .string()
  .trim()
  .regex(/^[0-9]{5,30}$/, { message: 'Enter the numeric id shown in Meta’s WhatsApp Manager.' });

/** access_token and app_secret are write-only: required when connecting, optional afterwards. */
export const ZSaveWhatsappAccountRequest = z.object({
  phone_number_id: digits,
  waba_id: digits,
  display_phone_number: z.string().trim().min(4).max(30),
  verify_token: z.string().trim().min(8).max(200),
  access_token: z.string().trim().min(20).max(1000).optional(),
  app_secret: z.string().trim().min(16).max(200).optional(),
});
export type TSaveWhatsappAccountRequest = z.infer<typeof ZSaveWhatsappAccountRequest>;

export const ZWebhookVerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().optional(),
});

// ---- Sending (api.md: POST /api/whatsapp/conversations/{id}/messages/) ----

export const WHATSAPP_MEDIA_TYPES = ['image', 'audio', 'video', 'document'] as const;
export type TWhatsappMediaType = (typeof WHATSAPP_MEDIA_TYPES)[number];

const mediaId = z.string().trim().min(1, { message: 'Upload the file first and send its id.' }).max(200);
const caption = z.string().max(1024, { message: 'Captions are at most 1024 characters.' }).optional();
const context = z.object({ message_id: z.string().trim().min(1).max(200) }).optional();

const base = { recipient_type: z.literal('individual').default('individual'), context };
const media = z.object({ id: mediaId, caption });

/** The spec's send body: text, or uploaded media by id; `context` replies to an earlier message. */
export const ZWhatsappSendRequest = z.discriminatedUnion(
  'type',
  [
    z.object({
      ...base,
      type: z.literal('text'),
      text: z.object({
        body: z
          .string()
          .trim()
          .min(1, { message: 'Type a message.' })
          .max(4096, { message: 'WhatsApp messages are at most 4096 characters.' }),
        preview_url: z.boolean().optional(),
      }),
    }),
    z.object({ ...base, type: z.literal('image'), image: media }),
    z.object({ ...base, type: z.literal('audio'), audio: media }),
    z.object({ ...base, type: z.literal('video'), video: media }),
    z.object({
      ...base,
      type: z.literal('document'),
      document: media.extend({ filename: z.string().trim().max(240).optional() }),
    }),
  ],
  { message: 'Choose a message type: text, image, audio, video or document.' },
);
export type TWhatsappSendRequest = z.infer<typeof ZWhatsappSendRequest>;

/** POST /api/whatsapp/media/ answers the Graph media id to send with the next message. */
export const ZWhatsappMediaUpload = z.object({
  id: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  file_name: z.string(),
  type: z.enum(WHATSAPP_MEDIA_TYPES),
});
export type TWhatsappMediaUpload = z.infer<typeof ZWhatsappMediaUpload>;

export const ZWhatsappMediaParams = z.object({ id: z.string().min(1).max(200) });

/** Whether free-form messages may be sent: the customer wrote within the last 24 hours. */
export const ZWhatsappWindow = z.object({
  open: z.boolean(),
  /** When the window closes (null when it is closed or never opened). */
  expires_at: z.string().nullable(),
  last_customer_message_at: z.string().nullable(),
});
export type TWhatsappWindow = z.infer<typeof ZWhatsappWindow>;

// ---- Templates (GET /api/whatsapp/template/, …/{name}/, …/sync/) ----

export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export type TTemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const ZTemplateButton = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    url: z.string().optional(),
    phone_number: z.string().optional(),
    example: z.unknown().optional(),
  })
  .passthrough();

/** A component as Meta defines it: HEADER (format TEXT|IMAGE|VIDEO|DOCUMENT|LOCATION), BODY, FOOTER, BUTTONS. */
export const ZTemplateComponent = z
  .object({
    type: z.string(),
    format: z.string().optional(),
    text: z.string().optional(),
    buttons: z.array(ZTemplateButton).optional(),
    example: z.unknown().optional(),
  })
  .passthrough();
export type TTemplateComponent = z.infer<typeof ZTemplateComponent>;

export const ZWhatsappTemplate = z.object({
  id: z.number().int(),
  meta_id: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  /** POSITIONAL ({{1}}) or NAMED ({{first_name}}). */
  parameter_format: z.string().nullable(),
  components: z.array(ZTemplateComponent),
  /** TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION; null without a header. */
  header_format: z.string().nullable(),
  /** How many parameters the body takes: one per distinct placeholder. */
  body_parameters: z.number().int(),
  /** Placeholders of a TEXT header, or 1 for a media header (the image, video or document to send). */
  header_parameters: z.number().int(),
  /** The placeholders in order: "1", "2", … or the names of a NAMED template. */
  body_parameter_names: z.array(z.string()),
  header_parameter_names: z.array(z.string()),
  /** URL buttons whose link ends in a placeholder: each takes one text parameter at its index. */
  button_parameters: z.array(z.object({ index: z.number().int(), type: z.string(), text: z.string() })),
  synced_at: z.string(),
});
export type TWhatsappTemplate = z.infer<typeof ZWhatsappTemplate>;

export const ZTemplateListQuery = z.object({
  status: z
    .enum(TEMPLATE_STATUSES, { message: 'Choose APPROVED, PENDING, REJECTED, PAUSED or DISABLED.' })
    .optional(),
  search: z.string().trim().max(100).optional(),
});
export type TTemplateListQuery = z.infer<typeof ZTemplateListQuery>;

export const ZTemplateNameParams = z.object({ name: z.string().min(1).max(512) });
export const ZTemplateNameQuery = z.object({ language: z.string().trim().max(20).optional() });

export const ZTemplateSyncResult = z.object({
  /** Templates Meta listed, now stored. */
  synced: z.number().int(),
  /** Stored templates Meta no longer lists, now deleted. */
  removed: z.number().int(),
});
export type TTemplateSyncResult = z.infer<typeof ZTemplateSyncResult>;

const mediaParameter = z
  .object({
    id: z.string().min(1).max(200).optional(),
    link: z.url({ protocol: /^https?$/, message: 'Enter an http(s) link.' }).optional(),
  })
  .refine((m) => Boolean(m.id) !== Boolean(m.link), { message: 'Give either a media id or a link.' });

export const ZTemplateParameter = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('text'),
      text: z.string().trim().min(1, { message: 'Fill in every parameter.' }).max(1024),
      /** The placeholder's name, for NAMED templates. */
      parameter_name: z.string().max(100).optional(),
    }),
    z.object({
      type: z.literal('document'),
      document: z
        .object({
          id: z.string().min(1).max(200).optional(),
          link: z.url({ protocol: /^https?$/, message: 'Enter an http(s) link.' }).optional(),
          filename: z.string().trim().max(240).optional(),
        })
        .refine((m) => Boolean(m.id) !== Boolean(m.link), { message: 'Give either a media id or a link.' }),
    }),
    z.object({ type: z.literal('image'), image: mediaParameter }),
    z.object({ type: z.literal('video'), video: mediaParameter }),
    /** A quick-reply button's payload, returned when the customer taps it. */
    z.object({ type: z.literal('payload'), payload: z.string().max(1000) }),
  ],
  { message: 'Parameter types are text, document, image, video or payload.' },
);
export type TTemplateParameter = z.infer<typeof ZTemplateParameter>;

export const ZSendTemplateComponent = z.object({
  type: z.enum(['header', 'body', 'button']),
  /** For buttons: url or quick_reply. */
  sub_type: z.enum(['url', 'quick_reply']).optional(),
  /** For buttons: the button's position in the template (0-based). */
  index: z.coerce.number().int().min(0).max(9).optional(),
  parameters: z.array(ZTemplateParameter).max(20),
});
export type TSendTemplateComponent = z.infer<typeof ZSendTemplateComponent>;

/** Either `conversation_id` (a WhatsApp conversation) or `to` (a number, which needs engage.send). */
export const ZSendTemplateRequest = z
  .object({
    conversation_id: z.number().int().positive().optional(),
    /** A phone number in international format; digits only are sent to Meta. */
    to: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ()-]{5,20}$/, { message: 'Enter a phone number in international format.' })
      .optional(),
    name: z.string().trim().min(1, { message: 'Choose a template.' }).max(512),
    language: z.string().trim().min(2).max(20),
    components: z.array(ZSendTemplateComponent).max(10).default([]),
  })
  .superRefine((v, ctx) => {
    if ((v.conversation_id === undefined) === (v.to === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'Give either a conversation or a phone number.',
      });
    }
  });
export type TSendTemplateRequest = z.input<typeof ZSendTemplateRequest>;
export type TSendTemplateInput = z.infer<typeof ZSendTemplateRequest>;

// ---- Logs (/api/whatsapp/events/) ----

/** `queued`/`sending`: recorded, Meta not answered yet (the send spine writes before it calls). */
export const WHATSAPP_LOG_STATUSES = [
  'queued',
  'sending',
  'accepted',
  'sent',
  'delivered',
  'read',
  'failed',
  'error',
] as const;
export type TWhatsappLogStatus = (typeof WHATSAPP_LOG_STATUSES)[number];

export const ZWhatsappLog = z.object({
  tracking_id: z.string(),
  wamid: z.string().nullable(),
  conversation_id: z.number().int().nullable(),
  /** The recipient's number, digits only as sent to Meta. */
  to: z.string(),
  type: z.string(),
  template_name: z.string().nullable(),
  /** The strongest status Meta reported; `error` when Meta refused the call itself. */
  status: z.enum(WHATSAPP_LOG_STATUSES),
  error_code: z.number().int().nullable(),
  error_message: z.string().nullable(),
  pricing_category: z.string().nullable(),
  billable: z.boolean().nullable(),
  /** The staff member who sent it; null for API keys and the system. */
  sent_by: z.object({ id: z.number().int(), name: z.string().nullable() }).nullable(),
  /** The AI agent whose run sent it (cause `agent`); null otherwise. */
  agent: z.object({ id: z.number().int(), name: z.string(), run_id: z.string() }).nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TWhatsappLog = z.infer<typeof ZWhatsappLog>;

export const ZWhatsappLogEvent = z.object({
  status: z.string(),
  /** When Meta says it happened (its timestamp), ISO; null when Meta sent none. */
  timestamp: z.string().nullable(),
  received_at: z.string(),
  pricing: z.object({ category: z.string().nullable(), billable: z.boolean().nullable() }).nullable(),
  /** For failed: Meta's reason. */
  error: z
    .object({
      code: z.number().int().nullable(),
      title: z.string().nullable(),
      details: z.string().nullable(),
    })
    .nullable(),
});
export type TWhatsappLogEvent = z.infer<typeof ZWhatsappLogEvent>;

export const ZWhatsappLogDetail = ZWhatsappLog.extend({
  /** The Graph request body (without credentials). */
  request: z.record(z.string(), z.unknown()),
  /** Meta's answer: the accepted message id, or the error body. */
  response: z.record(z.string(), z.unknown()).nullable(),
  /** Status reports, in the order accepted < sent < delivered < read, failed last. */
  events: z.array(ZWhatsappLogEvent),
});
export type TWhatsappLogDetail = z.infer<typeof ZWhatsappLogDetail>;

/** The filters of the log list and its CSV download. */
export const ZWhatsappLogFilter = z.object({
  status: z
    .enum(WHATSAPP_LOG_STATUSES, {
      message: 'Choose queued, sending, accepted, sent, delivered, read, failed or error.',
    })
    .optional(),
  /** What the sends count as on the dashboard (SEND_OUTCOME_STATUSES). */
  outcome: ZSendOutcomeFilter,
  /** Matches the recipient, the template name or the wamid. */
  search: z.string().trim().max(100).optional(),
  created_at__gte: ZDateTimeParam.optional(),
  created_at__lte: ZDateTimeParam.optional(),
});
export type TWhatsappLogFilter = z.infer<typeof ZWhatsappLogFilter>;

export const ZWhatsappLogListQuery = ZWhatsappLogFilter.extend({
  page: z.coerce.number({ message: 'Must be a whole number.' }).int().min(1).default(1),
  page_size: z.coerce
    .number({ message: 'Must be a whole number.' })
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT),
});
export type TWhatsappLogListQuery = z.infer<typeof ZWhatsappLogListQuery>;
export type TWhatsappLogListQueryInput = z.input<typeof ZWhatsappLogListQuery>;

export const ZTrackingIdParams = z.object({
  trackingId: z.string().uuid({ message: 'Unknown tracking id.' }),
});

// ---- Balance (GET /api/whatsapp/client/balance/) ----

/** This calendar month's (UTC) usage, priced with Titan's estimated per-message rates. */
export const ZWhatsappBalance = z.object({
  currency: z.string(),
  period_start: z.string(),
  /** Exclusive: the first instant of next month. */
  period_end: z.string(),
  /** Messages Meta accepted this month. */
  messages_sent: z.number().int(),
  billable_messages: z.number().int(),
  /** Estimated cost of the billable messages. */
  spent: z.number(),
  by_category: z.array(
    z.object({
      category: z.string(),
      messages: z.number().int(),
      billable: z.number().int(),
      /** Estimated price per billable message. */
      rate: z.number(),
      cost: z.number(),
    }),
  ),
});
export type TWhatsappBalance = z.infer<typeof ZWhatsappBalance>;
