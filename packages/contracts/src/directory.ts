// The visitor (customer) directory: everyone who chatted or filled a visitor form.
import { z } from 'zod';
import { ZPageQuery } from './conversations';

/** A customer's consent on a channel, kept in step with the suppression list. */
export const CONSENT_STATUSES = ['subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown'] as const;
export const ZConsentStatus = z.enum(CONSENT_STATUSES);
export type TConsentStatus = z.infer<typeof ZConsentStatus>;

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
});
export type TDirectoryVisitor = z.infer<typeof ZDirectoryVisitor>;

export const ZDirectoryQuery = ZPageQuery.extend({ search: z.string().trim().max(200).optional() });
export type TDirectoryQuery = z.infer<typeof ZDirectoryQuery>;

export const ZUpdateDirectoryVisitorRequest = z.object({
  name: z.string().trim().max(150).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  fields: z.record(z.string(), z.union([z.string().max(2000), z.number(), z.boolean()])).optional(),
  email_status: ZConsentStatus.optional(),
  sms_status: ZConsentStatus.optional(),
  whatsapp_status: ZConsentStatus.optional(),
});
export type TUpdateDirectoryVisitorRequest = z.infer<typeof ZUpdateDirectoryVisitorRequest>;
