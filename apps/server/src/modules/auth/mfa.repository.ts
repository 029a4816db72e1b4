// The only code that touches user_recovery_codes, webauthn_credentials, auth_challenges, and the
// TOTP columns of users and the 2FA columns of sessions.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import {
  authChallenges,
  businesses,
  memberships,
  sessions,
  userRecoveryCodes,
  users,
  webauthnCredentials,
} from '../../db/schema';
import type { Queryable } from '../../db/client';

export type ChallengePurpose = (typeof authChallenges.$inferInsert)['purpose'];
export type ChallengeRow = typeof authChallenges.$inferSelect;
export type CredentialRow = typeof webauthnCredentials.$inferSelect;

export async function setPendingTotp(db: Queryable, userId: number, sealed: string) {
  await db.update(users).set({ totpPendingSecret: sealed }).where(eq(users.id, userId));
}

/** Turns the pending secret on, once: false when none was pending (or TOTP is already on). */
export async function enableTotp(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      totpSecret: sql`${users.totpPendingSecret}`,
      totpPendingSecret: null,
      totpEnabledAt: new Date(),
      totpLastStep: step,
    })
    .where(and(eq(users.id, userId), sql`${users.totpPendingSecret} is not null`, isNull(users.totpSecret)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function disableTotp(db: Queryable, userId: number) {
  await db
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(users.id, userId));
}

/**
 * Records `step` as the last accepted one, only if it is later than the one recorded: a code is
 * accepted once, and a second request with the same code loses this race.
 */
export async function claimTotpStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function replaceRecoveryCodes(db: Queryable, userId: number, hashes: string[]) {
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  if (hashes.length) {
    await db.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
  }
}

/** Uses a recovery code: true once, never again. */
export async function consumeRecoveryCode(db: Queryable, userId: number, hash: string): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, hash),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function listCredentials(db: Queryable, userId: number): Promise<CredentialRow[]> {
  return db
    .select()
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(webauthnCredentials.createdAt);
}

export async function findCredential(db: Queryable, id: string): Promise<CredentialRow | null> {
  const [row] = await db.select().from(webauthnCredentials).where(eq(webauthnCredentials.id, id));
  return row ?? null;
}

export async function insertCredential(db: Queryable, values: typeof webauthnCredentials.$inferInsert) {
  await db.insert(webauthnCredentials).values(values);
}

export async function useCredential(db: Queryable, id: string, counter: number) {
  await db
    .update(webauthnCredentials)
    .set({ counter, lastUsedAt: new Date() })
    .where(eq(webauthnCredentials.id, id));
}

export async function deleteCredential(db: Queryable, userId: number, id: string): Promise<boolean> {
  const rows = await db
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.userId, userId), eq(webauthnCredentials.id, id)))
    .returning({ id: webauthnCredentials.id });
  return rows.length > 0;
}

export async function insertChallenge(db: Queryable, values: typeof authChallenges.$inferInsert) {
  await db.insert(authChallenges).values(values);
}

/** A live (unused, unexpired) challenge of `purpose` by its token's hash. */
export async function findChallenge(
  db: Queryable,
  tokenHash: string,
  purpose: ChallengePurpose,
): Promise<ChallengeRow | null> {
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(
      and(
        eq(authChallenges.tokenHash, tokenHash),
        eq(authChallenges.purpose, purpose),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/** Marks a challenge used: true for the one caller that did. */
export async function useChallenge(db: Queryable, id: number): Promise<boolean> {
  const rows = await db
    .update(authChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)))
    .returning({ id: authChallenges.id });
  return rows.length > 0;
}

/** Counts a failed attempt; the challenge is spent once `max` is reached. */
export async function failChallenge(db: Queryable, id: number, max: number): Promise<void> {
  await db
    .update(authChallenges)
    .set({
      attempts: sql`${authChallenges.attempts} + 1`,
      usedAt: sql`case when ${authChallenges.attempts} + 1 >= ${max} then now() else null end`,
    })
    .where(eq(authChallenges.id, id));
}

export async function pruneChallenges(db: Queryable, before: Date) {
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, before));
}

/** Does any business the user belongs to require 2FA? */
export async function anyBusinessRequires2fa(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: businesses.id })
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .where(and(eq(memberships.userId, userId), eq(businesses.require2fa, true)))
    .limit(1);
  return Boolean(row);
}

export async function clearEnrolmentRequired(db: Queryable, userId: number) {
  await db
    .update(sessions)
    .set({ mfaEnrolmentRequired: false })
    .where(and(eq(sessions.userId, userId), eq(sessions.mfaEnrolmentRequired, true)));
}

export async function listUserSessions(db: Queryable, userId: number) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(sql`${sessions.lastUsedAt} desc`);
}

export async function findSession(db: Queryable, id: string) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row ?? null;
}
