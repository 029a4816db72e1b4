// Email sending (issue 14): the suppression list (per business and channel) and bulk batches.
// Only modules/suppressions/suppressions.repository.ts touches `suppressions`; only
// modules/email/email.repository.ts touches `email_batches`.
import { bigint, bigserial, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SEND_CHANNELS } from '@titan/contracts';
import { businesses } from './business';
import { emailDomains } from './email-domains';
import { chatGroups } from './inbox';
import { ts } from './columns';

export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** An address a business must not send to on a channel, and why (its address lower-cased). */
export const suppressions = pgTable(
  'suppressions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: SEND_CHANNELS }).notNull(),
    address: text('address').notNull(),
    reason: text('reason', { enum: SUPPRESSION_REASONS }).notNull(),
    sendId: uuid('send_id'),
    detail: text('detail'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('suppressions_address_key').on(t.businessId, t.channel, t.address)],
);

/** A bulk send: its recipients are sends with cause `broadcast` and cause_id = the batch id. */
export const emailBatches = pgTable(
  'email_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    total: integer('total').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_batches_business_idx').on(t.businessId, t.createdAt)],
);

/**
 * An inbox address of a business (issue 30): `local_part@domain` of one of its verified sending
 * domains; mail to it opens or continues the sender's email conversation (migration 0055).
 * `address` is lower-cased and unique across businesses. Only modules/email touches it.
 */
export const emailInboxes = pgTable(
  'email_inboxes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    domainId: bigint('domain_id', { mode: 'number' })
      .notNull()
      .references(() => emailDomains.id, { onDelete: 'cascade' }),
    localPart: text('local_part').notNull(),
    address: text('address').notNull(),
    chatGroupId: bigint('chat_group_id', { mode: 'number' }).references(() => chatGroups.id, {
      onDelete: 'set null',
    }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_inboxes_address_key').on(t.address),
    index('email_inboxes_business_idx').on(t.businessId, t.id),
  ],
);
