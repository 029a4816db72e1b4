// The realtime topic `presence`: a business's members going online, away, offline. Staff members
// of the business only (any role: everyone on the team sees who is around); never visitors.
import type { TPresence } from '@titan/contracts';
import { defineTopic, type AnyTopic, type SubscribeRequest } from '../../platform/realtime/realtime.topic';
import { type AuthCache, resolveSession } from '../auth';
import type { Db } from '../../db/client';
import { loadPresence, PRESENCE_TABLE } from './presence.service';

type Scope = { businessId: number; shape: 'staff' };

export function presenceTopic(deps: { db: Db; authCache: AuthCache }): AnyTopic {
  const { db } = deps;
  return defineTopic<Scope, TPresence>({
    name: 'presence',
    async authorize(caller, request: SubscribeRequest) {
      if (request.topic !== 'presence' || caller.kind !== 'staff') return 'denied';
      const found = await resolveSession(
        db,
        deps.authCache,
        caller.sessionId,
        caller.userId,
        request.business_code,
        true,
      );
      if (!found) return 'revoked';
      if (!found.membership) return 'denied';
      return { businessId: found.membership.businessId, shape: 'staff' };
    },
    wants: (_scope, change) => change.table === PRESENCE_TABLE,
    load: (change) => loadPresence(db, Number(change.id)),
    serialize: (row) => JSON.stringify(row),
    // The change was logged for this business only because the user is its member; a member who
    // left since is not told about.
    match: () => ({}),
    old: () => null,
  });
}
