// Snooze (issue 29): a conversation set aside until `snoozed_until` returns to active at that time
// (this one-minute job) or when the customer writes (applyMessageArrivals). Each wake leaves an
// activity line in the timeline, in the same transaction as the wake.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Jobs } from '../../platform/jobs';
import * as repo from './conversations.repository';

export const SNOOZE_WAKE_QUEUE = 'conversations.wake-snoozed';
const BATCH = 500;

/** Wakes every snoozed conversation due at `now`, in batches; answers how many woke. */
export async function wakeSnoozedConversations(db: Db, now: Date): Promise<number> {
  let woken = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await repo.wakeDueSnoozes(tx, now, BATCH);
      for (const row of rows) {
        await repo.insertInternalMessage(tx, row, {
          messageType: 'activity',
          senderType: 'system',
          senderId: null,
          content: 'The snooze ended: this conversation is active again',
          metaData: { action: 'snooze_ended', actor: null, status: 'active', previous_status: 'snoozed' },
        });
      }
      return rows.length;
    });
    woken += batch;
    if (batch < BATCH) return woken;
  }
}

export async function defineSnoozeJob(jobs: Jobs, db: Db, logger: Logger): Promise<void> {
  await jobs.define({
    name: SNOOZE_WAKE_QUEUE,
    handler: async () => {
      const woken = await wakeSnoozedConversations(db, new Date());
      if (woken > 0) logger.info({ woken }, 'snoozed conversations woke');
    },
    // The next minute's run is the retry: a due snooze stays due until woken.
    retryLimit: 0,
    expireInSeconds: 5 * 60,
  });
  await jobs.schedule(SNOOZE_WAKE_QUEUE, '* * * * *');
}
