// The composition root: database → migrations → change feed → jobs → (app). Closing runs in reverse.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { migrateDatabase } from './db/migrate';
import { ChangeFeed } from './platform/change-feed';
import { Jobs, type QueueDefinition } from './platform/jobs';
import { Mailer } from './platform/mailer';
import { pruneChangeLog } from './platform/realtime/change-log.repository';
import { pruneRateLimits } from './platform/rate-limiter';
import { createStorage } from './platform/storage';
import {
  PUBLIC_RETENTION_CRON,
  PUBLIC_RETENTION_QUEUE,
  runPublicRetention,
} from './modules/public-chat/public-retention';
import { createWhatsappDeps, defineWhatsappQueues } from './modules/whatsapp/whatsapp.queues';

export type Runtime = {
  config: Config;
  logger: Logger;
  database: Database;
  feed: ChangeFeed;
  jobs: Jobs;
  mailer: Mailer;
  app: FastifyInstance | null;
  /** Stops HTTP (in-flight requests finish), workers, the feed, then the database. */
  close(): Promise<void>;
};

export type RuntimeOptions = {
  http: boolean;
  workers: boolean;
  /** Extra queues (tests); the product's own queues are registered by their modules. */
  queues?: QueueDefinition<never>[];
  /** Sees every route as the app registers it (tests). */
  onRoute?: (route: RouteOptions) => void;
};

export async function startRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions,
): Promise<Runtime> {
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, logger }
      : { kind: 'pglite', dataDir: `${config.DATA_DIR}`, logger },
  );
  const cleanups: (() => Promise<void>)[] = [() => database.close()];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (err) {
        logger.error({ err }, 'error while shutting down');
      }
    }
  };
  try {
    await migrateDatabase(database);
    const feed = new ChangeFeed(database, logger);
    await feed.start();
    cleanups.push(() => feed.stop());
    const jobs = await Jobs.start(database, logger, {
      url: config.DATABASE_URL,
      background: options.workers,
    });
    cleanups.push(() => jobs.stop());
    const mailer = new Mailer(config, database.db, jobs, logger);
    await mailer.defineQueue();
    await jobs.define({
      name: 'realtime.prune-change-log',
      // Realtime resume covers a day of disconnection; older changes are only ever refetched.
      handler: () => pruneChangeLog(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000)),
      retryLimit: 2,
    });
    await jobs.schedule('realtime.prune-change-log', '17 * * * *');
    await jobs.define({
      name: 'platform.prune-rate-limits',
      handler: () => pruneRateLimits(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000)),
      retryLimit: 2,
    });
    await jobs.schedule('platform.prune-rate-limits', '23 * * * *');
    const retention = { db: database.db, storage: createStorage(config), config };
    await jobs.define({
      name: PUBLIC_RETENTION_QUEUE,
      handler: async () => {
        await runPublicRetention(retention, logger);
      },
      retryLimit: 2,
    });
    await jobs.schedule(PUBLIC_RETENTION_QUEUE, PUBLIC_RETENTION_CRON);
    await defineWhatsappQueues(jobs, createWhatsappDeps(config, database.db, jobs), logger);
    for (const queue of options.queues ?? []) await jobs.define(queue);
    if (options.workers) await jobs.startWorkers();
    let app: FastifyInstance | null = null;
    if (options.http) {
      app = await buildApp({ config, database, feed, jobs, mailer, logger, onRoute: options.onRoute });
      const built = app;
      cleanups.push(() => built.close());
    }
    return { config, logger, database, feed, jobs, mailer, app, close };
  } catch (err) {
    await close();
    throw err;
  }
}
