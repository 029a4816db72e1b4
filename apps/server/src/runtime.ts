// Start-up and shut-down: database → migrations → change feed → jobs → services and their jobs
// (composition.ts) → (app). Closing runs in reverse.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { migrateDatabase } from './db/migrate';
import { ChangeFeed } from './platform/change-feed';
import { Jobs, type QueueDefinition } from './platform/jobs';
import { Mailer } from './platform/mailer';
import { createServices, defineJobs, type Services, startInboxBackground } from './composition';
import { recordBillingSwitch } from './modules/billing';
import { startBounceListener } from './modules/email';

export type Runtime = {
  config: Config;
  logger: Logger;
  database: Database;
  feed: ChangeFeed;
  jobs: Jobs;
  mailer: Mailer;
  /** What the composition root built: the same for API instances and workers. */
  services: Services;
  app: FastifyInstance | null;
  /** This process's auto-assignment engine (every process runs one). */
  assigner: ReturnType<typeof startInboxBackground>['assigner'];
  /** This process's away responder (every process runs one). */
  away: ReturnType<typeof startInboxBackground>['away'];
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
      ? {
          kind: 'postgres',
          url: config.DATABASE_URL,
          poolMax: config.DATABASE_POOL_MAX,
          statementCache: config.DATABASE_STATEMENT_CACHE,
          logger,
        }
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
    const services = createServices({ config, database, feed, jobs, mailer, logger });
    // Whether this deployment enforces billing: every process of it reads the same switch.
    await recordBillingSwitch(database.db, config.CHARGEBEE_SITE);
    await defineJobs(services);
    const background = startInboxBackground(services);
    cleanups.push(() => background.stop());
    for (const queue of options.queues ?? []) await jobs.define(queue);
    cleanups.push(async () => services.email.transport?.close());
    if (options.workers) await jobs.startWorkers();
    // Bounces and complaints come back by SMTP to the VERP addresses: taken where workers run.
    if (options.workers && config.BOUNCE_SMTP_PORT) {
      const listener = await startBounceListener(services.email, logger, {
        port: config.BOUNCE_SMTP_PORT,
        host: config.HOST,
      });
      cleanups.push(() => listener.close());
    }
    let app: FastifyInstance | null = null;
    if (options.http) {
      app = await buildApp({ services, onRoute: options.onRoute });
      const built = app;
      cleanups.push(() => built.close());
    }
    return {
      config,
      logger,
      database,
      feed,
      jobs,
      mailer,
      services,
      app,
      close,
      assigner: background.assigner,
      away: background.away,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
