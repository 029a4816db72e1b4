// Accounts and sessions: registration, verification, login, rotation, logout, password reset.
import { randomUUID } from 'node:crypto';
import {
  PASSWORD_CHANGE_ERRORS,
  REFRESH_TOKEN_TTL_SECONDS,
  type TLoginAnswer,
  type TLoginResult,
  type TMembershipSummary,
  type TTokenPair,
  type TUser,
} from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { randomToken, sha256, type SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { countHit, type RateLimiter } from '../../platform/rate-limiter';
import { recordEvent } from '../analytics';
import { forgetSession, forgetUser } from './auth-cache';
import { accountExistsMail, passwordResetMail, verificationMail } from './auth.mails';
import * as repo from './auth.repository';
import { completeFirstFactor } from './mfa.service';
import { burnPasswordCheck, hashPassword, isCommonPassword, verifyPassword } from './passwords';
import type { AccessTokens } from './tokens';

export type AuthDeps = {
  db: Db;
  secrets: SecretBox;
  mailer: Mailer;
  limiter: RateLimiter;
  tokens: AccessTokens;
  config: Pick<Config, 'PUBLIC_URL'>;
};

/** Who is calling, for rate limits and the session record. */
export type ClientInfo = { ip: string; userAgent: string | null; requestId: string };

export const MESSAGES = {
  commonPassword: 'This password is too common.',
  badCredentials: 'Unable to log in with provided credentials.',
  unverified: 'Your email address is not verified yet. Open the link we sent you, or ask for a new one.',
  badVerifyKey: 'This confirmation link is invalid or has expired.',
  badResetKey: 'This password reset link is invalid or has expired.',
  badRefresh: 'Your session has expired. Please log in again.',
} as const;

const VERIFY_KEY_TTL_MS = 3 * 24 * 60 * 60 * 1000;
const RESET_KEY_TTL_MS = 60 * 60 * 1000;
const MINUTE = 60;

export function toUser(row: repo.UserRow): TUser {
  return {
    pk: row.id,
    username: row.username,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    is_email_verified: row.isEmailVerified,
  };
}

async function sendVerification(deps: AuthDeps, user: repo.UserRow): Promise<void> {
  const key = randomToken();
  await repo.insertUserKey(deps.db, {
    userId: user.id,
    purpose: 'verify_email',
    keyHash: sha256(key),
    expiresAt: new Date(Date.now() + VERIFY_KEY_TTL_MS),
  });
  const url = `${deps.config.PUBLIC_URL}/auth/account-confirm-email/${key}`;
  await deps.mailer.send(verificationMail(user.email, user.firstName, url));
}

export async function register(
  deps: AuthDeps,
  input: { first_name: string; last_name: string; email: string; password: string },
  client: ClientInfo,
): Promise<TUser> {
  await deps.limiter.hit({ key: `register:ip:${client.ip}`, max: 10, windowSeconds: 60 * MINUTE });
  if (isCommonPassword(input.password)) throw AppError.fields({ password: [MESSAGES.commonPassword] });
  // Hashed before the address is looked up, so a taken address answers in the same time.
  const passwordHash = await hashPassword(input.password);
  const owner = await repo.findUserByEmail(deps.db, input.email);
  if (owner) return answerForTakenEmail(deps, owner, input);
  let user: repo.UserRow;
  try {
    user = await repo.insertUser(deps.db, {
      email: input.email,
      username: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      passwordHash,
    });
  } catch (err) {
    // Two registrations racing for one address: the unique index decides.
    const winner = await repo.findUserByEmail(deps.db, input.email);
    if (winner) return answerForTakenEmail(deps, winner, input);
    throw err;
  }
  await sendVerification(deps, user);
  await recordEvent(deps.db, { event: 'user_signed_up', userId: user.id, requestId: client.requestId });
  return toUser(user);
}

/** Mails to the owner of an address someone tried to register again, at most this many an hour. */
const TAKEN_EMAIL_MAILS_PER_HOUR = 3;

/**
 * Registering a taken address answers exactly as for a new one — the answer must not tell anyone
 * whose address has an account — and the owner hears of it by mail: an unverified owner gets a
 * fresh confirmation link, a verified one a note pointing at log in and password reset. The
 * account itself is left as it was.
 */
async function answerForTakenEmail(
  deps: AuthDeps,
  owner: repo.UserRow,
  input: { first_name: string; last_name: string; email: string },
): Promise<TUser> {
  const { count } = await countHit(deps.db, `register:taken:${owner.id}`, 60 * MINUTE);
  if (count <= TAKEN_EMAIL_MAILS_PER_HOUR) {
    if (owner.isEmailVerified) {
      const base = deps.config.PUBLIC_URL;
      await deps.mailer.send(
        accountExistsMail(owner.email, owner.firstName, `${base}/login`, `${base}/forgot-password`),
      );
    } else {
      await sendVerification(deps, owner);
    }
  }
  // A new account's pk comes from the users sequence: so does this one, so the numbers show no gap.
  return {
    pk: await repo.reserveUserId(deps.db),
    username: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    is_email_verified: false,
  };
}

export async function verifyEmail(deps: AuthDeps, key: string, client: ClientInfo): Promise<TUser> {
  await deps.limiter.hit({ key: `verify:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE });
  const userId = await repo.consumeUserKey(deps.db, sha256(key), 'verify_email');
  if (!userId) throw AppError.fields({ key: [MESSAGES.badVerifyKey] });
  const user = await repo.updateUser(deps.db, userId, { isEmailVerified: true });
  return toUser(user!);
}

export async function resendVerification(deps: AuthDeps, email: string, client: ClientInfo): Promise<void> {
  await deps.limiter.hit(
    { key: `verify:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE },
    { key: `resend:account:${email}`, max: 3, windowSeconds: 60 * MINUTE },
  );
  const user = await repo.findUserByEmail(deps.db, email);
  if (user && !user.isEmailVerified) await sendVerification(deps, user);
}

/** How a sign-in proved who the user is (RFC 8176 `amr`), and whether it must enrol in 2FA first. */
export type SignInProof = { amr: string[]; mfaEnrolmentRequired: boolean };

async function startSession(
  deps: AuthDeps,
  user: repo.UserRow,
  client: ClientInfo,
  proof: SignInProof,
): Promise<TTokenPair> {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000);
  const refresh = randomToken();
  await deps.db.transaction(async (tx) => {
    await repo.insertSession(tx, {
      id: sessionId,
      userId: user.id,
      expiresAt,
      userAgent: client.userAgent,
      ip: client.ip,
      amr: proof.amr,
      mfaEnrolmentRequired: proof.mfaEnrolmentRequired,
    });
    await repo.insertRefreshToken(tx, { sessionId, tokenHash: sha256(refresh), expiresAt });
  });
  return { access: await deps.tokens.sign(user.id, sessionId), refresh };
}

/** Signs a known user in: a new session, tokens, last login and the analytics event. */
export async function signIn(
  deps: AuthDeps,
  user: repo.UserRow,
  client: ClientInfo,
  proof: SignInProof = { amr: ['pwd'], mfaEnrolmentRequired: false },
): Promise<TLoginResult> {
  const pair = await startSession(deps, user, client, proof);
  const updated = await repo.updateUser(deps.db, user.id, { lastLoginAt: new Date() });
  await recordEvent(deps.db, { event: 'user_logged_in', userId: user.id, requestId: client.requestId });
  return { ...pair, user: toUser(updated ?? user) };
}

export async function login(
  deps: AuthDeps,
  input: { email: string; password: string },
  client: ClientInfo,
): Promise<TLoginAnswer> {
  // Every attempt counts against the IP; only failures count against the account, so someone
  // signing in on several devices is never locked out by their own successes.
  const accountLimit = { key: `login:account:${input.email}`, max: 10, windowSeconds: 15 * MINUTE };
  await deps.limiter.hit({ key: `login:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE });
  await deps.limiter.check(accountLimit);
  const user = await repo.findUserByEmail(deps.db, input.email);
  const valid = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await burnPasswordCheck(input.password).then(() => false);
  if (!user || !valid) {
    await deps.limiter.hit(accountLimit);
    throw new AppError('bad_request', MESSAGES.badCredentials, {
      non_field_errors: [MESSAGES.badCredentials],
    });
  }
  if (!user.isEmailVerified)
    throw new AppError('forbidden', MESSAGES.unverified, { non_field_errors: [MESSAGES.unverified] });
  return completeFirstFactor(deps, user, client, ['pwd']);
}

/** Exchanges a refresh token for a new pair. Presenting a used token ends its whole session. */
export async function refresh(deps: AuthDeps, token: string): Promise<TTokenPair> {
  const found = await repo.findRefreshToken(deps.db, sha256(token));
  const now = new Date();
  if (!found || found.sessionRevokedAt || found.sessionExpiresAt <= now || found.expiresAt <= now) {
    throw new AppError('unauthorized', MESSAGES.badRefresh);
  }
  if (found.usedAt || !(await repo.claimRefreshToken(deps.db, found.id))) {
    await repo.revokeSession(deps.db, found.sessionId, 'refresh_token_reuse');
    forgetSession(deps.db, found.sessionId);
    throw new AppError('unauthorized', MESSAGES.badRefresh);
  }
  const next = randomToken();
  await repo.insertRefreshToken(deps.db, {
    sessionId: found.sessionId,
    tokenHash: sha256(next),
    expiresAt: found.sessionExpiresAt,
  });
  await repo.touchSession(deps.db, found.sessionId);
  return { access: await deps.tokens.sign(found.userId, found.sessionId), refresh: next };
}

export async function logout(deps: AuthDeps, token: string): Promise<void> {
  const found = await repo.findRefreshToken(deps.db, sha256(token));
  if (!found) return;
  await repo.revokeSession(deps.db, found.sessionId, 'logout');
  forgetSession(deps.db, found.sessionId);
}

export async function forgotPassword(deps: AuthDeps, email: string, client: ClientInfo): Promise<void> {
  await deps.limiter.hit(
    { key: `forgot:ip:${client.ip}`, max: 10, windowSeconds: 60 * MINUTE },
    { key: `forgot:account:${email}`, max: 5, windowSeconds: 60 * MINUTE },
  );
  const user = await repo.findUserByEmail(deps.db, email);
  if (!user) return;
  const key = randomToken();
  await repo.insertUserKey(deps.db, {
    userId: user.id,
    purpose: 'reset_password',
    keyHash: sha256(key),
    expiresAt: new Date(Date.now() + RESET_KEY_TTL_MS),
  });
  const url = `${deps.config.PUBLIC_URL}/forgot-password/${Buffer.from(user.email).toString('base64url')}/${key}`;
  await deps.mailer.send(passwordResetMail(user.email, user.firstName, url));
}

export async function resetPassword(
  deps: AuthDeps,
  input: { email: string; key: string; password: string },
  client: ClientInfo,
): Promise<void> {
  await deps.limiter.hit({ key: `reset:ip:${client.ip}`, max: 20, windowSeconds: 15 * MINUTE });
  if (isCommonPassword(input.password)) throw AppError.fields({ password: [MESSAGES.commonPassword] });
  const user = await repo.findUserByEmail(deps.db, input.email);
  const passwordHash = await hashPassword(input.password);
  const resetUserId = await deps.db.transaction(async (tx) => {
    const userId = user ? await repo.consumeUserKey(tx, sha256(input.key), 'reset_password') : null;
    if (!user || userId !== user.id) throw AppError.fields({ key: [MESSAGES.badResetKey] });
    // Opening the mailed link proves the address, so the account counts as verified too.
    await repo.updateUser(tx, user.id, { passwordHash, isEmailVerified: true });
    await repo.expireUserKeys(tx, user.id, 'reset_password');
    await repo.revokeUserSessions(tx, user.id, 'password_reset');
    return user.id;
  });
  forgetUser(deps.db, resetUserId);
}

/**
 * A signed-in member changes their password: the current one first (rate limited as logins are),
 * then the new one is stored and every other session of theirs is signed out; this one stays.
 */
export async function changePassword(
  deps: AuthDeps,
  caller: { userId: number; sessionId: string },
  input: { current_password: string; new_password: string },
  client: ClientInfo,
): Promise<void> {
  await deps.limiter.hit({
    key: `password-change:user:${caller.userId}`,
    max: 10,
    windowSeconds: 15 * MINUTE,
  });
  await deps.limiter.hit({ key: `password-change:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE });
  const user = await repo.findUserById(deps.db, caller.userId);
  if (!user) throw new AppError('unauthorized', MESSAGES.badRefresh);
  const ok = user.passwordHash ? await verifyPassword(user.passwordHash, input.current_password) : false;
  if (!ok) throw AppError.fields({ current_password: [PASSWORD_CHANGE_ERRORS.wrongCurrent] });
  if (isCommonPassword(input.new_password))
    throw AppError.fields({ new_password: [MESSAGES.commonPassword] });
  const passwordHash = await hashPassword(input.new_password);
  await deps.db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { passwordHash });
    await repo.revokeOtherSessions(tx, user.id, caller.sessionId, 'password_change');
  });
  forgetUser(deps.db, user.id);
}

export async function getProfile(
  db: Db,
  userId: number,
): Promise<TUser & { businesses: TMembershipSummary[] }> {
  const user = await repo.findUserById(db, userId);
  if (!user) throw new AppError('unauthorized', MESSAGES.badRefresh);
  const businesses = (await repo.listMembershipSummaries(db, userId)) as TMembershipSummary[];
  return { ...toUser(user), businesses };
}

export async function updateProfile(
  db: Db,
  userId: number,
  input: { first_name: string; last_name: string },
): Promise<TUser & { businesses: TMembershipSummary[] }> {
  await repo.updateUser(db, userId, { firstName: input.first_name, lastName: input.last_name });
  return getProfile(db, userId);
}
