// The shared inbox (spec sections 2, 3, 7; api.md "Conversations").
import { z } from 'zod';
import { ZChatGroup } from './chat-group';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { ZDateTimeParam } from './dates';

export const CONVERSATION_STATUSES = ['active', 'resolved'] as const;
export const ZConversationStatus = z.enum(CONVERSATION_STATUSES);
export type TConversationStatus = z.infer<typeof ZConversationStatus>;

export const CHANNELS = ['whatsapp', 'titan_message'] as const;
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
});
export type TConversation = z.infer<typeof ZConversation>;

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
        ctx.addIssue({ code: 'custom', message: 'Select valid channels: whatsapp, titan_message.' });
        return z.NEVER;
      }
      return parts as TChannel[];
    })
    .optional(),
});
export type TConversationFilter = z.infer<typeof ZConversationFilter>;
export type TConversationFilterInput = z.input<typeof ZConversationFilter>;

export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const ZConversationListQuery = ZConversationFilter.extend(ZPageQuery.shape);
export type TConversationListQuery = z.infer<typeof ZConversationListQuery>;

const ZAssigneeId = z.number().int().positive().nullable();

export const ZUpdateConversationRequest = z
  .object({
    status: ZConversationStatus.optional(),
    is_read: z.boolean().optional(),
    /** A member of the business, or null to unassign. */
    assignee_id: ZAssigneeId.optional(),
  })
  .refine((v) => v.status !== undefined || v.is_read !== undefined || v.assignee_id !== undefined, {
    message: 'Send status, is_read or assignee_id.',
    path: ['non_field_errors'],
  });
export type TUpdateConversationRequest = z.infer<typeof ZUpdateConversationRequest>;

/** POST /api/msg/conversations/bulk/: one change to many conversations, all or none. */
export const ZBulkConversationRequest = z
  .object({
    ids: z.array(z.number().int().positive()).min(1, 'Select at least one conversation.').max(500),
    assignee_id: ZAssigneeId.optional(),
    status: ZConversationStatus.optional(),
  })
  .refine((v) => v.status !== undefined || v.assignee_id !== undefined, {
    message: 'Send assignee_id or status.',
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

export const ZMessageListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MESSAGES_LIMIT_MAX).default(MESSAGES_LIMIT_DEFAULT),
  before: z.string().min(1).max(200).optional(),
});
export type TMessageListQuery = z.infer<typeof ZMessageListQuery>;

/** Own-channel messages are text unless they say otherwise (spec section 3). */
export const ZSendMessageRequest = z.discriminatedUnion('message_type', [
  z.object({
    message_type: z.literal('text').default('text'),
    content: z.string().trim().min(1).max(10_000),
  }),
  z.object({
    message_type: z.literal('file'),
    /** The `key` answered by POST /api/upload/. */
    content: z.string().min(1).max(1000),
  }),
]);
export type TSendMessageRequest = z.infer<typeof ZSendMessageRequest>;
export type TSendMessageRequestInput = z.input<typeof ZSendMessageRequest>;

export const ZConversationIdParams = z.object({ id: z.coerce.number().int().positive() });
