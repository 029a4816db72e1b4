// Alerts for staff (modules/notifications, migration 0050): notifications per member, preferences
// per type, Web Push subscriptions and the server's VAPID keys.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { memberships } from './business';
import { sessions } from './identity';
import { conversations } from './inbox';

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    type: text('type', { enum: ['assigned', 'mentioned', 'new_message', 'sla_breach'] }).notNull(),
    conversationId: bigint('conversation_id', { mode: 'number' }).references(() => conversations.id, {
      onDelete: 'cascade',
    }),
    /** What caused it (`messages:<id>`): one notification per member, type and cause. */
    sourceKey: text('source_key').notNull(),
    actorId: bigint('actor_id', { mode: 'number' }),
    actorName: text('actor_name'),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    inApp: boolean('in_app').notNull().default(true),
    readAt: ts('read_at'),
    /** Claimed before the unread email is sent: at most once, whichever instance claims it. */
    emailClaimedAt: ts('email_claimed_at'),
    pushedAt: ts('pushed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'notifications_membership_fk',
      columns: [t.businessId, t.userId],
      foreignColumns: [memberships.businessId, memberships.userId],
    }).onDelete('cascade'),
    uniqueIndex('notifications_source_key').on(t.userId, t.businessId, t.type, t.sourceKey),
    index('notifications_member_idx').on(t.businessId, t.userId, sql`${t.id} DESC`),
    index('notifications_unread_idx')
      .on(t.businessId, t.userId)
      .where(sql`${t.readAt} IS NULL AND ${t.inApp}`),
    index('notifications_email_due_idx')
      .on(t.createdAt)
      .where(sql`${t.readAt} IS NULL AND ${t.emailClaimedAt} IS NULL`),
    index('notifications_conversation_idx').on(t.conversationId),
  ],
);

export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    type: text('type', { enum: ['assigned', 'mentioned', 'new_message', 'sla_breach'] }).notNull(),
    inApp: boolean('in_app').notNull(),
    push: boolean('push').notNull(),
    email: boolean('email').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'notification_preferences_pk', columns: [t.businessId, t.userId, t.type] }),
    foreignKey({
      name: 'notification_preferences_membership_fk',
      columns: [t.businessId, t.userId],
      foreignColumns: [memberships.businessId, memberships.userId],
    }).onDelete('cascade'),
  ],
);

export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** The sign-in it was made in: it ends with it. */
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'push_subscriptions_membership_fk',
      columns: [t.businessId, t.userId],
      foreignColumns: [memberships.businessId, memberships.userId],
    }).onDelete('cascade'),
    uniqueIndex('push_subscriptions_endpoint_key').on(t.businessId, t.endpoint),
    index('push_subscriptions_member_idx').on(t.businessId, t.userId),
    index('push_subscriptions_session_idx').on(t.sessionId),
  ],
);

/** One row (id 1): the VAPID key pair, the private key sealed with the secrets box. */
export const webPushKeys = pgTable('web_push_keys', {
  id: smallint('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKeySealed: text('private_key_sealed').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Which instance derives a message change's notifications (migration 0097): one row per change
 * (change_log.seq), leased while it is derived, done after. A lapsed lease undone is taken again.
 */
export const notificationDerivations = pgTable(
  'notification_derivations',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    leaseUntil: ts('lease_until').notNull(),
    doneAt: ts('done_at'),
  },
  (t) => [
    index('notification_derivations_undone_idx')
      .on(t.leaseUntil)
      .where(sql`${t.doneAt} IS NULL`),
  ],
);
