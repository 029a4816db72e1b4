// Who is on a realtime socket: a staff access token (its session checked through `resolveSession`,
// the HTTP guard's one way of resolving a caller) or a visitor token (its customer's token version
// checked). The hub asks again whenever the auth cache announces a revocation.
import type { Db } from './db/client';
import { type AccessTokens, AUTH_ERRORS, type AuthCache, resolveSession } from './modules/auth';
import {
  verifyVisitor,
  VISITOR_SESSION_ENDED,
  visitorStillValid,
  type VisitorTokens,
} from './modules/public-chat';
import type { RealtimeCaller, RealtimeCallers } from './platform/realtime/realtime.topic';
import { HUB_ERRORS } from './platform/realtime/realtime.hub';

/** Every error text a realtime client can be sent about its access. */
export const REALTIME_ERRORS = {
  ...HUB_ERRORS,
  sessionEnded: AUTH_ERRORS.invalid,
  visitorSessionEnded: VISITOR_SESSION_ENDED,
} as const;

export function realtimeCallers(deps: {
  db: Db;
  authCache: AuthCache;
  tokens: AccessTokens;
  visitorTokens: VisitorTokens;
}): RealtimeCallers {
  const { db, authCache } = deps;
  const sessionStands = async (sessionId: string, userId: number) =>
    Boolean(await resolveSession(db, authCache, sessionId, userId, null, true));
  return {
    async authenticate(token: string): Promise<RealtimeCaller | null> {
      const claims = deps.tokens.verify(token);
      if (claims && (await sessionStands(claims.sessionId, claims.userId))) {
        return { kind: 'staff', userId: claims.userId, sessionId: claims.sessionId, exp: claims.exp };
      }
      const visitor = await verifyVisitor(db, deps.visitorTokens, token);
      return visitor && { kind: 'visitor', ...visitor };
    },
    stillValid: (caller) =>
      caller.kind === 'staff'
        ? sessionStands(caller.sessionId, caller.userId)
        : visitorStillValid(db, caller),
    endedMessage: (caller) =>
      caller.kind === 'visitor' ? REALTIME_ERRORS.visitorSessionEnded : REALTIME_ERRORS.sessionEnded,
    onRevoke: (listener) => authCache.onRevoke(listener),
    get feedHealthy() {
      return authCache.feedHealthy;
    },
  };
}
