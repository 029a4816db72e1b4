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

export type SendOptions = {
  /** A job with the same key is not enqueued twice while one is waiting. */
  singletonKey?: string;
  startAfter?: Date | number;
};

const DEFAULTS = { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 };

/** pg-boss speaks to PGlite through this adapter; on PostgreSQL it opens its own small pool. */
function bossOptions(database: Database, url: string | undefined): PgBoss.ConstructorOptions {
  const common = { schema: 'pgboss', application_name: 'titan-jobs' };
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

export class Jobs {
  private readonly definitions = new Map<string, QueueDefinition<never>>();
  private working = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly logger: Logger,
  ) {}

  static async start(database: Database, logger: Logger, url?: string): Promise<Jobs> {
    const boss = new PgBoss(bossOptions(database, url));
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

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (!this.definitions.has(name)) throw new Error(`job queue "${name}" is not defined`);
    return this.boss.send(name, data, options);
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
  }

  private async work(definition: QueueDefinition<never>): Promise<void> {
    const workers = definition.concurrency ?? 1;
    for (let i = 0; i < workers; i++) {
      await this.boss.work<never>(
        definition.name,
        { batchSize: 1, pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          if (!job) return;
          const log = this.logger.child({ job: job.name, job_id: job.id });
          try {
            await definition.handler(job.data, { id: job.id, name: job.name });
          } catch (err) {
            log.warn({ err }, 'job failed; it will be retried while retries remain');
            throw err;
          }
        },
      );
    }
  }

  async getJob(name: string, id: string) {
    return this.boss.getJobById(name, id, { includeArchive: true });
  }

  /** Stops fetching, lets running jobs finish (up to `timeoutMs`), then closes the queue. */
  async stop(timeoutMs = 20_000): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
  }
}
