// The send spine (engage.md §1): every outbound message of every channel and cause is one row of
// `sends`, its history in `send_events`. Only modules/sends/sends.repository.ts touches them.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SEND_CHANNELS } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

export type SendChannel = (typeof SEND_CHANNELS)[number];
export const SEND_CAUSES = [
  'staff_reply',
  'template_send',
  'broadcast',
  'agent',
  'test',
  'system',
  'journey',
] as const;
export type SendCause = (typeof SEND_CAUSES)[number];

/**
 * One send. Written `queued` before the provider is called; claimed (`sending`, claimed_at) by
 * the one caller that calls the provider; then accepted (WhatsApp) or sent, and raised by the
 * provider's events in the channel's status order, or failed with the provider's code and reason.
 */
export const sends = pgTable(
  'sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: SEND_CHANNELS }).notNull(),
    cause: text('cause', { enum: SEND_CAUSES }).notNull(),
    causeId: text('cause_id'),
    customerId: bigint('customer_id', { mode: 'number' }),
    conversationId: bigint('conversation_id', { mode: 'number' }),
    /** The address: digits for WhatsApp and SMS, an email address, a customer id for titan_message. */
    recipient: text('recipient').notNull(),
    templateId: bigint('template_id', { mode: 'number' }),
    templateName: text('template_name'),
    subject: text('subject'),
    status: text('status').notNull(),
    providerMessageId: text('provider_message_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** What the provider says it costs (WhatsApp: {category, billable} from its pricing). */
    cost: jsonb('cost').$type<Record<string, unknown>>(),
    idempotencyKey: text('idempotency_key'),
    createdBy: bigint('created_by', { mode: 'number' }),
    /** The body given to the provider (without credentials) and what it answered. */
    providerRequest: jsonb('provider_request').$type<Record<string, unknown>>().notNull().default({}),
    providerResponse: jsonb('provider_response').$type<Record<string, unknown>>(),
    /** What the conversation shows once the provider accepted it (null when nothing is shown). */
    message: jsonb('message').$type<Record<string, unknown>>(),
    claimedAt: ts('claimed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sends_provider_message_key').on(t.businessId, t.channel, t.providerMessageId),
    uniqueIndex('sends_idempotency_key').on(t.businessId, t.idempotencyKey),
    index('sends_business_channel_created_idx').on(t.businessId, t.channel, t.createdAt, t.id),
    // A customer's sends, newest first (the visitor's page; migration 0032).
    index('sends_customer_created_idx')
      .on(t.customerId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.customerId} is not null`),
    // The recovery sweep: only unfinished sends are in it.
    index('sends_unfinished_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
    // A batch's progress (email bulk sends: cause_id = the batch id); migration 0025.
    index('sends_cause_idx')
      .on(t.businessId, t.causeId)
      .where(sql`${t.causeId} is not null`),
    // The SMS pricing sweep: texts ended at Twilio without a price yet (migration 0030).
    index('sends_sms_unpriced_idx')
      .on(t.updatedAt)
      .where(
        sql`${t.channel} = 'sms' and ${t.status} in ('delivered', 'failed') and ${t.providerMessageId} is not null and (${t.cost}->>'price') is null`,
      ),
  ],
);

/**
 * A send's history. WhatsApp statuses are kept once per (business, wamid, status), and Twilio's
 * once per (business, SID, Twilio status), also before the send has stored the provider's id
 * (send_id is filled in when it does); other channels' events (opens, clicks) may repeat.
 */
export const sendEvents = pgTable(
  'send_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    channel: text('channel', { enum: SEND_CHANNELS }).notNull(),
    sendId: uuid('send_id').references(() => sends.id, { onDelete: 'cascade' }),
    providerMessageId: text('provider_message_id'),
    type: text('type').notNull(),
    occurredAt: ts('occurred_at'),
    receivedAt: ts('received_at').notNull().defaultNow(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('send_events_whatsapp_status_key')
      .on(t.businessId, t.channel, t.providerMessageId, t.type)
      .where(sql`${t.channel} = 'whatsapp'`),
    // SMS: each of Twilio's statuses once per message, however often Twilio posts it (migration 0030).
    uniqueIndex('send_events_sms_status_key')
      .on(t.businessId, t.providerMessageId, sql`(${t.payload}->>'provider_status')`)
      .where(
        sql`${t.channel} = 'sms' and ${t.providerMessageId} is not null and ${t.payload} ? 'provider_status'`,
      ),
    // Every lookup by send, and the types of a send's events a campaign report asks for (0078).
    index('send_events_send_type_idx').on(t.sendId, t.type),
  ],
);
