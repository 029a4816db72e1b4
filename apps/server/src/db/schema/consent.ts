// Consent events (only modules/consent/consent.repository.ts touches them): the proof of the
// opt-ins people made themselves — a form's tick, a confirmation mailed, a confirmation followed.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { CONSENT_STATUSES, IMPORT_CONSENT_CHANNELS } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { customers } from './inbox';

export const CONSENT_EVENT_METHODS = [
  'single_opt_in',
  'confirmation_sent',
  'double_opt_in',
  'imported',
] as const;
export type ConsentEventMethod = (typeof CONSENT_EVENT_METHODS)[number];

export const consentEvents = pgTable(
  'consent_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, {
      onDelete: 'set null',
    }),
    channel: text('channel', { enum: IMPORT_CONSENT_CHANNELS }).notNull(),
    address: text('address').notNull(),
    /** The customer's consent on the channel after the event. */
    status: text('status', { enum: CONSENT_STATUSES }).notNull(),
    /** Where it came from: `qr_form`, `import`. */
    source: text('source').notNull(),
    method: text('method', { enum: CONSENT_EVENT_METHODS }).notNull(),
    /** What it belongs to, e.g. `qr_form_submission:<id>`. */
    reference: text('reference'),
    /** The client address the person acted from. */
    ip: text('ip'),
    /** The business's own proof, for what it claimed rather than the person did (`imported`). */
    proof: text('proof'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('consent_events_customer_idx').on(t.businessId, t.customerId, t.createdAt),
    uniqueIndex('consent_events_confirmed_key')
      .on(t.businessId, t.reference, t.channel)
      .where(sql`${t.method} = 'double_opt_in'`),
  ],
);

/** A business's topics ("Offers", "News"): campaigns target one; customers may leave one. */
export const consentTopics = pgTable(
  'consent_topics',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('consent_topics_business_name_key').on(t.businessId, sql`lower(${t.name})`)],
);

/**
 * The customers who left a topic (preference centre, or one-click on a campaign of the topic):
 * a customer is in every topic of the business unless a row here says otherwise.
 */
export const consentTopicOptouts = pgTable(
  'consent_topic_optouts',
  {
    topicId: bigint('topic_id', { mode: 'number' })
      .notNull()
      .references(() => consentTopics.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'consent_topic_optouts_pkey', columns: [t.topicId, t.customerId] }),
    index('consent_topic_optouts_customer_idx').on(t.customerId),
  ],
);
