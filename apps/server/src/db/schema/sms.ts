// The SMS channel (engage.md §4): each business's Twilio account and the texts customers send in.
// Only modules/sms/sms.repository.ts touches these tables.
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { SMS_KEYWORDS } from '@titan/contracts';
import { businesses } from './business';
import { ts } from './columns';
import { customers } from './inbox';

/** A business's Twilio account: its secrets sealed with APP_SECRET; one business per account. */
export const smsAccounts = pgTable(
  'sms_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    accountSid: text('account_sid').notNull(),
    authTokenSealed: text('auth_token_sealed').notNull(),
    apiKeySid: text('api_key_sid'),
    apiKeySecretSealed: text('api_key_secret_sealed'),
    fromNumber: text('from_number'),
    messagingServiceSid: text('messaging_service_sid'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_accounts_business_key').on(t.businessId),
    uniqueIndex('sms_accounts_account_sid_key').on(t.accountSid),
  ],
);

/** A text a customer sent to the business's number, kept on their record (once per message SID). */
export const smsInboundMessages = pgTable(
  'sms_inbound_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, {
      onDelete: 'set null',
    }),
    messageSid: text('message_sid').notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    keyword: text('keyword', { enum: SMS_KEYWORDS }),
    /** Twilio's parameters as posted (NumMedia, MediaUrl0, FromCountry, …). */
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default({}),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_inbound_messages_sid_key').on(t.businessId, t.messageSid),
    index('sms_inbound_messages_customer_idx').on(t.businessId, t.customerId, t.receivedAt),
  ],
);
