// Durable background jobs on pg-boss, in the same PostgreSQL (embedded or served) as the data.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client';

export type JobContext = { id: string; name: string };
export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;

export type QueueDefinition<T> = {
  name: string;
  handler: JobHandler<T>;
  retryLimit?: number;
  /** Seconds before the first retry; with backoff each retry waits about twice as long. */
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  /** Jobs a worker runs at once in this process. */
  concurrency?: number;
  pollingIntervalSeconds?: number;
};

/**
 * Work that is not a job per row: `run` does one pass (e.g. claims and processes a batch from a
 * table of its own) and answers how much it did. The loop runs again at once while there was work,
 * else sleeps until `wake(name)` in this process or `pollIntervalMs` (work stored by other
 * instances). Runs only where workers run, like the queues.
 *
 * Of its `concurrency` passes only the first looks on the timer; a pass that found work wakes a
 * sleeping one (so a burst has every pass within a few round trips) and the others sleep
 * `SIBLING_POLL_FACTOR` times longer. An idle process so asks the database once a poll interval per
 * loop, not once per pass (four webhook passes at 200 ms were 20 statements a second for nothing).
 */
export type LoopDefinition = {
  name: string;
  run: () => Promise<number>;
  /** Passes running at once in this process. */
  concurrency?: number;
  pollIntervalMs?: number;
};

export type SendOptions = {
  /** A job with the same key is not enqueued twice while one is waiting. */
  singletonKey?: string;
  startAfter?: Date | number;
};

const DEFAULTS = { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 };

/**
 * A loop's passes and a queue's workers but the first poll this many times less often: they are
 * woken by work found or sent in this process; their own polls are only a safety net.
 */
export const SIBLING_POLL_FACTOR = 10;

/** pg-boss speaks to PGlite through this adapter; on PostgreSQL it opens its own small pool. */
/**
 * `background`: this process also keeps the queues (pg-boss's maintenance) and turns schedules
 * into jobs. Processes that run no workers (RUN_WORKERS=false, API instances) only send jobs: the
 * worker processes keep the rest, and an API instance spends no time on it between requests.
 */
function bossOptions(
  database: Database,
  url: string | undefined,
  background: boolean,
): PgBoss.ConstructorOptions {
  const common = {
    schema: 'pgboss',
    application_name: 'titan-jobs',
    supervise: background,
    schedule: background,
  };
  if (database.kind === 'postgres') return { ...common, connectionString: url, max: 4 };
  return {
    ...common,
    db: {
      async executeSql(text: string, values?: unknown[]) {
        // Parameterless SQL from pg-boss may hold several statements: the simple protocol runs them.
        if (!values || values.length === 0) return { rows: await database.exec(text) };
        return { rows: await database.query(text, values) };
      },
    },
  };
}

/** A LoopDefinition running: `concurrency` passes, each sleeping when it found nothing to do. */
export class Loop {
  private readonly sleepers = new Set<() => void>();
  /** A wake-up that came while every pass was busy: the next one to go idle looks again first. */
  private woken = false;
  private stopping = false;
  private passes: Promise<void>[] = [];

  constructor(
    readonly definition: LoopDefinition,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const n = this.definition.concurrency ?? 1;
    for (let i = 0; i < n; i++) this.passes.push(this.spin(i === 0));
  }

  wake(): void {
    if (!this.wakeSibling()) this.woken = true;
  }

  /** Lets the passes under way finish (up to `timeoutMs`). */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    for (const sleeper of this.sleepers) sleeper();
    this.sleepers.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.passes),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  /** Wakes one sleeping pass; false when every pass is busy. */
  private wakeSibling(): boolean {
    const [sleeper] = this.sleepers;
    if (!sleeper) return false;
    this.sleepers.delete(sleeper);
    sleeper();
    return true;
  }

  private async spin(lead: boolean): Promise<void> {
    const poll = (this.definition.pollIntervalMs ?? 1000) * (lead ? 1 : SIBLING_POLL_FACTOR);
    let failures = 0;
    while (!this.stopping) {
      let done = 0;
      try {
        done = await this.definition.run();
        failures = 0;
      } catch (err) {
        failures++;
        this.logger.error({ err, loop: this.definition.name }, 'background loop failed; trying again');
      }
      if (this.stopping) break;
      if (done > 0) this.wakeSibling();
      // The database may be down: back off.
      if (failures > 0) await this.idle(Math.min(30_000, poll * 2 ** failures));
      else if (this.woken) this.woken = false;
      else if (done === 0) await this.idle(poll);
    }
  }

  /** Sleeps `ms`, or less when woken or stopped. */
  private idle(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wakeUp = () => {
        clearTimeout(timer);
        this.sleepers.delete(wakeUp);
        resolve();
      };
      const timer = setTimeout(wakeUp, ms);
      this.sleepers.add(wakeUp);
    });
  }
}

export class Jobs {
  private readonly definitions = new Map<string, QueueDefinition<never>>();
  private readonly loops = new Map<string, Loop>();
  /** pg-boss worker ids per queue in this process, to wake them when a job is sent from here. */
  private readonly workerIds = new Map<string, string[]>();
  /** Workers running a job now (a wake-up goes to another). */
  private readonly busyWorkers = new Set<string>();
  /** When each worker was last woken: the one woken longest ago gets the next wake-up. */
  private readonly wokenAt = new Map<string, number>();
  private working = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly logger: Logger,
  ) {}

  static async start(
    database: Database,
    logger: Logger,
    { url, background }: { url?: string; background: boolean },
  ): Promise<Jobs> {
    const boss = new PgBoss(bossOptions(database, url, background));
    boss.on('error', (err) => logger.error({ err }, 'job queue error'));
    await boss.start();
    return new Jobs(boss, logger);
  }

  /** Creates or updates the queue; its handler runs only once `startWorkers` is called. */
  async define<T>(definition: QueueDefinition<T>): Promise<void> {
    const options = {
      name: definition.name,
      retryLimit: definition.retryLimit ?? DEFAULTS.retryLimit,
      retryDelay: definition.retryDelay ?? DEFAULTS.retryDelay,
      retryBackoff: definition.retryBackoff ?? DEFAULTS.retryBackoff,
      expireInSeconds: definition.expireInSeconds ?? DEFAULTS.expireInSeconds,
    };
    await this.boss.createQueue(definition.name, options);
    await this.boss.updateQueue(definition.name, options);
    this.definitions.set(definition.name, definition as QueueDefinition<never>);
    if (this.working) await this.work(definition as QueueDefinition<never>);
  }

  /** Registers a loop; it starts with the workers (at once if they already run). */
  defineLoop(definition: LoopDefinition): void {
    if (this.loops.has(definition.name)) throw new Error(`loop "${definition.name}" is already defined`);
    const loop = new Loop(definition, this.logger);
    this.loops.set(definition.name, loop);
    if (this.working) loop.start();
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (!this.definitions.has(name)) throw new Error(`job queue "${name}" is not defined`);
    const id = await this.boss.send(name, data, options);
    if (!options.startAfter) this.wake(name);
    return id;
  }

  /**
   * New work for `name` (a queue or a loop) was stored: an idle worker of this process looks now
   * instead of at its next poll. Does nothing where workers do not run.
   */
  wake(name: string): void {
    if (!this.working) return;
    this.loops.get(name)?.wake();
    this.wakeOneWorker(name);
  }

  /**
   * One idle worker of the queue fetches now: the one woken longest ago (so wake-ups close together
   * reach different workers). None when all are running jobs: each fetches again as it finishes.
   * Waking every worker for each job sent made a queue of 8 workers fetch 8 times per job.
   */
  private wakeOneWorker(name: string): void {
    let chosen: string | undefined;
    for (const id of this.workerIds.get(name) ?? []) {
      if (this.busyWorkers.has(id)) continue;
      if (chosen === undefined || (this.wokenAt.get(id) ?? 0) < (this.wokenAt.get(chosen) ?? 0)) chosen = id;
    }
    if (chosen === undefined) return;
    this.wokenAt.set(chosen, performance.now());
    this.boss.notifyWorker(chosen);
  }

  /** Runs the queue's job on a cron schedule (UTC); pg-boss makes sure one instance runs it. */
  async schedule(name: string, cron: string): Promise<void> {
    if (!this.definitions.has(name)) throw new Error(`job queue "${name}" is not defined`);
    await this.boss.schedule(name, cron);
  }

  async startWorkers(): Promise<void> {
    if (this.working) return;
    this.working = true;
    for (const definition of this.definitions.values()) await this.work(definition);
    for (const loop of this.loops.values()) loop.start();
  }

  private async work(definition: QueueDefinition<never>): Promise<void> {
    const workers = definition.concurrency ?? 1;
    const ids = this.workerIds.get(definition.name) ?? [];
    this.workerIds.set(definition.name, ids);
    const interval = definition.pollingIntervalSeconds ?? 1;
    for (let i = 0; i < workers; i++) {
      const worker = { id: '' };
      // The first worker polls on the queue's interval; the others are woken by jobs sent here or
      // found by a sibling, and poll only as a safety net (an idle process asked the database once
      // a second per worker: 66 fetches a second, most of its idle statements).
      const pollingIntervalSeconds = ids.length === 0 ? interval : interval * SIBLING_POLL_FACTOR;
      worker.id = await this.boss.work<never>(
        definition.name,
        { batchSize: 1, pollingIntervalSeconds },
        async ([job]) => {
          if (!job) return;
          this.busyWorkers.add(worker.id);
          // A job found: there may be more waiting (sent by another instance, or a burst); an
          // idle sibling looks too, so the queue reaches its concurrency.
          this.wakeOneWorker(definition.name);
          const log = this.logger.child({ job: job.name, job_id: job.id });
          try {
            await definition.handler(job.data, { id: job.id, name: job.name });
          } catch (err) {
            log.warn({ err }, 'job failed; it will be retried while retries remain');
            throw err;
          } finally {
            this.busyWorkers.delete(worker.id);
          }
          // pg-boss would wait out the polling interval after every job: while jobs are there,
          // fetch the next one at once (a failed job still waits, so retries cannot spin).
          this.boss.notifyWorker(worker.id);
        },
      );
      ids.push(worker.id);
    }
  }

  async getJob(name: string, id: string) {
    return this.boss.getJobById(name, id, { includeArchive: true });
  }

  /** Stops fetching, lets running jobs and loop passes finish (up to `timeoutMs`), then closes the queue. */
  async stop(timeoutMs = 20_000): Promise<void> {
    this.working = false;
    await Promise.all([...this.loops.values()].map((loop) => loop.stop(timeoutMs)));
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
  }
}
