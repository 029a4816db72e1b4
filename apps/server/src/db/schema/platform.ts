// Platform tables: shared rate-limit windows and the development mail outbox.
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/** Fixed-window counters shared by every instance (login, register, forgot, verify limits). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

/** Mail kept instead of sent when no SMTP_URL is set outside production. */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    links: jsonb('links').$type<string[]>().notNull().default([]),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [index('dev_outbox_to_idx').on(t.to, t.sentAt)],
);

/** Every uploaded file: who owns it and what it is (type sniffed from its bytes). */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    businessId: bigint('business_id', { mode: 'number' }),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stored_files_key_key').on(t.key), index('stored_files_business_idx').on(t.businessId)],
);
