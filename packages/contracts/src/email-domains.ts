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
  created_at: z.string(),
});
export type TEmailDomain = z.infer<typeof ZEmailDomain>;

/** The name is checked (and converted to punycode) by the server: junk answers 400 on `domain`. */
export const ZCreateEmailDomainRequest = z.object({
  domain: z.string().trim().min(1).max(300),
});
export type TCreateEmailDomainRequest = z.infer<typeof ZCreateEmailDomainRequest>;
