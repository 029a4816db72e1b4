// The WhatsApp Business channel: connected numbers, received webhook deliveries, status events.
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
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

/** Every signed delivery, stored before Meta gets its 200, processed by a job afterwards. */
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
  },
  (t) => [index('whatsapp_webhook_events_unprocessed_idx').on(t.receivedAt)],
);

/** Each status Meta reported, once per (message, status), kept even before the message is known. */
export const whatsappStatusEvents = pgTable(
  'whatsapp_status_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    messageId: text('message_id').notNull(),
    status: text('status').notNull(),
    timestamp: bigint('timestamp', { mode: 'number' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('whatsapp_status_events_message_status_key').on(t.messageId, t.status)],
);
