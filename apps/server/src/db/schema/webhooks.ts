// Outbound webhooks (modules/webhooks): a business's endpoints, the outbox of events (written in
// the transaction of the change they describe) and one delivery per event and endpoint.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { businesses } from './business';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    /** `whsec_…`, sealed with the platform secret box. */
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** The first failure since the last success; null while it answers. */
    failingSince: ts('failing_since'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_business_idx').on(t.businessId)],
);

export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: bigint('endpoint_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    /** Deliveries of one object reach an endpoint in order: `conversation:12`; null for none. */
    objectKey: text('object_key'),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When it may be claimed next: due, a retry's time, or a claim's lease. */
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_object_idx')
      .on(t.endpointId, t.objectKey, t.id)
      .where(sql`${t.status} = 'pending' and ${t.objectKey} is not null`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, sql`${t.id} DESC`),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);
