// Consent events (only modules/consent/consent.repository.ts touches them): the proof of the
// opt-ins people made themselves — a form's tick, a confirmation mailed, a confirmation followed.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { businesses } from './business';
import { CONSENT_STATUSES, customers } from './inbox';

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
    channel: text('channel', { enum: ['email', 'sms', 'whatsapp'] }).notNull(),
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
