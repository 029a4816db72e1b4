// Second factors: TOTP (RFC 6238, otpauth) with one-time recovery codes, passkeys (WebAuthn,
// @simplewebauthn/server) as a second factor or a password-less sign-in, the second step of a
// sign-in, a business's demand for 2FA, and the signed-in user's sessions.
import { randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import * as OTPAuth from 'otpauth';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  MFA_ERRORS,
  RECOVERY_CODE_COUNT,
  type TLoginAnswer,
  type TLoginResult,
  type TMfaStatus,
  type TRecoveryCodes,
  type TSession,
  type TTotpSetupResult,
  type TWebauthnOptions,
} from '@titan/contracts';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { forgetSession, forgetUser } from './auth-cache';
import type { Queryable } from '../../db/client';
import * as authRepo from './auth.repository';
import { signIn, type AuthDeps, type ClientInfo } from './auth.service';
import * as repo from './mfa.repository';
import { lazy } from '../../platform/lazy';

/** @simplewebauthn/server (~10 MB of heap) only once someone registers or uses a passkey. */
const webauthn = lazy(() => import('@simplewebauthn/server'));

const MINUTE = 60;
const TOTP_PERIOD = 30;
/** How long the second step of a sign-in, or a WebAuthn ceremony, may take. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one second-step token takes before it is spent. */
const MFA_TOKEN_ATTEMPTS = 5;
/** The RFC 8176 methods that count as a second factor when an identity provider reports them. */
const STRONG_AMR = new Set(['mfa', 'otp', 'hwk']);

function totpFor(secretBase32: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'Titan',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** The time step a code belongs to (the current one ± 1, for clocks a little apart), or null. */
function matchingStep(secretBase32: string, code: string): number | null {
  const delta = totpFor(secretBase32, '').validate({ token: code, window: 1 });
  if (delta === null) return null;
  return Math.floor(Date.now() / 1000 / TOTP_PERIOD) + delta;
}

const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

async function userOrFail(deps: AuthDeps, userId: number): Promise<authRepo.UserRow> {
  const user = await authRepo.findUserById(deps.db, userId);
  if (!user) throw new AppError('unauthorized', MFA_ERRORS.badMfaToken);
  return user;
}

async function hasSecondFactor(deps: AuthDeps, user: authRepo.UserRow): Promise<boolean> {
  if (user.totpSecret) return true;
  return (await repo.listCredentials(deps.db, user.id)).length > 0;
}

/**
 * After the first factor (a password, an identity provider): tokens, or the second step when the
 * account has a second factor and the first did not already include one. A user without a second
 * factor in a business that requires one gets a session that can only enrol.
 */
export async function completeFirstFactor(
  deps: AuthDeps,
  user: authRepo.UserRow,
  client: ClientInfo,
  amr: string[],
): Promise<TLoginAnswer> {
  const strong = amr.some((m) => STRONG_AMR.has(m));
  const enrolled = await hasSecondFactor(deps, user);
  if (!strong && enrolled) {
    const token = randomToken();
    await repo.insertChallenge(deps.db, {
      tokenHash: sha256(token),
      purpose: 'mfa_login',
      userId: user.id,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    });
    return { mfa_required: true, mfa_token: token };
  }
  const mfaEnrolmentRequired = !strong && !enrolled && (await repo.anyBusinessRequires2fa(deps.db, user.id));
  return signIn(deps, user, client, { amr, mfaEnrolmentRequired });
}

/** The live second-step challenge of `token`, or 401. */
async function mfaChallenge(deps: AuthDeps, token: string): Promise<repo.ChallengeRow & { userId: number }> {
  const challenge = await repo.findChallenge(deps.db, sha256(token), 'mfa_login');
  if (!challenge?.userId) throw new AppError('unauthorized', MFA_ERRORS.badMfaToken);
  return challenge as repo.ChallengeRow & { userId: number };
}

const mfaLimits = (client: ClientInfo, userId: number) => ({
  ip: { key: `mfa:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE },
  account: { key: `mfa:account:${userId}`, max: 10, windowSeconds: 15 * MINUTE },
});

/** `POST /api/auth/login/mfa/`: a TOTP code or a recovery code finishes a password sign-in. */
export async function loginMfa(
  deps: AuthDeps,
  input: { mfa_token: string; code?: string | undefined; recovery_code?: string | undefined },
  client: ClientInfo,
): Promise<TLoginResult> {
  // As for the password: every attempt counts against the IP, failures against the account.
  await deps.limiter.hit({ key: `mfa:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE });
  const challenge = await mfaChallenge(deps, input.mfa_token);
  const limits = mfaLimits(client, challenge.userId);
  await deps.limiter.check(limits.account);
  const user = await userOrFail(deps, challenge.userId);
  const fail = async (field: 'code' | 'recovery_code', message: string): Promise<never> => {
    await repo.failChallenge(deps.db, challenge.id, MFA_TOKEN_ATTEMPTS);
    await deps.limiter.hit(limits.account);
    throw AppError.fields({ [field]: [message] }, message);
  };
  let amr: string[];
  if (input.code !== undefined) {
    const secret = user.totpSecret ? deps.secrets.open(user.totpSecret) : null;
    const step = secret ? matchingStep(secret, input.code) : null;
    // A code already used (this step or an earlier one) is refused: no replay within its window.
    if (step === null || !(await repo.claimTotpStep(deps.db, user.id, step))) {
      return fail('code', MFA_ERRORS.badCode);
    }
    amr = ['pwd', 'otp', 'mfa'];
  } else {
    const code = normalizeRecoveryCode(input.recovery_code ?? '');
    if (!code || !(await repo.consumeRecoveryCode(deps.db, user.id, sha256(code)))) {
      return fail('recovery_code', MFA_ERRORS.badRecoveryCode);
    }
    amr = ['pwd', 'mfa'];
  }
  if (!(await repo.useChallenge(deps.db, challenge.id))) {
    throw new AppError('unauthorized', MFA_ERRORS.badMfaToken);
  }
  return signIn(deps, user, client, { amr, mfaEnrolmentRequired: false });
}

export async function totpSetup(deps: AuthDeps, userId: number): Promise<TTotpSetupResult> {
  const user = await userOrFail(deps, userId);
  if (user.totpSecret) throw new AppError('conflict', MFA_ERRORS.alreadyEnabled);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await repo.setPendingTotp(deps.db, userId, deps.secrets.seal(secret));
  return { secret, otpauth_url: totpFor(secret, user.email).toString() };
}

async function issueRecoveryCodes(deps: AuthDeps, tx: Queryable, userId: number) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await repo.replaceRecoveryCodes(
    tx,
    userId,
    codes.map((c) => sha256(normalizeRecoveryCode(c))),
  );
  return codes;
}

export async function totpConfirm(deps: AuthDeps, userId: number, code: string): Promise<TRecoveryCodes> {
  const user = await userOrFail(deps, userId);
  if (user.totpSecret) throw new AppError('conflict', MFA_ERRORS.alreadyEnabled);
  if (!user.totpPendingSecret) throw AppError.fields({ code: [MFA_ERRORS.noPendingSetup] });
  await deps.limiter.hit({ key: `mfa:confirm:${userId}`, max: 10, windowSeconds: 15 * MINUTE });
  const step = matchingStep(deps.secrets.open(user.totpPendingSecret), code);
  if (step === null) throw AppError.fields({ code: [MFA_ERRORS.badCode] }, MFA_ERRORS.badCode);
  const codes = await deps.db.transaction(async (tx) => {
    if (!(await repo.enableTotp(tx, userId, step))) throw new AppError('conflict', MFA_ERRORS.alreadyEnabled);
    await repo.clearEnrolmentRequired(tx, userId);
    return issueRecoveryCodes(deps, tx, userId);
  });
  forgetUser(deps.db, userId);
  return { recovery_codes: codes };
}

/** Turns TOTP off; refused while a business requires 2FA and no passkey would remain. */
export async function totpDisable(deps: AuthDeps, userId: number): Promise<void> {
  const user = await userOrFail(deps, userId);
  if (!user.totpSecret) throw new AppError('conflict', MFA_ERRORS.notEnabled);
  const passkeys = await repo.listCredentials(deps.db, userId);
  if (!passkeys.length && (await repo.anyBusinessRequires2fa(deps.db, userId))) {
    throw new AppError('forbidden', MFA_ERRORS.requiredByBusiness);
  }
  await deps.db.transaction(async (tx) => {
    await repo.disableTotp(tx, userId);
    if (!passkeys.length) await repo.replaceRecoveryCodes(tx, userId, []);
  });
}

export async function mfaStatus(deps: AuthDeps, userId: number, sessionId: string): Promise<TMfaStatus> {
  const user = await userOrFail(deps, userId);
  const session = await repo.findSession(deps.db, sessionId);
  return {
    totp_enabled: Boolean(user.totpSecret),
    recovery_codes_left: await repo.countRecoveryCodesLeft(deps.db, userId),
    passkeys: (await repo.listCredentials(deps.db, userId)).map((c) => ({
      id: c.id,
      name: c.name,
      created_at: c.createdAt.toISOString(),
      last_used_at: c.lastUsedAt?.toISOString() ?? null,
    })),
    enrolment_required: session?.mfaEnrolmentRequired ?? false,
  };
}

export async function regenerateRecoveryCodes(deps: AuthDeps, userId: number): Promise<TRecoveryCodes> {
  const user = await userOrFail(deps, userId);
  if (!(await hasSecondFactor(deps, user))) throw new AppError('conflict', MFA_ERRORS.notEnabled);
  return { recovery_codes: await deps.db.transaction((tx) => issueRecoveryCodes(deps, tx, userId)) };
}

// --- Passkeys ---------------------------------------------------------------------------------

function relyingParty(deps: AuthDeps) {
  const url = new URL(deps.config.PUBLIC_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: 'Titan' };
}

async function newCeremony(
  deps: AuthDeps,
  purpose: 'webauthn_register' | 'webauthn_authenticate',
  userId: number | null,
  challenge: string,
): Promise<string> {
  const token = randomToken();
  await repo.insertChallenge(deps.db, {
    tokenHash: sha256(token),
    purpose,
    userId,
    challenge,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
  return token;
}

async function takeCeremony(
  deps: AuthDeps,
  token: string,
  purpose: 'webauthn_register' | 'webauthn_authenticate',
): Promise<repo.ChallengeRow> {
  const row = await repo.findChallenge(deps.db, sha256(token), purpose);
  if (!row?.challenge || !(await repo.useChallenge(deps.db, row.id))) {
    throw AppError.fields({ response: [MFA_ERRORS.passkeyFailed] }, MFA_ERRORS.passkeyFailed);
  }
  return row;
}

export async function webauthnRegisterOptions(deps: AuthDeps, userId: number): Promise<TWebauthnOptions> {
  const user = await userOrFail(deps, userId);
  const { rpID, rpName } = relyingParty(deps);
  const existing = await repo.listCredentials(deps.db, userId);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    userID: new TextEncoder().encode(`titan-user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const token = await newCeremony(deps, 'webauthn_register', userId, options.challenge);
  return { token, options: options as unknown as Record<string, unknown> };
}

export async function webauthnRegisterVerify(
  deps: AuthDeps,
  userId: number,
  input: { token: string; response: Record<string, unknown>; name?: string | undefined },
): Promise<TMfaStatus['passkeys'][number]> {
  const ceremony = await takeCeremony(deps, input.token, 'webauthn_register');
  if (ceremony.userId !== userId) throw AppError.fields({ response: [MFA_ERRORS.passkeyFailed] });
  const { rpID, origin } = relyingParty(deps);
  let verification;
  try {
    verification = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: ceremony.challenge!,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    throw AppError.fields({ response: [MFA_ERRORS.passkeyFailed] }, MFA_ERRORS.passkeyFailed);
  }
  if (!verification.verified) {
    throw AppError.fields({ response: [MFA_ERRORS.passkeyFailed] }, MFA_ERRORS.passkeyFailed);
  }
  const { credential } = verification.registrationInfo;
  const count = (await repo.listCredentials(deps.db, userId)).length;
  const name = input.name?.trim() || `Passkey ${count + 1}`;
  await deps.db.transaction(async (tx) => {
    await repo.insertCredential(tx, {
      id: credential.id,
      userId,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    });
    await repo.clearEnrolmentRequired(tx, userId);
  });
  forgetUser(deps.db, userId);
  const saved = await repo.findCredential(deps.db, credential.id);
  return {
    id: credential.id,
    name,
    created_at: (saved?.createdAt ?? new Date()).toISOString(),
    last_used_at: null,
  };
}

export async function deletePasskey(deps: AuthDeps, userId: number, id: string): Promise<void> {
  const user = await userOrFail(deps, userId);
  const passkeys = await repo.listCredentials(deps.db, userId);
  if (!passkeys.some((p) => p.id === id)) throw AppError.notFound();
  if (!user.totpSecret && passkeys.length === 1 && (await repo.anyBusinessRequires2fa(deps.db, userId))) {
    throw new AppError('forbidden', MFA_ERRORS.requiredByBusiness);
  }
  await repo.deleteCredential(deps.db, userId, id);
}

/**
 * Options to sign in with a passkey: for the second step of a password sign-in (`mfa_token`: the
 * account's passkeys are allowed) or password-less (any discoverable passkey of this site).
 */
export async function webauthnAuthenticateOptions(
  deps: AuthDeps,
  input: { mfa_token?: string | undefined },
  client: ClientInfo,
): Promise<TWebauthnOptions> {
  await deps.limiter.hit({ key: `mfa:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE });
  const { rpID } = relyingParty(deps);
  let userId: number | null = null;
  let allow: repo.CredentialRow[] = [];
  if (input.mfa_token) {
    const challenge = await mfaChallenge(deps, input.mfa_token);
    userId = challenge.userId;
    allow = await repo.listCredentials(deps.db, userId);
  }
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports as never })),
    userVerification: input.mfa_token ? 'preferred' : 'required',
  });
  const token = await newCeremony(deps, 'webauthn_authenticate', userId, options.challenge);
  return { token, options: options as unknown as Record<string, unknown> };
}

export async function webauthnAuthenticateVerify(
  deps: AuthDeps,
  input: { token: string; response: Record<string, unknown>; mfa_token?: string | undefined },
  client: ClientInfo,
): Promise<TLoginAnswer> {
  await deps.limiter.hit({ key: `mfa:ip:${client.ip}`, max: 30, windowSeconds: 15 * MINUTE });
  const ceremony = await takeCeremony(deps, input.token, 'webauthn_authenticate');
  const response = input.response as unknown as AuthenticationResponseJSON;
  const credential = typeof response.id === 'string' ? await repo.findCredential(deps.db, response.id) : null;
  const passwordless = !input.mfa_token;
  const failed = () => AppError.fields({ response: [MFA_ERRORS.passkeyFailed] }, MFA_ERRORS.passkeyFailed);
  if (!credential) throw failed();
  let mfa: (repo.ChallengeRow & { userId: number }) | null = null;
  if (input.mfa_token) {
    mfa = await mfaChallenge(deps, input.mfa_token);
    if (ceremony.userId !== mfa.userId || credential.userId !== mfa.userId) throw failed();
    await deps.limiter.check(mfaLimits(client, mfa.userId).account);
  } else if (ceremony.userId !== null) {
    throw failed();
  }
  const { rpID, origin } = relyingParty(deps);
  let verification;
  try {
    verification = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response,
      expectedChallenge: ceremony.challenge!,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
        counter: credential.counter,
        transports: credential.transports,
      },
      // Password-less: the passkey is both factors, so the user must be verified (PIN, biometric).
      requireUserVerification: passwordless,
    });
  } catch {
    verification = null;
  }
  if (!verification?.verified) {
    if (mfa) {
      await repo.failChallenge(deps.db, mfa.id, MFA_TOKEN_ATTEMPTS);
      await deps.limiter.hit(mfaLimits(client, mfa.userId).account);
    }
    throw failed();
  }
  await repo.useCredential(deps.db, credential.id, verification.authenticationInfo.newCounter);
  if (mfa && !(await repo.useChallenge(deps.db, mfa.id))) {
    throw new AppError('unauthorized', MFA_ERRORS.badMfaToken);
  }
  const user = await userOrFail(deps, credential.userId);
  const amr = passwordless ? ['hwk', 'user', 'mfa'] : ['pwd', 'hwk', 'mfa'];
  return signIn(deps, user, client, { amr, mfaEnrolmentRequired: false });
}

// --- Sessions ---------------------------------------------------------------------------------

function describeAgent(userAgent: string | null): { browser: string; os: string } {
  if (!userAgent) return { browser: 'Unknown browser', os: '' };
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  return { browser: browser || 'Unknown browser', os: parsed.os.name ?? '' };
}

export async function listSessions(
  deps: AuthDeps,
  userId: number,
  currentSessionId: string | null,
): Promise<TSession[]> {
  const rows = await repo.listUserSessions(deps.db, userId);
  return rows.map((s) => ({
    id: s.id,
    ...describeAgent(s.userAgent),
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_seen: s.lastUsedAt.toISOString(),
    current: s.id === currentSessionId,
  }));
}

/**
 * Ends one of `userId`'s sessions (404 for anyone else's); `alongside` runs in the same
 * transaction (an owner's audit row).
 */
export async function endSession(
  deps: AuthDeps,
  userId: number,
  sessionId: string,
  alongside?: (tx: Queryable) => Promise<void>,
): Promise<void> {
  const session = await repo.findSession(deps.db, sessionId);
  if (!session || session.userId !== userId || session.revokedAt) throw AppError.notFound();
  await deps.db.transaction(async (tx) => {
    await authRepo.revokeSession(tx, sessionId, alongside ? 'ended_by_owner' : 'ended_by_user');
    await alongside?.(tx);
  });
  forgetSession(deps.db, sessionId);
}

export async function findSessionOwner(deps: AuthDeps, sessionId: string): Promise<number | null> {
  const session = await repo.findSession(deps.db, sessionId);
  return session && !session.revokedAt ? session.userId : null;
}
