// The only code that touches users, sessions, refresh_tokens, user_keys and user_identities.
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  businesses,
  customRoles,
  memberships,
  refreshTokens,
  sessions,
  userIdentities,
  userKeys,
  users,
} from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type KeyPurpose = (typeof userKeys.$inferInsert)['purpose'];

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

/** Draws an id from the users sequence as an insert would, for an answer that must look like one. */
export async function reserveUserId(db: Queryable): Promise<number> {
  const result = await db.execute(sql`select nextval(pg_get_serial_sequence('users', 'id')) as id`);
  const [row] = (result as unknown as { rows: { id: string | number }[] }).rows;
  return Number(row!.id);
}

export async function findUserById(db: Queryable, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function insertUser(db: Queryable, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(
  db: Queryable,
  id: number,
  patch: Partial<typeof users.$inferInsert>,
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

export async function insertSession(db: Queryable, values: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(values);
}

/** The session behind an access token, if it is still live. */
export async function findLiveSession(db: Queryable, sessionId: string, userId: number) {
  const [row] = await prepared(db, 'live', prepareLiveSession).execute({
    sessionId,
    userId,
    now: new Date().toISOString(),
  });
  return row ?? null;
}

// Every authenticated request looks its session up: these statements are built and prepared once
// per database (named, so PostgreSQL parses and plans them once per connection). No LIMIT: the
// session id, a business code and a (business, user) membership are each unique.
const liveSession = and(
  eq(sessions.id, sql.placeholder('sessionId')),
  eq(sessions.userId, sql.placeholder('userId')),
  isNull(sessions.revokedAt),
  gt(sessions.expiresAt, sql.placeholder('now')),
);

const prepareLiveSession = (db: Queryable) =>
  db
    .select({
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      mfaEnrolmentRequired: sessions.mfaEnrolmentRequired,
    })
    .from(sessions)
    .where(liveSession)
    .prepare('auth_live_session');

const prepareSessionWithMembership = (db: Queryable) =>
  db
    .select({
      expiresAt: sessions.expiresAt,
      mfaEnrolmentRequired: sessions.mfaEnrolmentRequired,
      businessId: businesses.id,
      uniqueCode: businesses.uniqueCode,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      customPermissions: customRoles.permissions,
      scopeGroupIds: customRoles.chatGroupIds,
    })
    .from(sessions)
    .leftJoin(businesses, eq(businesses.uniqueCode, sql.placeholder('code')))
    .leftJoin(
      memberships,
      and(eq(memberships.businessId, businesses.id), eq(memberships.userId, sql.placeholder('userId'))),
    )
    .leftJoin(customRoles, eq(customRoles.id, memberships.customRoleId))
    .where(liveSession)
    .prepare('auth_session_with_membership');

type SessionStatements = {
  live?: ReturnType<typeof prepareLiveSession>;
  withMembership?: ReturnType<typeof prepareSessionWithMembership>;
};
const sessionStatements = new WeakMap<Queryable, SessionStatements>();

function prepared<K extends keyof SessionStatements>(
  db: Queryable,
  key: K,
  prepare: (db: Queryable) => NonNullable<SessionStatements[K]>,
): NonNullable<SessionStatements[K]> {
  let statements = sessionStatements.get(db);
  if (!statements) sessionStatements.set(db, (statements = {}));
  return (statements[key] ??= prepare(db));
}

export async function revokeSession(db: Queryable, sessionId: string, reason: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Queryable, userId: number, reason: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user but `keep` (the one changing the password). */
export async function revokeOtherSessions(db: Queryable, userId: number, keep: string, reason: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keep)));
}

export async function insertRefreshToken(db: Queryable, values: typeof refreshTokens.$inferInsert) {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshToken(db: Queryable, tokenHash: string) {
  const [row] = await db
    .select({
      id: refreshTokens.id,
      sessionId: refreshTokens.sessionId,
      expiresAt: refreshTokens.expiresAt,
      usedAt: refreshTokens.usedAt,
      userId: sessions.userId,
      sessionRevokedAt: sessions.revokedAt,
      sessionExpiresAt: sessions.expiresAt,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Marks the token used; false when another request used it first (so this one is a reuse). */
export async function claimRefreshToken(db: Queryable, id: number): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function touchSession(db: Queryable, sessionId: string) {
  await db.update(sessions).set({ lastUsedAt: new Date() }).where(eq(sessions.id, sessionId));
}

export async function insertUserKey(db: Queryable, values: typeof userKeys.$inferInsert) {
  await db.insert(userKeys).values(values);
}

/** Uses a one-time key: answers its user id once, and never again. */
export async function consumeUserKey(
  db: Queryable,
  keyHash: string,
  purpose: KeyPurpose,
): Promise<number | null> {
  const [row] = await db
    .update(userKeys)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userKeys.keyHash, keyHash),
        eq(userKeys.purpose, purpose),
        isNull(userKeys.usedAt),
        gt(userKeys.expiresAt, new Date()),
      ),
    )
    .returning({ userId: userKeys.userId });
  return row?.userId ?? null;
}

export async function expireUserKeys(db: Queryable, userId: number, purpose: KeyPurpose) {
  await db
    .update(userKeys)
    .set({ usedAt: new Date() })
    .where(and(eq(userKeys.userId, userId), eq(userKeys.purpose, purpose), isNull(userKeys.usedAt)));
}

export async function listMembershipSummaries(db: Queryable, userId: number) {
  return db
    .select({
      id: businesses.id,
      name: businesses.name,
      unique_code: businesses.uniqueCode,
      // A custom role by id, else the built-in role's value.
      role: sql<string | number>`coalesce(${memberships.customRoleId}::text, ${memberships.role})`.mapWith(
        (v: string) => (/^\d+$/.test(v) ? Number(v) : v),
      ),
      subscription_status: businesses.subscriptionStatus,
    })
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .where(eq(memberships.userId, userId))
    .orderBy(memberships.joinedAt, businesses.id);
}

export async function findIdentity(db: Queryable, provider: string, subject: string) {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

export async function insertIdentity(db: Queryable, values: typeof userIdentities.$inferInsert) {
  await db.insert(userIdentities).values(values).onConflictDoNothing();
}

/**
 * One round trip for a staff call: is the session live, and what is the user's role in the
 * business named by `code` (null when the code is unknown or the user is not a member).
 */
export async function findSessionWithMembership(
  db: Queryable,
  sessionId: string,
  userId: number,
  code: string,
) {
  const [row] = await prepared(db, 'withMembership', prepareSessionWithMembership).execute({
    sessionId,
    userId,
    code,
    now: new Date().toISOString(),
  });
  if (!row) return null;
  return {
    expiresAt: row.expiresAt,
    mfaEnrolmentRequired: row.mfaEnrolmentRequired,
    membership:
      row.businessId !== null && row.uniqueCode !== null && row.role !== null
        ? {
            businessId: row.businessId,
            uniqueCode: row.uniqueCode,
            role: row.role,
            customRoleId: row.customRoleId,
            customPermissions: row.customRoleId === null ? null : (row.customPermissions ?? []),
            scopeGroupIds: row.scopeGroupIds,
          }
        : null,
  };
}
