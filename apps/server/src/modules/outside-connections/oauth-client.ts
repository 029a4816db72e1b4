// Titan as an OAuth client of outside servers (MCP servers, OAuth plugins): connect states that are
// single-use and bound to the business and user who started them, tokens sealed at rest, and
// refreshes taken one at a time per connection through a lease in the database — across processes —
// so two runs never present the same refresh token (strict servers revoke the grant when a rotated
// token comes back). A refused grant (`invalid_grant`) marks the connection expired, once.
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_ERRORS, type TConnectionStatus } from '@titan/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { LeasedRow } from '../../db/connection-rows';
import { randomToken, sha256, type SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { outboundErrorWords, type OutboundDeps } from '../../platform/safe-fetch';
import { findMembers } from '../team';
import { connectionExpiredMail } from './connection-mails';
import * as repo from './connect-states.repository';

export type OAuthDeps = OutboundDeps & {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
  /** Tells the business's owners and admins when a connection's grant ends (none: not told by mail). */
  mailer?: Mailer;
};

/**
 * Nobody watches a scheduled run: when a grant ends, the business's owners and admins get a mail
 * saying which connection, what it means for their agents, and where to reconnect it. Once per
 * expiry (only the process that marked it expired sends it); a failed mail never fails the run.
 */
export async function tellConnectionExpired(
  deps: OAuthDeps,
  businessId: number,
  what: { kind: 'MCP server' | 'plugin'; name: string; tab: 'mcp-servers' | 'plugins' },
): Promise<void> {
  if (!deps.mailer) return;
  try {
    const members = await findMembers(deps.db, businessId);
    const url = `${deps.publicUrl}/engage/settings/${what.tab}`;
    for (const m of members) {
      if (m.role !== 'owner' && m.role !== 'admin') continue;
      await deps.mailer.send(connectionExpiredMail(m.user.email, what.kind, what.name, url));
    }
  } catch (err) {
    deps.logger.warn({ err, businessId }, 'could not tell the business that a connection expired');
  }
}

/** How long a connect link may take from Titan to the authorization server and back. */
const STATE_TTL_MS = 10 * 60 * 1000;
/** How long one process may hold a connection's refresh before others may take over. */
const LEASE_MS = 30_000;
/** How long a caller waits for another process's refresh. */
const WAIT_MS = 20_000;

export class GrantExpired extends Error {}

/** Only a signed-in person can connect: the state is bound to them. */
export function requireUser(userId: number | null): number {
  if (userId === null)
    throw new AppError('forbidden', 'Connecting with OAuth needs a signed-in person, not an API key.');
  return userId;
}

export async function newConnectState(
  deps: OAuthDeps,
  values: {
    businessId: number;
    userId: number;
    kind: 'mcp' | 'plugin';
    targetId: number;
    codeVerifier: string;
    redirectUri: string;
    issuer: string | null;
  },
  state = randomToken(32),
): Promise<string> {
  await repo.insertConnectState(deps.db, {
    stateHash: sha256(state),
    businessId: values.businessId,
    userId: values.userId,
    kind: values.kind,
    targetId: values.targetId,
    codeVerifierSealed: deps.secrets.seal(values.codeVerifier),
    redirectUri: values.redirectUri,
    issuer: values.issuer,
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  return state;
}

/** The state's connect attempt, taken once; 400 when it is unknown, used, expired, or someone else's. */
export async function takeConnectState(
  deps: OAuthDeps,
  where: { businessId: number; userId: number; kind: 'mcp' | 'plugin'; state: string },
): Promise<repo.ConnectStateRow & { codeVerifier: string }> {
  const row = await repo.consumeConnectState(deps.db, {
    stateHash: sha256(where.state),
    businessId: where.businessId,
    userId: where.userId,
    kind: where.kind,
  });
  if (!row) throw AppError.fields({ state: [MCP_ERRORS.stateInvalid] });
  return { ...row, codeVerifier: deps.secrets.open(row.codeVerifierSealed) };
}

/** RFC 9207: an `iss` that is not the server Titan asked is refused; required when the server says it sends one. */
export function checkIssuer(expected: string | null, iss: string | undefined, required: boolean): void {
  if (iss === undefined ? required : expected !== null && iss !== expected)
    throw AppError.fields({ iss: [MCP_ERRORS.issuerMismatch] });
}

export type TokenColumns = {
  accessTokenSealed: string | null;
  refreshTokenSealed: string | null;
  tokenExpiresAt: Date | null;
};

/** What to store of a token answer: a rotated refresh token always replaces the old one. */
export function sealTokens(
  secrets: SecretBox,
  tokens: OAuthTokens,
  previousRefresh: string | null,
): TokenColumns {
  return {
    accessTokenSealed: secrets.seal(tokens.access_token),
    refreshTokenSealed: tokens.refresh_token ? secrets.seal(tokens.refresh_token) : previousRefresh,
    tokenExpiresAt:
      typeof tokens.expires_in === 'number' ? new Date(Date.now() + tokens.expires_in * 1000) : null,
  };
}

export const isInvalidGrant = (err: unknown) => (err as { errorCode?: string }).errorCode === 'invalid_grant';

/**
 * The answer when a code from the callback cannot be exchanged: a code the authorization server
 * calls invalid (unknown, used, expired, issued for another request: `invalid_grant`) is the
 * caller's, a 400 on `code` in the server's words; the server down, unreadable or refusing Titan
 * as a client stays a bad gateway.
 */
export function codeRefused(err: unknown, words: string): AppError {
  return isInvalidGrant(err) ? AppError.fields({ code: [words] }) : new AppError('bad_gateway', words);
}

/** The columns a refreshable connection has, in either table. */
export type Refreshable = TokenColumns & { status: TConnectionStatus; lastError: string | null };

export type RefreshSet = Partial<TokenColumns> & {
  status?: TConnectionStatus;
  lastError?: string | null;
  refreshLeaseUntil: null;
};

/**
 * The connection with an access token good for `marginMs` more (and not the `rejected` one a
 * server just refused), refreshing it if not — by whichever process takes the lease first; the
 * others wait and read what it stored.
 */
export async function refreshWithLease<R extends Refreshable>(opts: {
  secrets: SecretBox;
  marginMs: number;
  rejected?: string | null;
  /** The connection's row in its owner's table (its repository's `leased…`). */
  connection: LeasedRow<R, RefreshSet>;
  refresh: (row: R, refreshToken: string) => Promise<OAuthTokens>;
  /** After this process marked the connection expired. */
  onExpired?: () => Promise<void>;
}): Promise<R> {
  const needsRefresh = (r: R) =>
    !r.accessTokenSealed ||
    (opts.rejected !== undefined && r.accessTokenSealed === opts.rejected) ||
    (r.tokenExpiresAt !== null && r.tokenExpiresAt.getTime() < Date.now() + opts.marginMs);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await opts.connection.read();
    if (!row) throw new AppError('not_found', 'Not found.');
    if (row.status === 'expired') throw new GrantExpired(row.lastError ?? MCP_ERRORS.expired);
    if (!needsRefresh(row)) return row;
    const claimed = await opts.connection.claim(LEASE_MS);
    if (claimed) {
      if (!needsRefresh(claimed)) {
        await opts.connection.finish({ refreshLeaseUntil: null });
        return claimed;
      }
      if (!claimed.refreshTokenSealed) {
        await opts.connection.finish({
          status: 'expired',
          lastError: MCP_ERRORS.expired,
          refreshLeaseUntil: null,
        });
        await opts.onExpired?.();
        throw new GrantExpired(MCP_ERRORS.expired);
      }
      let tokens: OAuthTokens;
      try {
        tokens = await opts.refresh(claimed, opts.secrets.open(claimed.refreshTokenSealed));
      } catch (err) {
        if (isInvalidGrant(err)) {
          // Told once, by status, last error and mail; nothing retries a refused grant.
          await opts.connection.finish({
            status: 'expired',
            lastError: MCP_ERRORS.expired,
            accessTokenSealed: null,
            refreshLeaseUntil: null,
          });
          await opts.onExpired?.();
          throw new GrantExpired(MCP_ERRORS.expired);
        }
        await opts.connection.finish({
          lastError: `Refreshing the token failed: ${outboundErrorWords(err)}`,
          refreshLeaseUntil: null,
        });
        throw err;
      }
      const set: RefreshSet = {
        ...sealTokens(opts.secrets, tokens, claimed.refreshTokenSealed),
        status: 'connected',
        lastError: null,
        refreshLeaseUntil: null,
      };
      await opts.connection.finish(set);
      return { ...claimed, ...set };
    }
    if (Date.now() > deadline) throw new Error('Another refresh of this connection did not finish in time.');
    await new Promise((r) => setTimeout(r, 100));
  }
}
