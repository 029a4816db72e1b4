// OpenID Connect sign-in: the providers to offer, and an authorization code turned into a Titan
// session, linking the provider's account to a Titan user by subject or verified email.
import type { TLoginAnswer, TOAuthLoginRequest, TOAuthProvider } from '@titan/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { recordEvent } from '../analytics';
import * as repo from './auth.repository';
import { forgetUser } from './auth-cache';
import type { AuthDeps, ClientInfo } from './auth.service';
import { completeFirstFactor } from './mfa.service';
import { OidcExchangeError, type OidcClaims, type OidcClient } from './oidc.client';

export type OidcDeps = AuthDeps & {
  /** Null when OIDC sign-in is not configured. */
  oidc: OidcClient | null;
  logger: Pick<Logger, 'warn'>;
};

export const OIDC_ERRORS = {
  unknownProvider: 'This sign-in provider is not available.',
  badRedirectUri: 'This redirect URI is not allowed.',
  exchangeFailed: 'Sign-in with your identity provider failed. Please try again.',
  emailUnverified: 'Your identity provider has not confirmed your email address.',
  emailMissing: 'Your identity provider did not share your email address.',
} as const;

/** Where the web app receives the provider's redirect; the only redirect_uri Titan accepts. */
export const AUTH_FLOW_PATH = '/auth-flow';
const NAME_MAX = 150;
const ZClaimEmail = z
  .email()
  .max(254)
  .transform((v) => v.toLowerCase());

/** The configured providers; a provider that cannot be reached is left out rather than failing the screen. */
export async function listOAuthProviders(deps: OidcDeps): Promise<TOAuthProvider[]> {
  if (!deps.oidc) return [];
  try {
    return [await deps.oidc.describe()];
  } catch (err) {
    deps.logger.warn({ err, issuer: deps.oidc.settings.issuer }, 'OpenID Connect discovery failed');
    return [];
  }
}

export async function oauthLogin(
  deps: OidcDeps,
  input: TOAuthLoginRequest,
  client: ClientInfo,
): Promise<TLoginAnswer> {
  await deps.limiter.hit({ key: `oauth:ip:${client.ip}`, max: 30, windowSeconds: 15 * 60 });
  const provider = deps.oidc;
  if (!provider || input.provider !== provider.id) {
    throw AppError.fields({ provider: [OIDC_ERRORS.unknownProvider] });
  }
  // A code is bound to the redirect_uri it was issued for; accepting only Titan's own keeps codes
  // issued to other places from being redeemed here.
  if (input.redirect_uri !== `${deps.config.PUBLIC_URL}${AUTH_FLOW_PATH}`) {
    throw AppError.fields({ redirect_uri: [OIDC_ERRORS.badRedirectUri] });
  }
  let claims: OidcClaims;
  try {
    claims = await provider.exchange({
      redirectUri: input.redirect_uri,
      code: input.code,
      codeVerifier: input.code_verifier,
      state: input.state,
    });
  } catch (err) {
    if (!(err instanceof OidcExchangeError)) throw err;
    deps.logger.warn({ err: err.cause, requestId: client.requestId }, err.message);
    throw new AppError('bad_request', OIDC_ERRORS.exchangeFailed, {
      non_field_errors: [OIDC_ERRORS.exchangeFailed],
    });
  }
  const { user, created } = await findOrCreateUser(deps, provider.id, claims);
  if (created) {
    await recordEvent(deps.db, {
      event: 'user_signed_up',
      userId: user.id,
      properties: { method: provider.id },
      requestId: client.requestId,
    });
  }
  return completeFirstFactor(deps, user, client, claims.amr);
}

function forbidden(message: string): AppError {
  return new AppError('forbidden', message, { non_field_errors: [message] });
}

/**
 * The Titan user behind the provider's account: the one already linked to this subject; else the
 * one with the same address, linked only on the provider's word that the address is verified;
 * else a new passwordless user.
 */
async function findOrCreateUser(
  deps: OidcDeps,
  provider: string,
  claims: OidcClaims,
  retried = false,
): Promise<{ user: repo.UserRow; created: boolean }> {
  const identity = await repo.findIdentity(deps.db, provider, claims.sub);
  const linked = identity && (await repo.findUserById(deps.db, identity.userId));
  if (linked) return { user: linked, created: false };

  const email = ZClaimEmail.safeParse(claims.email ?? '');
  if (!email.success) throw forbidden(OIDC_ERRORS.emailMissing);
  if (!claims.emailVerified) throw forbidden(OIDC_ERRORS.emailUnverified);

  try {
    const existing = await repo.findUserByEmail(deps.db, email.data);
    if (existing) {
      const user = await deps.db.transaction(async (tx) => {
        await repo.insertIdentity(tx, { userId: existing.id, provider, subject: claims.sub });
        if (existing.isEmailVerified) return existing;
        // Nobody ever proved this address for the local account, so its password may have been
        // chosen by someone else who registered the address first: it goes, with any session.
        await repo.revokeUserSessions(tx, existing.id, 'oidc_link');
        return repo.updateUser(tx, existing.id, { isEmailVerified: true, passwordHash: null });
      });
      forgetUser(deps.db, existing.id);
      return { user: user ?? existing, created: false };
    }
    const user = await deps.db.transaction(async (tx) => {
      const row = await repo.insertUser(tx, {
        email: email.data,
        username: email.data,
        firstName: (claims.givenName ?? (claims.familyName ? '' : (claims.name ?? ''))).slice(0, NAME_MAX),
        lastName: (claims.familyName ?? '').slice(0, NAME_MAX),
        passwordHash: null,
        isEmailVerified: claims.emailVerified,
      });
      await repo.insertIdentity(tx, { userId: row.id, provider, subject: claims.sub });
      return row;
    });
    return { user, created: true };
  } catch (err) {
    // Two first sign-ins racing for one account: the unique indexes pick a winner, and the loser
    // finds what the winner wrote.
    if (retried) throw err;
    return findOrCreateUser(deps, provider, claims, true);
  }
}
