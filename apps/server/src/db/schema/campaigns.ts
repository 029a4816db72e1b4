// Campaigns (issue 31): only modules/campaigns/campaigns.repository.ts touches these tables. A
// campaign's sends are recorded by broadcasts it feeds (one per variant and run, broadcasts.campaign_id),
// so they carry the broadcasts' idempotency keys; `campaign_recipients` fixes who receives it, when
// (due_at: the schedule, each recipient's local time) and which variant, once sending begins.
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CAMPAIGN_CHANNELS,
  CAMPAIGN_STATUSES,
  type TCampaignAb,
  type TCampaignAudience,
  type TCampaignContent,
  type TCampaignSchedule,
} from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

export const CAMPAIGN_RECIPIENT_STATES = ['pending', 'waiting', 'recorded', 'skipped'] as const;

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    channel: text('channel', { enum: CAMPAIGN_CHANNELS }).notNull(),
    status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('draft'),
    audience: jsonb('audience').$type<TCampaignAudience>().notNull(),
    content: jsonb('content').$type<TCampaignContent>().notNull(),
    sender: text('sender'),
    schedule: jsonb('schedule').$type<TCampaignSchedule>().notNull(),
    throttlePerHour: integer('throttle_per_hour'),
    ab: jsonb('ab').$type<TCampaignAb>(),
    /** Left for the preference centre's topics (consent); null: no topic. */
    topicId: bigint('topic_id', { mode: 'number' }),
    winner: smallint('winner'),
    /**
     * The broadcasts the campaign's sends were recorded under: one per variant and run (a pause
     * closes them, a resume opens new ones); `open` ones take the next batches.
     */
    broadcasts: jsonb('broadcasts')
      .$type<{ id: string; variant: number; open: boolean }[]>()
      .notNull()
      .default([]),
    /** The audience fixed (campaign_recipients written) for this run. */
    preparedAt: ts('prepared_at'),
    /** When the A/B test's sends were all recorded (the wait for the winner counts from it). */
    testDoneAt: ts('test_done_at'),
    skippedReasons: jsonb('skipped_reasons').$type<Record<string, number>>().notNull().default({}),
    scheduledAt: ts('scheduled_at'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    /** Moved by every pass of the sender; a sending campaign untouched for long has stopped (a crash). */
    heartbeatAt: ts('heartbeat_at'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_business_created_idx').on(t.businessId, t.createdAt),
    index('campaigns_active_idx')
      .on(t.status)
      .where(sql`${t.status} in ('scheduled', 'sending')`),
  ],
);

export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).notNull(),
    /** The A/B variant (null: the rest, waiting for the winner). */
    variant: smallint('variant'),
    state: text('state', { enum: CAMPAIGN_RECIPIENT_STATES }).notNull().default('pending'),
    dueAt: ts('due_at').notNull(),
    /** The broadcast its send was recorded under (its idempotency key names both). */
    broadcastId: uuid('broadcast_id'),
    recordedAt: ts('recorded_at'),
    /** Why a `skipped` recipient got no send (the frequency cap's sentence; migration 0084). */
    skipReason: text('skip_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.customerId] }),
    index('campaign_recipients_due_idx')
      .on(t.campaignId, t.dueAt)
      .where(sql`${t.state} = 'pending'`),
    index('campaign_recipients_recorded_idx')
      .on(t.campaignId, t.recordedAt)
      .where(sql`${t.recordedAt} is not null`),
  ],
);
