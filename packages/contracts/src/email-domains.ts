// Sending domains (engage.md §2): a business's own domain, the DNS records it must publish for Titan
// to send as it (ownership, SPF, DKIM, DMARC, return path), and what the last check found per record.
import { z } from 'zod';

export const EMAIL_DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
export type TEmailDomainStatus = (typeof EMAIL_DOMAIN_STATUSES)[number];

export const DNS_RECORD_PURPOSES = ['ownership', 'spf', 'dkim', 'dmarc', 'return_path', 'mx'] as const;
export type TDnsRecordPurpose = (typeof DNS_RECORD_PURPOSES)[number];

export const DNS_RECORD_STATUSES = ['ok', 'missing', 'invalid'] as const;
export type TDnsRecordStatus = (typeof DNS_RECORD_STATUSES)[number];

export const DNS_RECORD_TYPES = ['TXT', 'CNAME', 'MX'] as const;
export type TDnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** One record to publish: where (`host`, a full name), what (`value`), and what the last check found. */
export const ZEmailDomainRecord = z.object({
  purpose: z.enum(DNS_RECORD_PURPOSES),
  type: z.enum(DNS_RECORD_TYPES),
  host: z.string(),
  value: z.string(),
  status: z.enum(DNS_RECORD_STATUSES),
  /** Why, in words a person can act on; null when the record is as it should be. */
  detail: z.string().nullable(),
});
export type TEmailDomainRecord = z.infer<typeof ZEmailDomainRecord>;

export const ZEmailDomain = z.object({
  id: z.number().int(),
  /** ASCII (punycode for an internationalised name), lower case. */
  domain: z.string(),
  status: z.enum(EMAIL_DOMAIN_STATUSES),
  records: z.array(ZEmailDomainRecord),
  last_checked_at: z.string().nullable(),
  /** `Name <local@domain>`: the From of campaigns and send-mail that give none. */
  default_from: z.string().nullable(),
  created_at: z.string(),
});
export type TEmailDomain = z.infer<typeof ZEmailDomain>;

/** The name is checked (and converted to punycode) by the server: junk answers 400 on `domain`. */
export const ZCreateEmailDomainRequest = z.object({
  domain: z.string().trim().min(1).max(300),
});
export type TCreateEmailDomainRequest = z.infer<typeof ZCreateEmailDomainRequest>;

export const EMAIL_DOMAIN_DEFAULT_FROM_ERRORS = {
  format: 'Write the sender as Name <local@domain>, or just local@domain.',
  otherDomain: (domain: string) => `The address must be on ${domain}.`,
} as const;

/** PUT /api/email/domains/{id}/: the domain's default sender (null clears it). */
export const ZUpdateEmailDomainRequest = z.strictObject({
  default_from: z.string().trim().max(320).nullable(),
});
export type TUpdateEmailDomainRequest = z.infer<typeof ZUpdateEmailDomainRequest>;

/** An inbox address's local part: letters, digits and . _ + - (no leading or trailing dot). */
export const ZEmailLocalPart = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Enter the part of the address before the @.')
  .max(64, 'An address’s local part is at most 64 characters.')
  .regex(/^[a-z0-9_+-]+(\.[a-z0-9_+-]+)*$/, 'Use letters, digits and . _ + - only.');

/** POST /api/email/inboxes/ (next-api.md "Every channel in the inbox"). */
export const ZCreateEmailInboxRequest = z.object({
  domain_id: z.number().int().positive(),
  local_part: ZEmailLocalPart,
  chat_group_id: z.number().int().positive().nullable().optional(),
});
export type TCreateEmailInboxRequest = z.infer<typeof ZCreateEmailInboxRequest>;

/** A DNS record (or forwarding rule) to publish for an inbox address to reach Titan. */
export const ZEmailInboxRecord = z.object({
  purpose: z.enum(['receive', 'forward']),
  type: z.enum(['MX', 'FORWARD']),
  host: z.string(),
  value: z.string(),
  priority: z.number().int().nullable(),
  /** What it does, in words a person can act on. */
  detail: z.string(),
});
export type TEmailInboxRecord = z.infer<typeof ZEmailInboxRecord>;

export const ZEmailInbox = z.object({
  id: z.number().int(),
  domain_id: z.number().int(),
  local_part: z.string(),
  address: z.string(),
  chat_group_id: z.number().int().nullable(),
  records: z.array(ZEmailInboxRecord),
  created_at: z.string(),
});
export type TEmailInbox = z.infer<typeof ZEmailInbox>;
