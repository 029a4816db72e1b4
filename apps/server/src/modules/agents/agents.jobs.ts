// The one-minute tick that fires agent schedules (engage.md §5): Titan's own schedule rows, not
// pg-boss cron, so missed slots follow the schedule's policy and the next run can be shown.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Jobs } from '../../platform/jobs';
import { runScheduleTick, SCHEDULE_TICK_CRON, SCHEDULE_TICK_QUEUE } from './agents.schedule';

export async function defineAgentScheduleTick(jobs: Jobs, db: Db, logger: Logger): Promise<void> {
  await jobs.define({
    name: SCHEDULE_TICK_QUEUE,
    handler: async () => {
      const fired = await runScheduleTick(db, new Date(), logger);
      if (fired > 0) logger.info({ fired }, 'agent schedule slots fired');
    },
    // The next minute's tick is the retry: a due schedule stays due until claimed.
    retryLimit: 0,
    expireInSeconds: 5 * 60,
  });
  await jobs.schedule(SCHEDULE_TICK_QUEUE, SCHEDULE_TICK_CRON);
}
