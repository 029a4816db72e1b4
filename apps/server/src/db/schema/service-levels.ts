// Business hours' away replies, SLA alerts and CSAT surveys (migration 0069, issue 29).
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CHANNELS } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { chatGroups, conversations } from './inbox';

const businessRef = () =>
  bigint('business_id', { mode: 'number' })
    .notNull()
    .references(() => businesses.id, { onDelete: 'cascade' });
const conversationRef = () =>
  bigint('conversation_id', { mode: 'number' })
    .notNull()
    .references(() => conversations.id, { onDelete: 'cascade' });

/** One away reply per conversation and closed period (keyed by when the group opens again). */
export const conversationAwayReplies = pgTable(
  'conversation_away_replies',
  {
    conversationId: conversationRef(),
    businessId: businessRef(),
    period: text('period').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'conversation_away_replies_pk', columns: [t.conversationId, t.period] })],
);

/** One breach alert per conversation, target and deadline. */
export const conversationSlaAlerts = pgTable(
  'conversation_sla_alerts',
  {
    conversationId: conversationRef(),
    businessId: businessRef(),
    kind: text('kind', { enum: ['first_response', 'resolution'] }).notNull(),
    dueAt: ts('due_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'conversation_sla_alerts_pk', columns: [t.conversationId, t.kind, t.dueAt] })],
);

/** A satisfaction survey: asked when a conversation of a CSAT group is resolved, answered by token. */
export const csatSurveys = pgTable(
  'csat_surveys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    conversationId: conversationRef(),
    chatGroupId: bigint('chat_group_id', { mode: 'number' }).references(() => chatGroups.id, {
      onDelete: 'set null',
    }),
    /** Who held the conversation when it was resolved (a user id; the dashboard's per member). */
    assigneeId: bigint('assignee_id', { mode: 'number' }),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    token: text('token').notNull(),
    rating: integer('rating'),
    comment: text('comment'),
    createdAt: ts('created_at').notNull().defaultNow(),
    answeredAt: ts('answered_at'),
  },
  (t) => [
    uniqueIndex('csat_surveys_token_key').on(t.token),
    index('csat_surveys_business_answered_idx').on(t.businessId, t.answeredAt),
    index('csat_surveys_conversation_idx').on(t.conversationId, t.id),
  ],
);
