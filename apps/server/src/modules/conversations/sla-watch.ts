// The SLA watch (issue 29): once a minute, every open conversation whose group's first-response or
// resolution deadline passed gets an activity line "… target missed", once per conversation, target
// and deadline (conversation_sla_alerts' key: two workers never write it twice). The notifications
// module hears the line on the change feed and tells the assignee (or, for a conversation nobody
// holds, the business's owners and admins): the bell, push and the unread email.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { Jobs } from '../../platform/jobs';
import * as repo from './conversations.repository';
import * as levels from './service-levels.repository';

export const SLA_WATCH_QUEUE = 'conversations.sla-watch';

const TARGET_NAMES = { first_response: 'First response', resolution: 'Resolution' } as const;

/** Writes the breach lines due at `now`; answers how many. */
export async function alertSlaBreaches(db: Db, now: Date): Promise<number> {
  let alerted = 0;
  for (const breach of await levels.findUnalertedBreaches(db, now)) {
    const wrote = await db.transaction(async (tx) => {
      if (!(await levels.claimSlaAlert(tx, breach))) return false;
      await repo.insertInternalMessage(
        tx,
        { id: breach.conversationId, businessId: breach.businessId, channel: await channelOf(tx, breach) },
        {
          messageType: 'activity',
          senderType: 'system',
          senderId: null,
          content: `${TARGET_NAMES[breach.kind]} target missed (due ${breach.dueAt.toISOString()})`,
          metaData: {
            action: 'sla_breached',
            actor: null,
            target: breach.kind,
            due_at: breach.dueAt.toISOString(),
          },
        },
      );
      return true;
    });
    if (wrote) alerted++;
  }
  return alerted;
}

async function channelOf(db: Parameters<typeof repo.findConversationById>[0], breach: levels.SlaBreach) {
  const row = await repo.findConversationById(db, breach.conversationId);
  return row!.conversation.channel;
}

export async function defineSlaWatchJob(jobs: Jobs, db: Db, logger: Logger, clock: Clock): Promise<void> {
  await jobs.define({
    name: SLA_WATCH_QUEUE,
    handler: async () => {
      const alerted = await alertSlaBreaches(db, clock.now());
      if (alerted > 0) logger.info({ alerted }, 'SLA breaches alerted');
    },
    // The next minute's run is the retry: a breach stays unalerted until written.
    retryLimit: 0,
    expireInSeconds: 5 * 60,
  });
  await jobs.schedule(SLA_WATCH_QUEUE, '* * * * *');
}
