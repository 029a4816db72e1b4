// The WhatsApp Business channel: connected numbers, received webhook deliveries, media, templates.
// Sends and their statuses are the spine's (sends.ts).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { businesses } from './business';

/** One connected number per business; tokens are sealed with APP_SECRET and never answered. */
export const whatsappAccounts = pgTable(
  'whatsapp_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    phoneNumberId: text('phone_number_id').notNull(),
    wabaId: text('waba_id').notNull(),
    displayPhoneNumber: text('display_phone_number').notNull(),
    verifyToken: text('verify_token').notNull(),
    accessTokenSealed: text('access_token_sealed').notNull(),
    appSecretSealed: text('app_secret_sealed').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_accounts_business_key').on(t.businessId),
    uniqueIndex('whatsapp_accounts_phone_number_key').on(t.phoneNumberId),
  ],
);

/**
 * Every signed delivery, stored before Meta gets its 200. The table is also the processing queue:
 * pending rows (processed_at null) are claimed in batches once next_attempt_at has come; a row
 * that failed on its own keeps its error and waits longer after each attempt. Processed and
 * given-up rows are deleted WHATSAPP_EVENTS_RETENTION_DAYS after receipt (whatsapp.retention.ts).
 */
export const whatsappWebhookEvents = pgTable(
  'whatsapp_webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => whatsappAccounts.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    processedAt: ts('processed_at'),
    /** Failed attempts at processing this delivery on its own. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When the processor may take it; null once it failed its last allowed attempt. */
    nextAttemptAt: ts('next_attempt_at').defaultNow(),
  },
  (t) => [
    index('whatsapp_webhook_events_pending_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.processedAt} is null`),
    // Retention walks the rows it may delete, oldest first; pending rows are not in it, so the
    // insert before Meta's 200 does not write this index.
    index('whatsapp_webhook_events_done_idx')
      .on(t.receivedAt, t.id)
      .where(sql`${t.processedAt} is not null or ${t.nextAttemptAt} is null`),
  ],
);

/**
 * Media known by its Graph id within a business (another business naming the same id never touches
 * this row): uploaded by staff to send, or received from a customer and fetched by a job.
 * `storageKey` is set once the bytes are kept under public/whatsapp_media/{id}.
 */
export const whatsappMedia = pgTable(
  'whatsapp_media',
  {
    id: text('id').notNull(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    mimeType: text('mime_type').notNull(),
    sha256: text('sha256'),
    fileSize: bigint('file_size', { mode: 'number' }),
    fileName: text('file_name'),
    storageKey: text('storage_key'),
    /** The user who uploaded it to send (null: a customer's media, or uploaded with an API key). */
    uploadedBy: bigint('uploaded_by', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    storedAt: ts('stored_at'),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.id] })],
);

/** The business's message templates as last synced from Meta (one row per name × language). */
export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    metaId: text('meta_id').notNull(),
    name: text('name').notNull(),
    language: text('language').notNull(),
    status: text('status').notNull(),
    category: text('category').notNull(),
    parameterFormat: text('parameter_format'),
    components: jsonb('components').$type<Record<string, unknown>[]>().notNull().default([]),
    syncedAt: ts('synced_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('whatsapp_templates_name_key').on(t.businessId, t.name, t.language)],
);
