// Platform tables: shared rate-limit windows and the development mail outbox.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { businesses } from './business';
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
  (t) => [
    uniqueIndex('stored_files_key_key').on(t.key),
    index('stored_files_business_idx').on(t.businessId),
    // Retention of chat media nobody sent (public-retention.ts), oldest first.
    index('stored_files_chat_media_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.key} like 'public/public_chat_media/%'`),
  ],
);

/** Visitor uploads per business and UTC day, held against VISITOR_UPLOADS_DAILY_MB and _FILES. */
export const visitorUploadDays = pgTable(
  'visitor_upload_days',
  {
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    files: integer('files').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day], name: 'visitor_upload_days_pkey' })],
);
