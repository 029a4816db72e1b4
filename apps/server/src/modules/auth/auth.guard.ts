// Who is calling and in which business. Routes declare what they need in `config`
// (public, business, permission); nothing is inferred from the URL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BUSINESS_CODE_HEADER, MFA_ENROLMENT_REQUIRED, MFA_ERRORS, type TPermission } from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { API_KEY_NOT_ALLOWED, type BusinessContext, type RequestAuth } from '../../platform/request-context';
import { authenticateApiKey } from '../api-keys';
import { permissionSetOf } from '../../platform/roles';
import { findBusinessByCode, findMembershipByCode } from '../business';
import type { AuthCache, Membership, SessionLookup } from './auth-cache';
import { findLiveSession, findSessionWithMembership } from './auth.repository';
import type { AccessTokens } from './tokens';

export type { BusinessContext, RequestAuth };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
    /** Needs X-Business-Code (or an API key) and membership of that business. */
    business?: boolean;
    /** A permission the caller's role must hold in that business. */
    permission?: TPermission;
    /** Reachable by a session that must enrol in 2FA first (the enrolment routes, profile, logout). */
    mfaEnrolment?: boolean;
  }
}

export const AUTH_ERRORS = {
  missing: 'Authentication credentials were not provided.',
  invalid: 'Your session has expired. Please log in again.',
  badKey: 'The API key is invalid, expired or revoked.',
  noBusinessHeader: 'The X-Business-Code header is required.',
  notMember: 'You are not a member of this business.',
  forbidden: 'You do not have permission to perform this action.',
  apiKeyNotAllowed: API_KEY_NOT_ALLOWED,
} as const;

type Authenticated = { auth: RequestAuth; membership?: Membership | null; mfaEnrolmentRequired?: boolean };

/**
 * Is this session live and, when `businessCode` is given, what is the user's membership there
 * (`membership` null when none). One query, remembered briefly in `cache`; null for a dead
 * session. A remembered answer comes back synchronously, anything else as a promise. The HTTP
 * guard and the realtime hub both resolve callers here; `fresh` skips the remembered answer.
 */
export function resolveSession(
  db: Db,
  cache: AuthCache,
  sessionId: string,
  userId: number,
  businessCode: string | null,
  fresh = false,
): SessionLookup | Promise<SessionLookup | null> {
  const remembered = fresh ? undefined : cache.peek(sessionId, userId, businessCode);
  if (remembered) return remembered;
  return cache.lookup(
    sessionId,
    userId,
    businessCode,
    () =>
      businessCode
        ? findSessionWithMembership(db, sessionId, userId, businessCode)
        : findLiveSession(db, sessionId, userId).then(
            (row) =>
              row && {
                expiresAt: row.expiresAt,
                membership: null,
                mfaEnrolmentRequired: row.mfaEnrolmentRequired,
              },
          ),
    fresh,
  );
}

/**
 * Who is calling. For a staff call naming a business, the session check and the membership
 * lookup are one query (`membership` is then set, null when not a member), remembered briefly
 * in `cache` so repeated calls with one token cost no round trip. A remembered answer comes back
 * synchronously (most calls), anything else as a promise.
 */
function authenticate(
  request: FastifyRequest,
  db: Db,
  tokens: AccessTokens,
  cache: AuthCache,
  businessCode: string | null,
): Authenticated | Promise<Authenticated> {
  const header = (request.headers.authorization ?? '').trim();
  const space = header.search(/\s/);
  const scheme = space > 0 ? header.slice(0, space) : '';
  const credential = space > 0 ? header.slice(space + 1).trimStart() : '';
  if (!scheme || !credential) throw new AppError('unauthorized', AUTH_ERRORS.missing);
  if (scheme.toLowerCase() === 'bearer') {
    const claims = tokens.verify(credential);
    if (!claims) throw new AppError('unauthorized', AUTH_ERRORS.invalid);
    const { sessionId, userId } = claims;
    const auth: RequestAuth = { kind: 'user', userId, sessionId };
    const answer = (found: SessionLookup | null | undefined): Authenticated => {
      if (!found) throw new AppError('unauthorized', AUTH_ERRORS.invalid);
      const mfaEnrolmentRequired = found.mfaEnrolmentRequired === true;
      return businessCode
        ? { auth, membership: found.membership, mfaEnrolmentRequired }
        : { auth, mfaEnrolmentRequired };
    };
    const found = resolveSession(db, cache, sessionId, userId, businessCode);
    return found instanceof Promise ? found.then(answer) : answer(found);
  }
  if (scheme.toLowerCase() === 'api-key') {
    return authenticateApiKey(db, credential).then((key) => {
      if (!key) throw new AppError('unauthorized', AUTH_ERRORS.badKey);
      return { auth: { kind: 'api_key', ...key } };
    });
  }
  throw new AppError('unauthorized', AUTH_ERRORS.missing);
}

function businessCodeOf(request: FastifyRequest): string {
  const header = request.headers[BUSINESS_CODE_HEADER];
  return typeof header === 'string' ? header.trim() : '';
}

async function resolveBusiness(
  request: FastifyRequest,
  db: Db,
  auth: RequestAuth,
  known: Membership | null | undefined,
): Promise<BusinessContext> {
  const code = businessCodeOf(request);
  if (auth.kind === 'api_key') {
    const business = code ? await findBusinessByCode(db, code) : null;
    if (code && business?.id !== auth.businessId) throw new AppError('forbidden', AUTH_ERRORS.notMember);
    const uniqueCode = business?.uniqueCode ?? '';
    return {
      id: auth.businessId,
      uniqueCode,
      role: 'api_key',
      permissions: permissionSetOf(auth.role, auth.customPermissions),
      customRoleId: auth.customRoleId,
      scopeGroupIds: auth.customRoleId === null ? null : auth.scopeGroupIds,
    };
  }
  if (!code) {
    throw new AppError('bad_request', AUTH_ERRORS.noBusinessHeader, {
      non_field_errors: [AUTH_ERRORS.noBusinessHeader],
    });
  }
  const membership = known === undefined ? await findMembershipByCode(db, auth.userId, code) : known;
  if (!membership) throw new AppError('forbidden', AUTH_ERRORS.notMember);
  return memberContext(membership);
}

const memberContext = (membership: Membership): BusinessContext => ({
  id: membership.businessId,
  uniqueCode: membership.uniqueCode,
  role: membership.role,
  permissions: permissionSetOf(membership.role, membership.customPermissions),
  customRoleId: membership.customRoleId ?? null,
  scopeGroupIds: membership.customRoleId ? (membership.scopeGroupIds ?? null) : null,
});

/** A membership's permissions (realtime topics check them as routes do). */
export function membershipPermissions(membership: Membership): ReadonlySet<TPermission> {
  return permissionSetOf(membership.role, membership.customPermissions);
}

export function registerAuthGuard(
  app: FastifyInstance,
  db: Db,
  tokens: AccessTokens,
  cache: AuthCache,
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('business', null);
  app.addHook('onRequest', async (request) => {
    const { config, url } = request.routeOptions; // a getter that builds an object: read once
    // Unknown routes (404 handler) and public routes need no credentials.
    if (!url || config.public) return;
    const code = config.business ? businessCodeOf(request) : '';
    // A remembered caller awaits nothing here: most requests, at no cost of promise hops.
    const authenticated = authenticate(request, db, tokens, cache, code || null);
    const { auth, membership, mfaEnrolmentRequired } =
      authenticated instanceof Promise ? await authenticated : authenticated;
    request.auth = auth;
    if (mfaEnrolmentRequired && !config.mfaEnrolment) {
      throw new AppError('forbidden', MFA_ERRORS.enrolmentRequired, { code: MFA_ENROLMENT_REQUIRED });
    }
    if (!config.business) {
      if (auth.kind === 'api_key') throw new AppError('forbidden', AUTH_ERRORS.apiKeyNotAllowed);
      return;
    }
    const business =
      auth.kind === 'user' && membership
        ? memberContext(membership)
        : await resolveBusiness(request, db, auth, membership);
    if (config.permission && !business.permissions.has(config.permission)) {
      throw new AppError('forbidden', AUTH_ERRORS.forbidden);
    }
    request.business = business;
  });
}
