// Accounts, sessions (refresh-token families) and one-time keys.
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
  uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns';

export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** Null for accounts that only ever signed in through an identity provider. */
    passwordHash: text('password_hash'),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
    /** The TOTP secret (base32), sealed with APP_SECRET; null when TOTP is off. */
    totpSecret: text('totp_secret'),
    /** A secret handed out by setup and not yet confirmed with a code, sealed. */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: ts('totp_enabled_at'),
    /** The time step of the last accepted code: a code of that step or earlier is refused. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_key').on(t.username),
  ],
);

/** One sign-in: the family of refresh tokens that rotate from it. Revoking it ends the session. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** Signed in while a business of the user requires 2FA and the user had none: enrol first. */
    mfaEnrolmentRequired: boolean('mfa_enrolment_required').notNull().default(false),
    /** How the user proved who they are (RFC 8176 values: pwd, otp, hwk, mfa, …). */
    amr: jsonb('amr').$type<string[]>().notNull().default([]),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    /** Set when exchanged for a new pair; presenting it again is reuse. */
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_session_idx').on(t.sessionId),
  ],
);

export const userKeys = pgTable(
  'user_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('user_keys_hash_key').on(t.keyHash),
    index('user_keys_user_idx').on(t.userId, t.purpose),
  ],
);

/** Identities at OpenID Connect providers linked to an account. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_identities_provider_subject_key').on(t.provider, t.subject)],
);

/** One-time recovery codes of an account with 2FA (sha256 of the code; used once). */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    usedAt: ts('used_at'),
  },
  (t) => [index('user_recovery_codes_user_idx').on(t.userId)],
);

/** Passkeys: WebAuthn credentials registered to an account (id and public key base64url). */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('webauthn_credentials_user_idx').on(t.userId)],
);

/**
 * Short-lived, single-use tokens of a sign-in's second step (`mfa_login`) and WebAuthn ceremonies
 * (`webauthn_register`, `webauthn_authenticate`), by the sha256 of the token handed out.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose', {
      enum: ['mfa_login', 'webauthn_register', 'webauthn_authenticate'],
    }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    challenge: text('challenge'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('auth_challenges_token_key').on(t.tokenHash)],
);
