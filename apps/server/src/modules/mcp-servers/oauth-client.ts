// Titan as an OAuth client of outside servers (MCP servers, OAuth plugins): connect states that are
// single-use and bound to the business and user who started them, tokens sealed at rest, and
// refreshes taken one at a time per connection through a lease in the database — across processes —
// so two runs never present the same refresh token (strict servers revoke the grant when a rotated
// token comes back). A refused grant (`invalid_grant`) marks the connection expired, once.
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_MESSAGES, type TConnectionStatus } from '@titan/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { randomToken, sha256, type SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { outboundErrorWords, type OutboundDeps } from '../../platform/safe-fetch';
import * as repo from './mcp-servers.repository';

export type OAuthDeps = OutboundDeps & { db: Db; secrets: SecretBox; logger: Logger };

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
  if (!row) throw AppError.fields({ state: [MCP_MESSAGES.stateInvalid] });
  return { ...row, codeVerifier: deps.secrets.open(row.codeVerifierSealed) };
}

/** RFC 9207: an `iss` that is not the server Titan asked is refused; required when the server says it sends one. */
export function checkIssuer(expected: string | null, iss: string | undefined, required: boolean): void {
  if (iss === undefined ? required : expected !== null && iss !== expected)
    throw AppError.fields({ iss: [MCP_MESSAGES.issuerMismatch] });
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
  read: () => Promise<R | null>;
  claim: (ms: number) => Promise<R | null>;
  /** Writes the outcome and frees the lease. */
  finish: (set: RefreshSet) => Promise<void>;
  refresh: (row: R, refreshToken: string) => Promise<OAuthTokens>;
}): Promise<R> {
  const needsRefresh = (r: R) =>
    !r.accessTokenSealed ||
    (opts.rejected !== undefined && r.accessTokenSealed === opts.rejected) ||
    (r.tokenExpiresAt !== null && r.tokenExpiresAt.getTime() < Date.now() + opts.marginMs);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await opts.read();
    if (!row) throw new AppError('not_found', 'Not found.');
    if (row.status === 'expired') throw new GrantExpired(row.lastError ?? MCP_MESSAGES.expired);
    if (!needsRefresh(row)) return row;
    const claimed = await opts.claim(LEASE_MS);
    if (claimed) {
      if (!needsRefresh(claimed)) {
        await opts.finish({ refreshLeaseUntil: null });
        return claimed;
      }
      if (!claimed.refreshTokenSealed) {
        await opts.finish({ status: 'expired', lastError: MCP_MESSAGES.expired, refreshLeaseUntil: null });
        throw new GrantExpired(MCP_MESSAGES.expired);
      }
      let tokens: OAuthTokens;
      try {
        tokens = await opts.refresh(claimed, opts.secrets.open(claimed.refreshTokenSealed));
      } catch (err) {
        if (isInvalidGrant(err)) {
          // Told once, by status and last error; nothing retries a refused grant.
          await opts.finish({
            status: 'expired',
            lastError: MCP_MESSAGES.expired,
            accessTokenSealed: null,
            refreshLeaseUntil: null,
          });
          throw new GrantExpired(MCP_MESSAGES.expired);
        }
        await opts.finish({
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
      await opts.finish(set);
      return { ...claimed, ...set };
    }
    if (Date.now() > deadline) throw new Error('Another refresh of this connection did not finish in time.');
    await new Promise((r) => setTimeout(r, 100));
  }
}
