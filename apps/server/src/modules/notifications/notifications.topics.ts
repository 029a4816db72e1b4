// The `notifications` realtime topic: a member's own notifications in one business, live — a new
// one (INSERT) and each read (UPDATE), in the shape GET /api/notifications/ lists. Staff only; a
// row goes to its member alone (every other subscription of the business is skipped in `match`).
import type { Db } from '../../db/client';
import { defineTopic, type AnyTopic } from '../../platform/realtime/realtime.topic';
import { ROLE_PERMISSIONS } from '../../platform/roles';
import { type AuthCache, resolveSession } from '../auth';
import type * as repo from './notifications.repository';
import { loadNotification, NOTIFICATIONS_TABLE, toNotification } from './notifications.service';

type NotificationsScope = { businessId: number; shape: 'staff'; userId: number };

export function notificationTopics(deps: { db: Db; authCache: AuthCache }): AnyTopic[] {
  const topic = defineTopic<NotificationsScope, repo.NotificationRow>({
    name: 'notifications',
    async authorize(caller, request) {
      if (request.topic !== 'notifications' || caller.kind !== 'staff') return 'denied';
      const found = await resolveSession(
        deps.db,
        deps.authCache,
        caller.sessionId,
        caller.userId,
        request.business_code,
        true,
      );
      if (!found) return 'revoked';
      const membership = found.membership;
      if (!membership || !ROLE_PERMISSIONS[membership.role].includes('inbox.use')) return 'denied';
      return { businessId: membership.businessId, shape: 'staff', userId: caller.userId };
    },
    wants: (_scope, change) => change.table === NOTIFICATIONS_TABLE,
    load: (change) => loadNotification(deps.db, change.id!),
    serialize: (row) => JSON.stringify(toNotification(row)),
    match: (scope, row) =>
      row.businessId === scope.businessId && row.userId === scope.userId && row.inApp && {},
    old: () => null,
  });
  return [topic];
}
