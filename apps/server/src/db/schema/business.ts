// Businesses (tenants), their members, invitations, join requests and API keys.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { FREQUENCY_CAP_DEFAULT, JOIN_REQUEST_STATUSES, ROLES, type TFrequencyCap } from '@titan/contracts';
import { ts } from './columns';
import { users } from './identity';

const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });

export const businesses = pgTable(
  'businesses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    phoneNumber: text('phone_number'),
    dialCode: text('dial_code'),
    uniqueCode: text('unique_code').notNull(),
    smsCount: integer('sms_count').notNull().default(0),
    emailCount: integer('email_count').notNull().default(0),
    whatsappCount: integer('whatsapp_count').notNull().default(0),
    subscriptionStatus: text('subscription_status').notNull().default('inactive'),
    /** The business's IANA time zone (migration 0043): quiet hours, dashboards' days, schedules, reports. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Origins allowed to embed the chat widget (empty: any). */
    widgetAllowedOrigins: jsonb('widget_allowed_origins').$type<string[]>().notNull().default([]),
    /** HMAC key for visitor identity verification, sealed with APP_SECRET; null = off. */
    widgetIdentitySecret: text('widget_identity_secret'),
    /** Members must sign in with a second factor (those without one enrol at their next sign-in). */
    require2fa: boolean('require_2fa').notNull().default(false),
    /** The marketing frequency cap shared by campaigns, journeys and agents (migration 0084; issue 32). */
    frequencyCap: jsonb('frequency_cap').$type<TFrequencyCap>().notNull().default(FREQUENCY_CAP_DEFAULT),
    createdOn: ts('created_on').notNull().defaultNow(),
    createdBy: userRef('created_by'),
    updatedOn: ts('updated_on').notNull().defaultNow(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [uniqueIndex('businesses_unique_code_key').on(t.uniqueCode)],
);

export const memberships = pgTable(
  'memberships',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    /** A custom role (migration 0052) in place of the built-in one; `role` is then 'agent'. */
    customRoleId: bigint('custom_role_id', { mode: 'number' }).references(() => customRoles.id, {
      onDelete: 'restrict',
    }),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('memberships_business_user_key').on(t.businessId, t.userId),
    index('memberships_user_idx').on(t.userId),
    index('memberships_custom_role_idx')
      .on(t.customRoleId)
      .where(sql`custom_role_id IS NOT NULL`),
  ],
);

/** A business's own role: a set of the existing permissions, optionally scoped to chat groups. */
export const customRoles = pgTable(
  'custom_roles',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** null: the whole business; else only these chat groups' conversations and unassigned ones. */
    chatGroupIds: bigint('chat_group_ids', { mode: 'number' }).array(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('custom_roles_business_name_key').on(t.businessId, sql`lower(${t.name})`)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    /** A custom role offered in place of the built-in one (migration 0065); `role` is then 'agent'.
     * Deleting the role withdraws the invitations that offer it. */
    customRoleId: bigint('custom_role_id', { mode: 'number' }).references(() => customRoles.id, {
      onDelete: 'cascade',
    }),
    tokenHash: text('token_hash').notNull(),
    invitedBy: userRef('invited_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_key').on(t.tokenHash),
    index('invitations_business_idx').on(t.businessId),
    // One open invitation per address and business; a new one replaces the old.
    uniqueIndex('invitations_open_key')
      .on(t.businessId, sql`lower(${t.email})`)
      .where(sql`accepted_at is null and revoked_at is null`),
  ],
);

export const joinRequests = pgTable(
  'join_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: JOIN_REQUEST_STATUSES }).notNull().default('pending'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
    decidedBy: userRef('decided_by'),
  },
  (t) => [
    index('join_requests_business_idx').on(t.businessId, t.status),
    uniqueIndex('join_requests_pending_key')
      .on(t.businessId, t.userId)
      .where(sql`status = 'pending'`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdBy: userRef('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    /** A built-in role (migration 0052); null with no custom role: the original agent + sending. */
    role: text('role', { enum: ROLES }),
    customRoleId: bigint('custom_role_id', { mode: 'number' }).references(() => customRoles.id, {
      onDelete: 'restrict',
    }),
  },
  (t) => [
    uniqueIndex('api_keys_hash_key').on(t.keyHash),
    index('api_keys_business_idx').on(t.businessId),
    index('api_keys_custom_role_idx')
      .on(t.customRoleId)
      .where(sql`custom_role_id IS NOT NULL`),
  ],
);
