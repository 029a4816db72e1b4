// The notifications' schedules: the unread email every minute, and a sweep that derives the changes
// whose claim lapsed undone (an instance died mid-batch), removes the push subscriptions of ended
// sign-ins and forgets notifications read long ago. `catchUpNotifications` re-derives the last
// minutes of message changes (those claimed and done are passed by): run when an instance starts
// listening and whenever its feed says it may have missed announcements (notifications.derive.ts).
import type { Jobs } from '../../platform/jobs';
import { changesBySeq, oldestSeq, recentChanges } from '../../platform/realtime/change-log.repository';
import type { Change } from '../../platform/change-feed';
import { DERIVE_BATCH, deriveClaimed } from './notifications.derive';
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

/** Logged message inserts as the feed announces them. */
function insertsOf(changes: Awaited<ReturnType<typeof recentChanges>>): Change[] {
  return changes
    .filter((c) => c.op === 'INSERT')
    .map((c) => ({
      table: c.tableName,
      op: 'INSERT' as const,
      id: c.rowId,
      business_id: String(c.businessId),
      conversation_id: c.conversationId === null ? null : String(c.conversationId),
      seq: c.seq,
    }));
}

/** Derives changes in batches (those this instance claims); a failed batch is logged. */
async function deriveInBatches(deps: NotificationDeps, changes: Change[], what: string): Promise<number> {
  let made = 0;
  for (let i = 0; i < changes.length; i += DERIVE_BATCH) {
    const batch = changes.slice(i, i + DERIVE_BATCH);
    try {
      made += await deriveClaimed(deps, batch);
    } catch (err) {
      deps.logger.warn({ err, changes: batch.length }, `${what}: changes not derived`);
    }
  }
  return made;
}

/** Re-derives recent message changes nobody derived (idempotent: one notification per member, type and cause). */
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
  return deriveInBatches(deps, insertsOf(changes), 'notification catch-up');
}

/** Derives the changes whose claim lapsed undone (their instance died mid-batch); how many it made. */
export async function deriveLapsed(deps: NotificationDeps): Promise<number> {
  const seqs = await repo.lapsedDerivations(deps.db, 20_000);
  if (seqs.length === 0) return 0;
  return deriveInBatches(deps, insertsOf(await changesBySeq(deps.db, seqs)), 'lapsed notifications');
}

/**
 * Derives what lapsed, forgets claims on changes change_log no longer holds, removes the push
 * subscriptions of ended sign-ins and notifications read 90 days ago.
 */
export async function sweepNotifications(deps: NotificationDeps, now = new Date()): Promise<void> {
  await deriveLapsed(deps);
  const oldest = await oldestSeq(deps.db);
  if (oldest > 0) await repo.pruneDerivations(deps.db, oldest);
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
