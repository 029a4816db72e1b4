// The notifications' schedules: the unread email every minute, and a sweep that removes the push
// subscriptions of ended sign-ins and forgets notifications read long ago. `catchUpNotifications`
// re-derives the last minutes of message changes: run when an instance starts listening and
// whenever its feed says it may have missed announcements (notifications.derive.ts).
import type { Jobs } from '../../platform/jobs';
import { recentChanges } from '../../platform/realtime/change-log.repository';
import type { Change } from '../../platform/change-feed';
import { DERIVE_BATCH, deriveFromChanges } from './notifications.derive';
import {
  emailUnreadNotifications,
  NOTIFICATIONS_EMAIL_CRON,
  NOTIFICATIONS_EMAIL_QUEUE,
} from './notifications.email';
import * as repo from './notifications.repository';
import type { NotificationDeps } from './notifications.service';

export const NOTIFICATIONS_SWEEP_QUEUE = 'notifications.sweep';
/** How far back a catch-up reads change_log (it keeps a day). */
export const CATCH_UP_WINDOW_MS = 10 * 60 * 1000;
const READ_KEPT_MS = 90 * 24 * 60 * 60 * 1000;

/** Re-derives recent message changes (idempotent: one notification per member, type and cause). */
export async function catchUpNotifications(
  deps: NotificationDeps,
  now = new Date(),
  windowMs = CATCH_UP_WINDOW_MS,
): Promise<number> {
  const changes = await recentChanges(
    deps.db,
    ['messages', 'wa_messages'],
    new Date(now.getTime() - windowMs),
    20_000,
  );
  const inserts: Change[] = changes
    .filter((c) => c.op === 'INSERT')
    .map((c) => ({
      table: c.tableName,
      op: 'INSERT' as const,
      id: c.rowId,
      business_id: String(c.businessId),
      conversation_id: c.conversationId === null ? null : String(c.conversationId),
      seq: c.seq,
    }));
  let made = 0;
  for (let i = 0; i < inserts.length; i += DERIVE_BATCH) {
    const batch = inserts.slice(i, i + DERIVE_BATCH);
    try {
      made += await deriveFromChanges(deps, batch);
    } catch (err) {
      deps.logger.warn({ err, changes: batch.length }, 'notification catch-up: changes not derived');
    }
  }
  return made;
}

/** Removes the push subscriptions of ended sign-ins and notifications read 90 days ago. */
export async function sweepNotifications(deps: NotificationDeps, now = new Date()): Promise<void> {
  await repo.deleteEndedSubscriptions(deps.db);
  await repo.pruneReadNotifications(deps.db, new Date(now.getTime() - READ_KEPT_MS));
}

export async function defineNotificationJobs(jobs: Jobs, deps: NotificationDeps): Promise<void> {
  await jobs.define({
    name: NOTIFICATIONS_EMAIL_QUEUE,
    handler: async () => {
      await emailUnreadNotifications(deps);
    },
    retryLimit: 1,
  });
  await jobs.schedule(NOTIFICATIONS_EMAIL_QUEUE, NOTIFICATIONS_EMAIL_CRON);
  await jobs.define({
    name: NOTIFICATIONS_SWEEP_QUEUE,
    handler: async () => {
      await sweepNotifications(deps);
    },
    retryLimit: 1,
  });
  await jobs.schedule(NOTIFICATIONS_SWEEP_QUEUE, '* * * * *');
}
