// The one-minute tick that fires agent schedules (engage.md §5): Titan's own schedule rows, not
// pg-boss cron, so missed slots follow the schedule's policy and the next run can be shown.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Jobs } from '../../platform/jobs';
import { deliverRun } from './agents.deliveries';
import { consumeFires, processRun, resumeStaleRuns } from './runs/lifecycle';
import { DELIVER_QUEUE, RUN_QUEUE, RUN_TICK_QUEUE, type AgentRunDeps } from './runs/deps';
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

/**
 * The run loop's jobs: `agents.run` decides and sends one run (a run is held by a lease, so a
 * second job for it finds it taken), `agents.deliver` sends what was approved, and a one-minute
 * tick turns fired schedule slots into runs and hands runs whose worker died to a worker again.
 */
export async function defineAgentRunJobs(jobs: Jobs, deps: AgentRunDeps): Promise<void> {
  await jobs.define<{ run_id: string }>({
    name: RUN_QUEUE,
    handler: async (data) => processRun(deps, data.run_id),
    // The tick's takeover is the retry: it goes on where the last written page left off.
    retryLimit: 0,
    expireInSeconds: 6 * 60 * 60,
    concurrency: 2,
  });
  await jobs.define<{ run_id: string }>({
    name: DELIVER_QUEUE,
    handler: async (data) => {
      await deliverRun(deps, data.run_id);
    },
    retryLimit: 3,
  });
  await jobs.define({
    name: RUN_TICK_QUEUE,
    handler: async () => {
      const created = await consumeFires(deps);
      const resumed = await resumeStaleRuns(deps);
      if (created.length + resumed > 0)
        deps.logger.info({ created: created.length, resumed }, 'agent runs started');
    },
    retryLimit: 0,
    expireInSeconds: 5 * 60,
  });
  await jobs.schedule(RUN_TICK_QUEUE, SCHEDULE_TICK_CRON);
}
