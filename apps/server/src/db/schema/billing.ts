// Billing (engage.md §8, migration 0037): the Chargebee subscription each business holds, usage per
// channel and billing period, top-up credit, Chargebee's webhook events kept once each, and whether
// this deployment enforces billing at all. Only modules/billing/billing.repository.ts writes these.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { businesses } from './business';
import { ts } from './columns';

/** One row (id 1): whether this deployment enforces billing, and its Chargebee site. */
export const billingSettings = pgTable(
  'billing_settings',
  {
    id: smallint('id').primaryKey().default(1),
    enabled: boolean('enabled').notNull().default(false),
    site: text('site'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('billing_settings_id_check', sql`${t.id} = 1`)],
);

/** A business's Chargebee customer and subscription: status, plan, term and the plan's quotas. */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    businessId: bigint('business_id', { mode: 'number' })
      .primaryKey()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull().unique('billing_accounts_customer_id_key'),
    subscriptionId: text('subscription_id'),
    status: text('status').notNull().default('inactive'),
    planItemPriceId: text('plan_item_price_id'),
    planName: text('plan_name'),
    quotas: jsonb('quotas')
      .notNull()
      .default(sql`'{}'::jsonb`),
    currentTermStart: ts('current_term_start'),
    currentTermEnd: ts('current_term_end'),
    resourceVersion: bigint('resource_version', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check(
      'billing_accounts_status_check',
      sql`${t.status} IN ('inactive', 'in_trial', 'active', 'non_renewing', 'paused', 'cancelled')`,
    ),
  ],
);

/** Sends per channel and billing period: reserved when queued, accepted when a provider took them. */
export const billingUsage = pgTable(
  'billing_usage',
  {
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    periodStart: ts('period_start').notNull(),
    reserved: integer('reserved').notNull().default(0),
    accepted: integer('accepted').notNull().default(0),
    extra: integer('extra').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'billing_usage_pkey', columns: [t.businessId, t.channel, t.periodStart] }),
    check('billing_usage_channel_check', sql`${t.channel} IN ('email', 'sms', 'whatsapp')`),
    check('billing_usage_reserved_check', sql`${t.reserved} >= 0`),
    check('billing_usage_accepted_check', sql`${t.accepted} >= 0`),
    check('billing_usage_extra_check', sql`${t.extra} >= 0`),
  ],
);

/** Top-up credit bought with a one-off charge, credited once per invoice. */
export const billingTopUps = pgTable(
  'billing_top_ups',
  {
    invoiceId: text('invoice_id').primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    itemPriceId: text('item_price_id').notNull(),
    channel: text('channel').notNull(),
    units: integer('units').notNull(),
    status: text('status').notNull(),
    creditedAt: ts('credited_at'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('billing_top_ups_business_idx').on(t.businessId, t.createdAt),
    check('billing_top_ups_channel_check', sql`${t.channel} IN ('email', 'sms', 'whatsapp')`),
    check('billing_top_ups_units_check', sql`${t.units} > 0`),
  ],
);

/** Chargebee's webhook events, kept once each (a redelivery is recognised by its id). */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
  eventId: text('event_id').primaryKey(),
  eventType: text('event_type').notNull(),
  businessId: bigint('business_id', { mode: 'number' }).references(() => businesses.id, {
    onDelete: 'set null',
  }),
  outcome: text('outcome').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});
