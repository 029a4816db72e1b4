// The shared inbox (spec sections 2, 3, 7; api.md "Conversations").
import { z } from 'zod';
import { ZChatGroup } from './chat-group';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { ZDateTimeParam } from './dates';
import { ZLabelFilter, ZLabelIds, ZLabelRef } from './labels';
import { ZConversationSla } from './service-levels';

/**
 * `snoozed`: set aside until `snoozed_until` (next-api.md "Team inbox"); it returns to `active` at
 * that time or when the customer writes. `?status=active` never lists a snoozed conversation.
 */
export const CONVERSATION_STATUSES = ['active', 'resolved', 'snoozed'] as const;
export const ZConversationStatus = z.enum(CONVERSATION_STATUSES);
export type TConversationStatus = z.infer<typeof ZConversationStatus>;

/**
 * The inbox's channels: the spec's two (WhatsApp, the own chat "Titan Message"), then email and SMS
 * conversations (next-api.md "Every channel in the inbox").
 */
export const CHANNELS = ['whatsapp', 'titan_message', 'email', 'sms'] as const;
export const ZChannel = z.enum(CHANNELS);
export type TChannel = z.infer<typeof ZChannel>;

export const SENDER_TYPES = ['customer', 'staff', 'agent', 'system'] as const;
export const ZSenderType = z.enum(SENDER_TYPES);
export type TSenderType = z.infer<typeof ZSenderType>;

/**
 * `note`: a private note between staff; `activity`: a line of the timeline (assigned, status
 * changed, labelled, by whom). Neither ever reaches the customer (next-api.md "Team inbox").
 */
export const MESSAGE_TYPES = ['text', 'file', 'note', 'activity'] as const;
/** Message types staff see only: never in a visitor's, WhatsApp, SMS or email payload. */
export const INTERNAL_MESSAGE_TYPES = ['note', 'activity'] as const;
export const ZMessageType = z.enum(MESSAGE_TYPES);

export const DELIVERY_STATUSES = ['accepted', 'sent', 'delivered', 'read', 'failed'] as const;
export const ZDeliveryStatus = z.enum(DELIVERY_STATUSES);
export type TDeliveryStatus = z.infer<typeof ZDeliveryStatus>;

export const ZInitiator = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type TInitiator = z.infer<typeof ZInitiator>;

/** The member who owns a conversation (next-api.md "Team inbox"). */
export const ZAssignee = z.object({
  id: z.number().int(),
  name: z.string(),
  avatar_url: z.string().nullable(),
});
export type TAssignee = z.infer<typeof ZAssignee>;

export const ZConversation = z.object({
  id: z.number().int(),
  title: z.string(),
  status: ZConversationStatus,
  is_read: z.boolean(),
  channel: ZChannel,
  initiator: ZInitiator.nullable(),
  /** The full chat group record (spec section 3), as GET /api/msg/chat-groups/{id}/ answers it. */
  assigned_chat_group: ZChatGroup.nullable(),
  last_message_at: z.string().nullable(),
  created_at: z.string(),
  business_replied: z.boolean(),
  engage_business_id: z.number().int(),
  /** A member of the business, or none. */
  assignee: ZAssignee.nullable(),
  /** With status `snoozed`: when it returns to active; otherwise null. */
  snoozed_until: z.string().nullable(),
  /** The business's labels on it, by name. */
  labels: z.array(ZLabelRef),
  /**
   * The newest customer or team message (never a note or an activity line), its text cut to
   * LAST_MESSAGE_PREVIEW_MAX characters: the list's one-line preview. Null for visitors.
   */
  last_message_preview: z
    .object({ sender_type: z.enum(SENDER_TYPES), message_type: z.enum(MESSAGE_TYPES), content: z.string() })
    .nullable(),
  /**
   * Email: the latest mail the customer sent here scored as spam (authentication results and
   * content heuristics; the message's `meta_data.spam_score` and `spam_reasons` say why).
   */
  spam: z.boolean().default(false),
  /** Its group's SLA clocks: deadlines and whether one was missed. */
  sla: ZConversationSla,
});
export type TConversation = z.infer<typeof ZConversation>;
export const LAST_MESSAGE_PREVIEW_MAX = 200;

// Query strings carry 'true'/'false'; realtime filters may also send JSON booleans.
const boolParam = z.union(
  [
    z.boolean(),
    z
      .enum(['true', 'false', 'True', 'False', '1', '0'])
      .transform((v) => v === 'true' || v === 'True' || v === '1'),
  ],
  { message: 'Must be true or false.' },
);
const idOrNone = (message: string) =>
  z.union([z.literal('none'), z.coerce.number({ message }).int({ message }).positive({ message })], {
    message,
  });

/** The list filters shared by GET /api/msg/conversations/ and the realtime subscription. */
export const ZConversationFilter = z.object({
  /** `me` (the caller), `none` (unassigned) or a member's id. */
  assignee: z
    .union([z.literal('me'), idOrNone('Enter me, none or a member id.')], {
      message: 'Enter me, none or a member id.',
    })
    .optional(),
  /** A chat group's id, or `none` (no group). */
  assigned_chat_group: idOrNone('Enter none or a chat group id.').optional(),
  /** `label=<id>`, repeatable: conversations carrying every one of these labels. */
  label: ZLabelFilter.optional(),
  status: ZConversationStatus.optional(),
  is_read: boolParam.optional(),
  business_replied: boolParam.optional(),
  created_at__gte: ZDateTimeParam.optional(),
  created_at__lte: ZDateTimeParam.optional(),
  last_message_at__gte: ZDateTimeParam.optional(),
  last_message_at__lte: ZDateTimeParam.optional(),
  channel__in: z
    .string()
    .transform((v, ctx) => {
      const parts = v
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (parts.length === 0 || parts.some((p) => !(CHANNELS as readonly string[]).includes(p))) {
        ctx.addIssue({ code: 'custom', message: `Select valid channels: ${CHANNELS.join(', ')}.` });
        return z.NEVER;
      }
      return parts as TChannel[];
    })
    .optional(),
});
export type TConversationFilter = z.infer<typeof ZConversationFilter>;
export type TConversationFilterInput = z.input<typeof ZConversationFilter>;

/**
 * Query strings are strict objects: a parameter a list route does not know is refused (400 naming
 * it) rather than silently ignored, so a misspelt filter never looks like an empty result.
 */
/** The query of a list route that takes no parameters (strict: any parameter is refused). */
export const ZNoQuery = z.strictObject({});

export const ZPageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const SEARCH_TEXT_MAX = 200;

/** The words of a search: runs of letters and digits (anything else separates them). */
export const searchTerms = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 16);

/** What a search (GET /api/msg/search/, and `q=` on the list) looks for: some words, at most SEARCH_TEXT_MAX characters. */
export const ZSearchText = z
  .string()
  .trim()
  .min(1, 'Enter something to search for.')
  .max(SEARCH_TEXT_MAX, `Search for at most ${SEARCH_TEXT_MAX} characters.`)
  .refine((v) => searchTerms(v).length > 0, { message: 'Enter a word, a name, an email or a phone number.' });

/** The list's query: its filters, a page, and `q` (only the conversations search finds, in its order). */
export const ZConversationListQuery = ZConversationFilter.extend({
  ...ZPageQuery.shape,
  q: ZSearchText.optional(),
}).strict();
export type TConversationListQuery = z.infer<typeof ZConversationListQuery>;

const ZAssigneeId = z.number().int().positive().nullable();

/** A snooze's end: an ISO date-time in the future, at most a year ahead. */
export const ZSnoozedUntil = z.iso
  .datetime({ offset: true, message: 'Enter a date and time (ISO 8601).' })
  .refine((v) => Date.parse(v) > Date.now(), { message: 'Choose a time in the future.' })
  .refine((v) => Date.parse(v) <= Date.now() + 366 * 24 * 60 * 60 * 1000, {
    message: 'Choose a time within a year.',
  });

export const ZUpdateConversationRequest = z
  .object({
    status: ZConversationStatus.optional(),
    is_read: z.boolean().optional(),
    /** A member of the business, or null to unassign. */
    assignee_id: ZAssigneeId.optional(),
    /** Snooze until this time (status becomes `snoozed`); null wakes it (status `active`). */
    snoozed_until: ZSnoozedUntil.nullable().optional(),
    /** The conversation's labels: the whole set (an empty array removes them all). */
    label_ids: ZLabelIds.optional(),
  })
  .refine(
    (v) =>
      v.status !== undefined ||
      v.is_read !== undefined ||
      v.assignee_id !== undefined ||
      v.snoozed_until !== undefined ||
      v.label_ids !== undefined,
    {
      message: 'Send status, is_read, assignee_id, snoozed_until or label_ids.',
      path: ['non_field_errors'],
    },
  )
  .superRefine((v, ctx) => {
    if (v.status === 'snoozed' && !v.snoozed_until)
      ctx.addIssue({ code: 'custom', path: ['snoozed_until'], message: 'Enter when the snooze ends.' });
    if (v.snoozed_until && v.status !== undefined && v.status !== 'snoozed')
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: 'A snoozed conversation has status snoozed.',
      });
  });
export type TUpdateConversationRequest = z.infer<typeof ZUpdateConversationRequest>;

/** POST /api/msg/conversations/bulk/: one change to many conversations, all or none. */
export const ZBulkConversationRequest = z
  .object({
    ids: z.array(z.number().int().positive()).min(1, 'Select at least one conversation.').max(500),
    assignee_id: ZAssigneeId.optional(),
    // Snoozing takes a time: one conversation at a time (PUT …/{id}/ with snoozed_until).
    status: z.enum(['active', 'resolved'], { message: 'Choose active or resolved.' }).optional(),
    /** Labels added to every one of them (labels they already carry stay). */
    label_ids: ZLabelIds.optional(),
  })
  .refine((v) => v.status !== undefined || v.assignee_id !== undefined || v.label_ids !== undefined, {
    message: 'Send assignee_id, status or label_ids.',
    path: ['non_field_errors'],
  });
export type TBulkConversationRequest = z.infer<typeof ZBulkConversationRequest>;
export const ZBulkConversationResult = z.object({ updated: z.array(z.number().int()) });
export type TBulkConversationResult = z.infer<typeof ZBulkConversationResult>;

/** GET /api/msg/conversations/counts/: how many conversations each inbox view holds. */
export const ZConversationCounts = z.object({
  all: z.number().int(),
  mine: z.number().int(),
  unassigned: z.number().int(),
  assignees: z.array(z.object({ id: z.number().int(), count: z.number().int() })),
  groups: z.array(z.object({ id: z.number().int().nullable(), count: z.number().int() })),
  /** Per label of the business that any of these conversations carries. */
  labels: z.array(z.object({ id: z.number().int(), count: z.number().int() })),
});
export type TConversationCounts = z.infer<typeof ZConversationCounts>;
export const ZConversationCountsQuery = z.object({ status: ZConversationStatus.optional() });

/** POST /api/msg/conversations/{id}/notes/: a private note; `@[Name](member:<id>)` mentions. */
export const ZNoteRequest = z.object({ content: z.string().trim().min(1).max(10_000) });
export type TNoteRequest = z.infer<typeof ZNoteRequest>;

export const ZSender = z.object({
  id: z.number().int().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string().nullable(),
  avatar_url: z.string().nullable(),
});
export type TSender = z.infer<typeof ZSender>;

export const ZFileMeta = z.object({
  key: z.string().optional(),
  file_name: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
});
export type TFileMeta = z.infer<typeof ZFileMeta>;

export const ZMessage = z.object({
  id: z.union([z.number().int(), z.string()]),
  conversation_id: z.number().int(),
  content: z.string(),
  created_at: z.string(),
  is_read: z.boolean(),
  sender_id: z.number().int().nullable(),
  sender_type: ZSenderType,
  message_type: ZMessageType,
  meta_data: z.record(z.string(), z.unknown()),
  status: ZDeliveryStatus.nullable(),
  timestamp: z.number().int().nullable(),
  sender: ZSender.nullable(),
});
export type TMessage = z.infer<typeof ZMessage>;

/**
 * Who wrote a message, as a visitor may see it: a display name and an avatar, never a staff
 * member's email, role or user id (api.md "Public chat").
 */
export const ZPublicSender = z.object({
  name: z.string().nullable(),
  avatar_url: z.string().nullable(),
});
export type TPublicSender = z.infer<typeof ZPublicSender>;

/** A message as the public chat API and visitors' realtime feed carry it. */
export const ZPublicMessage = ZMessage.omit({ sender_id: true, sender: true }).extend({
  sender: ZPublicSender.nullable(),
});
export type TPublicMessage = z.infer<typeof ZPublicMessage>;

export const MESSAGES_LIMIT_DEFAULT = 50;
export const MESSAGES_LIMIT_MAX = 200;

export const ZMessageListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MESSAGES_LIMIT_MAX).default(MESSAGES_LIMIT_DEFAULT),
  before: z.string().min(1).max(200).optional(),
});
export type TMessageListQuery = z.infer<typeof ZMessageListQuery>;

/** MMS (a picture on an SMS reply): what Twilio sends as MMS everywhere it does, and its size limit. */
export const MMS_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export const MMS_MAX_BYTES = 5 * 1024 * 1024;

export const EMAIL_REPLY_HTML_MAX = 200_000;
export const EMAIL_REPLY_ATTACHMENTS_MAX = 10;
export const EMAIL_REPLY_CC_MAX = 10;

/**
 * Own-channel messages are text unless they say otherwise (spec section 3). The same request
 * answers SMS and email conversations (next-api.md "Every channel in the inbox").
 */
export const ZSendMessageRequest = z.discriminatedUnion('message_type', [
  z.object({
    message_type: z.literal('text').default('text'),
    content: z.string().trim().min(1).max(10_000),
    /** Email conversations: the reply as rich text (sanitised before it is sent); `content` is its text part. */
    html: z.string().max(EMAIL_REPLY_HTML_MAX, 'The message is too long.').optional(),
    /** Email conversations: files uploaded first (POST /api/upload/), by their `key`. */
    attachment_ids: z
      .array(z.string().min(1).max(1000))
      .max(EMAIL_REPLY_ATTACHMENTS_MAX, `Attach at most ${EMAIL_REPLY_ATTACHMENTS_MAX} files.`)
      .optional(),
    /** Email conversations: addresses copied on the reply. */
    cc: z
      .array(z.email({ message: 'Enter a valid email address.' }).max(254))
      .max(EMAIL_REPLY_CC_MAX, `Copy at most ${EMAIL_REPLY_CC_MAX} addresses.`)
      .optional(),
    /** Email conversations: addresses blind-copied (in the envelope only, never in a header). */
    bcc: z
      .array(z.email({ message: 'Enter a valid email address.' }).max(254))
      .max(EMAIL_REPLY_CC_MAX, `Blind-copy at most ${EMAIL_REPLY_CC_MAX} addresses.`)
      .optional(),
    /**
     * Email conversations: a subject of its own starts a new thread in the customer's mail client
     * (no In-Reply-To / References); without it the reply is `Re: <conversation title>`.
     */
    subject: z.string().trim().min(1, 'Enter a subject.').max(500).optional(),
  }),
  z.object({
    message_type: z.literal('file'),
    /** The `key` answered by POST /api/upload/. */
    content: z.string().min(1).max(1000),
  }),
]);
export type TSendMessageRequest = z.infer<typeof ZSendMessageRequest>;
export type TSendMessageRequestInput = z.input<typeof ZSendMessageRequest>;

/** A phone number as staff type it (stored in E.164 with the business's dial code). */
const ZTypedPhone = z.string().trim().min(1, 'Enter a phone number.').max(40);

/**
 * POST /api/msg/conversations/: staff start a conversation on email or SMS with a customer (by id)
 * or an address / number (the customer it belongs to, created when the business has none). The first
 * message leaves through the send spine as replies do; `idempotency_key` makes a retry answer the
 * conversation the first call started instead of sending again.
 */
const startCommon = {
  customer_id: z.number().int().positive().optional(),
  content: z.string().trim().min(1, 'Write a message.').max(10_000),
  /** Email: files uploaded first (POST /api/upload/); SMS: one picture (MMS). */
  attachment_ids: z
    .array(z.string().min(1).max(1000))
    .max(EMAIL_REPLY_ATTACHMENTS_MAX, `Attach at most ${EMAIL_REPLY_ATTACHMENTS_MAX} files.`)
    .optional(),
  /** The chat group the conversation belongs to (a member limited to groups must name one of theirs). */
  chat_group_id: z.number().int().positive().optional(),
  idempotency_key: z.string().trim().min(1).max(200).optional(),
};
const oneRecipient = (
  v: { customer_id?: number | undefined; to?: string | undefined },
  ctx: z.RefinementCtx,
  missing: string,
) => {
  if (v.customer_id === undefined && v.to === undefined)
    ctx.addIssue({ code: 'custom', path: ['to'], message: missing });
  if (v.customer_id !== undefined && v.to !== undefined)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'Give a customer or an address, not both.' });
};
export const ZStartConversationRequest = z.discriminatedUnion('channel', [
  z
    .object({
      channel: z.literal('email'),
      ...startCommon,
      to: z.email({ message: 'Enter a valid email address.' }).max(254).optional(),
      /** An address on a verified sending domain; default: the business's first inbox address, else its default sender. */
      from: z.email({ message: 'Enter a valid email address.' }).max(254).optional(),
      subject: z.string().trim().min(1, 'Enter a subject.').max(500),
      html: z.string().max(EMAIL_REPLY_HTML_MAX, 'The message is too long.').optional(),
      cc: z
        .array(z.email({ message: 'Enter a valid email address.' }).max(254))
        .max(EMAIL_REPLY_CC_MAX, `Copy at most ${EMAIL_REPLY_CC_MAX} addresses.`)
        .optional(),
      bcc: z
        .array(z.email({ message: 'Enter a valid email address.' }).max(254))
        .max(EMAIL_REPLY_CC_MAX, `Blind-copy at most ${EMAIL_REPLY_CC_MAX} addresses.`)
        .optional(),
    })
    .superRefine((v, ctx) => oneRecipient(v, ctx, 'Choose a customer or enter an email address.')),
  z
    .object({ channel: z.literal('sms'), ...startCommon, to: ZTypedPhone.optional() })
    .superRefine((v, ctx) => oneRecipient(v, ctx, 'Choose a customer or enter a phone number.')),
]);
export type TStartConversationRequest = z.infer<typeof ZStartConversationRequest>;
export type TStartConversationRequestInput = z.input<typeof ZStartConversationRequest>;

export const START_CONVERSATION_ERRORS = {
  noCustomer: 'No customer of this business has this id.',
} as const;

/** What starting a conversation answers: the conversation and its first message (its send's id in meta_data). */
export const ZStartedConversation = z.object({ conversation: ZConversation, message: ZMessage });
export type TStartedConversation = z.infer<typeof ZStartedConversation>;

export const ZConversationIdParams = z.object({ id: z.coerce.number().int().positive() });
