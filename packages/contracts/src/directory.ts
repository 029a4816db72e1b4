// The visitor (customer) directory: everyone who chatted or filled a visitor form.
import { z } from 'zod';
import { ZChannel, ZConversationStatus, ZPageQuery } from './conversations';
import { ZPage } from './envelope';
import { ZLabelFilter, ZLabelIds, ZLabelRef } from './labels';

/** A customer's consent on a channel, kept in step with the suppression list. */
export const CONSENT_STATUSES = [
  'subscribed',
  'unsubscribed',
  'bounced',
  'complained',
  'unknown',
  /** Joined a double opt-in list; waits for the person to confirm (link or SMS YES). */
  'pending',
] as const;
export const ZConsentStatus = z.enum(CONSENT_STATUSES);
export type TConsentStatus = z.infer<typeof ZConsentStatus>;
/**
 * What staff may set by hand: every status but `pending`, which only a double opt-in list's
 * confirmation request sets (and the customer's confirmation ends).
 */
export const STAFF_CONSENT_STATUSES = [
  'subscribed',
  'unsubscribed',
  'bounced',
  'complained',
  'unknown',
] as const satisfies readonly TConsentStatus[];
export const CONSENT_PENDING_BY_HAND =
  'Pending is set only when a customer joins a double opt-in list, until they confirm; choose another status.';
const ZStaffConsentStatus = z.enum(STAFF_CONSENT_STATUSES, { message: CONSENT_PENDING_BY_HAND });

export const ZDirectoryVisitor = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  external_id: z.string().nullable(),
  fields: z.record(z.string(), z.unknown()),
  conversation_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  last_seen_at: z.string().nullable(),
  email_status: ZConsentStatus,
  sms_status: ZConsentStatus,
  whatsapp_status: ZConsentStatus,
  labels: z.array(ZLabelRef),
});
export type TDirectoryVisitor = z.infer<typeof ZDirectoryVisitor>;

export const ZDirectoryQuery = ZPageQuery.extend({
  search: z.string().trim().max(200).optional(),
  /** `label=<id>`, repeatable: customers carrying every one of these labels. */
  label: ZLabelFilter.optional(),
});
export type TDirectoryQuery = z.infer<typeof ZDirectoryQuery>;

/**
 * What a customer's phone number is refused with. Every phone is stored in E.164, read with the
 * business's dial code when it is written without a country code.
 */
export const PHONE_ERRORS = {
  invalid: 'Enter a valid phone number.',
  needsCountry: 'Enter the number with its country code.',
} as const;

export const ZUpdateDirectoryVisitorRequest = z.object({
  name: z.string().trim().max(150).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  fields: z.record(z.string(), z.union([z.string().max(2000), z.number(), z.boolean()])).optional(),
  email_status: ZStaffConsentStatus.optional(),
  sms_status: ZStaffConsentStatus.optional(),
  whatsapp_status: ZStaffConsentStatus.optional(),
  /** The customer's labels: the whole set (an empty array removes them all). */
  label_ids: ZLabelIds.optional(),
});
export type TUpdateDirectoryVisitorRequest = z.infer<typeof ZUpdateDirectoryVisitorRequest>;

// ---- At scale: capped counts, CSV export, a visitor's conversations and sends (engage.md §3) ----

/**
 * The directory counts its visitors (or a search's matches) exactly up to this many; beyond it it
 * answers `count: DIRECTORY_COUNT_CAP, count_capped: true` (shown as "1,000+") and pages on with `next`.
 */
export const DIRECTORY_COUNT_CAP = 1000;

export const ZDirectoryPage = ZPage(ZDirectoryVisitor).extend({
  /** True when `count` is the cap, not the number of matches (there are more). */
  count_capped: z.boolean(),
});
export type TDirectoryPage = z.infer<typeof ZDirectoryPage>;

/** GET /api/business/customer-directory/download/: the directory, a list or a segment as CSV. */
export const ZDirectoryExportQuery = z.strictObject({
  search: z.string().trim().max(200).optional(),
  list_id: z.coerce.number().int().positive().optional(),
});
export type TDirectoryExportQuery = z.infer<typeof ZDirectoryExportQuery>;

export const DIRECTORY_EXPORT_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'external_id',
  'email_status',
  'sms_status',
  'whatsapp_status',
  'created_at',
  'last_seen_at',
  'fields',
] as const;

/** One conversation the visitor started, as their page lists it. */
export const ZVisitorConversation = z.object({
  id: z.number().int(),
  title: z.string(),
  status: ZConversationStatus,
  channel: ZChannel,
  is_read: z.boolean(),
  last_message_at: z.string().nullable(),
  created_at: z.string(),
});
export type TVisitorConversation = z.infer<typeof ZVisitorConversation>;

export const VISITOR_SEND_CHANNELS = ['email', 'sms', 'whatsapp', 'titan_message'] as const;

/** One message sent to the visitor (the sends spine), whatever its channel. */
export const ZVisitorSend = z.object({
  tracking_id: z.string(),
  channel: z.enum(VISITOR_SEND_CHANNELS),
  /** As the channel's logs name it (`error`: refused before the provider took it). */
  status: z.string(),
  to: z.string(),
  subject: z.string().nullable(),
  template_name: z.string().nullable(),
  error_message: z.string().nullable(),
  conversation_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TVisitorSend = z.infer<typeof ZVisitorSend>;

export const ZVisitorSendsQuery = ZPageQuery.extend({
  channel: z.enum(VISITOR_SEND_CHANNELS).optional(),
});
export type TVisitorSendsQuery = z.infer<typeof ZVisitorSendsQuery>;
