// First-party analytics events (spec section 8): recorded by the server and the web app.
import { bigint, bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    event: text('event').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
    userId: bigint('user_id', { mode: 'number' }),
    businessId: bigint('business_id', { mode: 'number' }),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('analytics_events_event_created_idx').on(t.event, t.createdAt),
    // Retention deletes by age, oldest first (public-retention.ts).
    index('analytics_events_created_idx').on(t.createdAt, t.id),
  ],
);
