// Sending domains (engage.md §2) and their DKIM keys. Only
// modules/email-domains/email-domains.repository.ts touches them.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { EMAIL_DOMAIN_STATUSES } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

export const EMAIL_DOMAIN_KEY_STATUSES = ['next', 'active', 'retired'] as const;

/** What the last check found for one record: keyed by purpose and host. */
export type StoredRecordCheck = {
  purpose: string;
  host: string;
  status: 'ok' | 'missing' | 'invalid';
  detail: string | null;
  /** The name servers could not be asked (timeout, refusal): not an answer about the record. */
  lookupFailed?: boolean;
};

/**
 * One domain of one business. Another business may hold the same domain: each proves control with
 * its own ownership token, and only a business whose row is verified may send as it.
 */
export const emailDomains = pgTable(
  'email_domains',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** ASCII (punycode), lower case, no trailing dot. */
    domain: text('domain').notNull(),
    status: text('status', { enum: EMAIL_DOMAIN_STATUSES }).notNull().default('pending'),
    ownershipToken: text('ownership_token').notNull(),
    checks: jsonb('checks').$type<StoredRecordCheck[]>().notNull().default([]),
    lastCheckedAt: ts('last_checked_at'),
    verifiedAt: ts('verified_at'),
    /** `Name <local@domain>`: what campaigns and send-mail without a From use (migration 0058). */
    defaultFrom: text('default_from'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_domains_business_domain_key').on(t.businessId, t.domain),
    index('email_domains_domain_idx').on(t.domain),
    index('email_domains_status_checked_idx').on(t.status, t.lastCheckedAt),
  ],
);

/**
 * A DKIM key of a domain: `active` signs mail; a `next` key is published before the switch, so
 * receivers already find it when the first mail signed with it arrives; `retired` keys stay
 * published a while for mail in flight. The private key is sealed (platform/crypto.ts).
 */
export const emailDomainKeys = pgTable(
  'email_domain_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => emailDomains.id, { onDelete: 'cascade' }),
    selector: text('selector').notNull(),
    status: text('status', { enum: EMAIL_DOMAIN_KEY_STATUSES }).notNull(),
    /** Base64 of the DER SubjectPublicKeyInfo: the p= of the DKIM record. */
    publicKey: text('public_key').notNull(),
    privateKeySealed: text('private_key_sealed').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    activatedAt: ts('activated_at'),
    retiredAt: ts('retired_at'),
  },
  (t) => [
    uniqueIndex('email_domain_keys_selector_key').on(t.domainId, t.selector),
    uniqueIndex('email_domain_keys_active_key')
      .on(t.domainId)
      .where(sql`${t.status} = 'active'`),
    uniqueIndex('email_domain_keys_next_key')
      .on(t.domainId)
      .where(sql`${t.status} = 'next'`),
  ],
);
