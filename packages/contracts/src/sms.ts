// The SMS channel (engage.md §4): a Twilio account per business, sending one text or a bulk send
// through /api/agents/send-sms/, the SMS event logs, inbound texts, and how a body splits into
// segments (GSM-7 or UCS-2, with the concatenation header's room taken out of each part).
import { z } from 'zod';
import { MARKETING_CONSENT_ERRORS, ZMarketingConsent } from './marketing-consent';

import { ZPageQuery } from './conversations';
import { ZSendOutcomeFilter } from './engage-metrics';
import { ZDateTimeParam } from './dates';
import { ZEmailBatch } from './email-sending';
import { ZWhatsappLog, ZWhatsappLogEvent } from './whatsapp';

export const SMS_ERRORS = {
  e164: 'Enter the number in international format, e.g. +14155550100.',
  accountSid: 'Enter the Account SID from the Twilio Console: AC followed by 32 letters and digits.',
  authToken: 'Enter the Auth Token from the Twilio Console.',
  apiKeySid: 'Enter the API key SID: SK followed by 32 letters and digits.',
  apiKeySecret: 'Enter the API key secret shown when the key was created.',
  apiKeyPair: 'Give both the API key SID and its secret, or neither.',
  messagingServiceSid: 'Enter the Messaging Service SID: MG followed by 32 letters and digits.',
  sender: 'Give the number to send from, or a Messaging Service SID.',
  bothSenders: 'Give either a number to send from or a Messaging Service SID, not both.',
  body: 'Enter the message.',
  bodyTooLong: 'A text message can be at most 1,600 characters.',
  recipient: 'Give a customer_id or a number to send to (to).',
  bothRecipients: 'Give either a customer_id or a number, not both.',
  content: 'Give the message body, or a template_id.',
  bothContents: 'Give either a body or a template_id, not both.',
  listAndRecipient: 'A bulk send to a list takes no customer_id or number.',
} as const;

/** Twilio's limit on one message's body (it splits it into at most 10 segments of concatenated SMS). */
export const SMS_BODY_MAX = 1600;

/** Numbers as E.164 (`+` and up to 15 digits); spaces, dashes, dots and brackets are dropped first. */
export const ZE164 = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s().-]/g, ''))
  .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, { message: SMS_ERRORS.e164 }));

const sid = (prefix: string, message: string) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`), { message });

// ---- Segments ----

/** GSM 03.38's default alphabet (one septet each) and its extension table (two septets: ESC + char). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '\f^{}\\[~]|€';
const GSM_BASIC_SET = new Set(GSM_BASIC);
const GSM_EXTENDED_SET = new Set(GSM_EXTENDED);

export type TSmsEncoding = 'GSM-7' | 'UCS-2';

export type TSmsSegments = {
  encoding: TSmsEncoding;
  /** Characters as people count them (code points). */
  characters: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the body takes. */
  units: number;
  segments: number;
  /** Room in one part: 160/70 alone, 153/67 when concatenated (the UDH takes 6 bytes). */
  per_segment: number;
};

/**
 * How a body travels as SMS: GSM-7 when every character is in the default alphabet or its
 * extension (which takes two septets), else UCS-2. Past one part's 160 septets / 70 code units,
 * each part carries a concatenation header and holds 153 / 67; an escape pair or a surrogate pair
 * is never split across parts, as handsets and carriers require.
 */
export function smsSegments(body: string): TSmsSegments {
  const chars = [...body];
  const gsm = chars.every((c) => GSM_BASIC_SET.has(c) || GSM_EXTENDED_SET.has(c));
  const sizes = gsm
    ? chars.map((c) => (GSM_EXTENDED_SET.has(c) ? 2 : 1))
    : chars.map((c) => (c.codePointAt(0)! > 0xffff ? 2 : 1));
  const single = gsm ? 160 : 70;
  const multi = gsm ? 153 : 67;
  const units = sizes.reduce((a, b) => a + b, 0);
  let segments = 1;
  if (units > single) {
    let used = 0;
    for (const size of sizes) {
      if (used + size > multi) {
        segments++;
        used = 0;
      }
      used += size;
    }
  }
  return {
    encoding: gsm ? 'GSM-7' : 'UCS-2',
    characters: chars.length,
    units,
    segments,
    per_segment: segments > 1 ? multi : single,
  };
}

// ---- The account (GET, PUT /api/sms/account/) ----

export const ZSmsAccount = z.object({
  account_sid: z.string(),
  from_number: z.string().nullable(),
  messaging_service_sid: z.string().nullable(),
  /** Calls are made with this API key when set, else with the Account SID and Auth Token. */
  api_key_sid: z.string().nullable(),
  has_auth_token: z.boolean(),
  has_api_key_secret: z.boolean(),
  /** Where Twilio reports each message's status (sent with every message as StatusCallback). */
  status_callback_url: z.string(),
  /** What to paste as the number's (or Messaging Service's) "A message comes in" webhook. */
  inbound_url: z.string(),
  updated_at: z.string(),
});
export type TSmsAccount = z.infer<typeof ZSmsAccount>;

const optionalText = (message: string, min: number, max: number) =>
  z.string().trim().min(min, { message }).max(max, { message }).optional();

/** auth_token and api_key_secret are write-only: required when connecting, kept when left out. */
export const ZSaveSmsAccountRequest = z
  .object({
    account_sid: sid('AC', SMS_ERRORS.accountSid),
    auth_token: optionalText(SMS_ERRORS.authToken, 16, 128),
    api_key_sid: sid('SK', SMS_ERRORS.apiKeySid).nullish(),
    api_key_secret: optionalText(SMS_ERRORS.apiKeySecret, 16, 128),
    from_number: ZE164.nullish(),
    messaging_service_sid: sid('MG', SMS_ERRORS.messagingServiceSid).nullish(),
  })
  .superRefine((v, ctx) => {
    if (!v.from_number && !v.messaging_service_sid)
      ctx.addIssue({ code: 'custom', path: ['from_number'], message: SMS_ERRORS.sender });
    if (v.from_number && v.messaging_service_sid)
      ctx.addIssue({ code: 'custom', path: ['messaging_service_sid'], message: SMS_ERRORS.bothSenders });
    if (v.api_key_secret && !v.api_key_sid)
      ctx.addIssue({ code: 'custom', path: ['api_key_sid'], message: SMS_ERRORS.apiKeyPair });
  });
export type TSaveSmsAccountRequest = z.input<typeof ZSaveSmsAccountRequest>;
export type TSaveSmsAccountInput = z.output<typeof ZSaveSmsAccountRequest>;

const body = z
  .string()
  .min(1, { message: SMS_ERRORS.body })
  .max(SMS_BODY_MAX, { message: SMS_ERRORS.bodyTooLong })
  .refine((v) => v.trim().length > 0, { message: SMS_ERRORS.body });

/** POST /api/sms/account/test/: one text from the connected account. */
export const ZSmsTestRequest = z.object({ to: ZE164, body: body.optional() });
export type TSmsTestRequest = z.input<typeof ZSmsTestRequest>;

export const SMS_TEST_BODY = 'This is a test message from Titan: your SMS channel is connected.';

// ---- Sending (POST /api/agents/send-sms/) ----

export const ZSendSmsRequest = z
  .object({
    customer_id: z.coerce.number().int().positive().optional(),
    to: ZE164.optional(),
    /** A bulk send to every customer of a list with a phone number, answered 202 with a batch. */
    list_id: z.coerce.number().int().positive().optional(),
    body: body.optional(),
    /** A saved template: its text part, rendered with Liquid and `variables`. */
    template_id: z.coerce.number().int().positive().optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
    /** Sending twice with one key sends once: the second call answers the first send. */
    idempotency_key: z.string().trim().min(1).max(200).optional(),
    /**
     * With list_id: who may be texted. `subscribed` (the default): only customers who subscribed;
     * `legitimate_interest`: also those whose consent is unknown. Never the opted out.
     */
    consent: ZMarketingConsent.optional(),
  })
  .superRefine((v, ctx) => {
    const single = v.customer_id !== undefined || v.to !== undefined;
    if (v.consent !== undefined && v.list_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['consent'], message: MARKETING_CONSENT_ERRORS.listOnly });
    if (v.list_id !== undefined && single)
      ctx.addIssue({ code: 'custom', path: ['to'], message: SMS_ERRORS.listAndRecipient });
    else if (v.list_id === undefined && !single)
      ctx.addIssue({ code: 'custom', path: ['to'], message: SMS_ERRORS.recipient });
    else if (v.customer_id !== undefined && v.to !== undefined)
      ctx.addIssue({ code: 'custom', path: ['to'], message: SMS_ERRORS.bothRecipients });
    if (v.body !== undefined && v.template_id !== undefined)
      ctx.addIssue({ code: 'custom', path: ['template_id'], message: SMS_ERRORS.bothContents });
    else if (v.body === undefined && v.template_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['body'], message: SMS_ERRORS.content });
  });
export type TSendSmsRequest = z.input<typeof ZSendSmsRequest>;
export type TSendSmsInput = z.output<typeof ZSendSmsRequest>;

/** One text as the sending API answers it (`id` is the tracking id of the SMS logs). */
export const ZSmsSend = z.object({
  id: z.string(),
  tracking_id: z.string(),
  status: z.string(),
  recipient: z.string(),
  customer_id: z.number().int().nullable(),
  body: z.string(),
  segments: z.number().int(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  template_id: z.number().int().nullable(),
  provider_message_id: z.string().nullable(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
});
export type TSmsSend = z.infer<typeof ZSmsSend>;

export const ZSendSmsResult = z.union([ZSmsSend, ZEmailBatch]);

// ---- Logs (GET /api/sms/events/, /{trackingId}/, /download/) ----

/** `accepted`: Twilio took it (queued at Twilio); `sent`: handed to the carrier; `error`: refused by the API. */
export const SMS_LOG_STATUSES = [
  'queued',
  'sending',
  'accepted',
  'sent',
  'delivered',
  'failed',
  'error',
  'suppressed',
  'cancelled',
] as const;
export type TSmsLogStatus = (typeof SMS_LOG_STATUSES)[number];

export const ZSmsLogFilter = z.strictObject({
  status: z.enum(SMS_LOG_STATUSES, { message: `Choose ${SMS_LOG_STATUSES.join(', ')}.` }).optional(),
  /** What the sends count as on the dashboard (SEND_OUTCOME_STATUSES). */
  outcome: ZSendOutcomeFilter,
  /** Matches the number, the template name or the message SID. */
  search: z.string().trim().max(100).optional(),
  template_id: z.coerce.number({ message: 'Must be a whole number.' }).int().positive().optional(),
  /** The sends of one agent's runs (cause `agent`). */
  agent_id: z.coerce.number({ message: 'Must be a whole number.' }).int().positive().optional(),
  created_at__gte: ZDateTimeParam.optional(),
  created_at__lte: ZDateTimeParam.optional(),
});
export type TSmsLogFilter = z.infer<typeof ZSmsLogFilter>;

export const ZSmsLogListQuery = ZSmsLogFilter.extend(ZPageQuery.shape);
export type TSmsLogListQuery = z.infer<typeof ZSmsLogListQuery>;

export const ZSmsLog = ZWhatsappLog.extend({
  status: z.enum(SMS_LOG_STATUSES),
  segments: z.number().int().nullable(),
  encoding: z.string().nullable(),
  /** What Twilio charged (a negative decimal string, as Twilio reports it), once it says. */
  price: z.string().nullable(),
  price_unit: z.string().nullable(),
});
export type TSmsLog = z.infer<typeof ZSmsLog>;

export const ZSmsLogEvent = ZWhatsappLogEvent.extend({
  /** Twilio's own word (queued, sending, sent, delivered, undelivered, failed…). */
  provider_status: z.string().nullable(),
});
export type TSmsLogEvent = z.infer<typeof ZSmsLogEvent>;

/** The text as it was handed to Twilio. */
export const ZSmsMessage = z.object({
  from: z.string().nullable(),
  to: z.string(),
  body: z.string(),
  encoding: z.string(),
  characters: z.number().int(),
  segments: z.number().int(),
});
export type TSmsMessage = z.infer<typeof ZSmsMessage>;

export const ZSmsLogDetail = ZSmsLog.extend({
  request: z.record(z.string(), z.unknown()),
  response: z.record(z.string(), z.unknown()).nullable(),
  sms: ZSmsMessage,
  /** Oldest first: queued when recorded, then Twilio's statuses in their order, a failure last. */
  events: z.array(ZSmsLogEvent),
});
export type TSmsLogDetail = z.infer<typeof ZSmsLogDetail>;

// ---- Inbound texts (GET /api/sms/inbound/) ----

export const SMS_KEYWORDS = ['stop', 'start', 'help'] as const;

export const ZSmsInbound = z.object({
  id: z.number().int(),
  customer_id: z.number().int().nullable(),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  /** `stop`: the number unsubscribed; `start`: it resubscribed; `help`: it asked for help. */
  keyword: z.enum(SMS_KEYWORDS).nullable(),
  received_at: z.string(),
});
export type TSmsInbound = z.infer<typeof ZSmsInbound>;

export const ZSmsInboundQuery = ZPageQuery.extend({
  customer_id: z.coerce.number({ message: 'Must be a whole number.' }).int().positive().optional(),
});
export type TSmsInboundQuery = z.infer<typeof ZSmsInboundQuery>;

/** Twilio's status callback (a form post; Twilio's parameters, more may come), as documented. */
export const ZTwilioStatusCallback = z.looseObject({
  AccountSid: z.string(),
  MessageSid: z.string(),
  MessageStatus: z.string(),
  ErrorCode: z.string().optional(),
  From: z.string().optional(),
  To: z.string().optional(),
});

/** Twilio's inbound message webhook (a form post), as documented. */
export const ZTwilioInboundMessage = z.looseObject({
  AccountSid: z.string(),
  MessageSid: z.string(),
  From: z.string(),
  To: z.string(),
  Body: z.string(),
  NumMedia: z.string().optional(),
});
