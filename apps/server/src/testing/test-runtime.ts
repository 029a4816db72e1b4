// Isolated runtimes for tests: a temp data dir on PGlite, or a fresh database on PostgreSQL.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig, type Config } from '../config';
import { openDatabase } from '../db/client';
import { migrationsDir } from '../paths';
import type { QueueDefinition } from '../platform/jobs';
import { startRuntime, type Runtime, type RuntimeOptions } from '../runtime';

export const testDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A place to keep data across several runtimes in one test: a data dir or a database. */
export type TestStore = { env: Record<string, string>; destroy(): Promise<void> };

export async function createTestStore(): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'titan-test-'));
  if (testDbKind === 'pglite') {
    return {
      env: { DATA_DIR: dataDir },
      destroy: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `titan_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async destroy() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestRuntimeOptions = {
  store?: TestStore;
  env?: Record<string, string>;
  http?: boolean;
  workers?: boolean;
  queues?: QueueDefinition<never>[];
  onRoute?: RuntimeOptions['onRoute'];
};

export type TestRuntime = Runtime & { store: TestStore; destroy(): Promise<void> };

export function testConfig(store: TestStore, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    WEB_DIST_DIR: join(store.env.DATA_DIR!, 'no-web-build'),
    ...store.env,
    ...env,
  });
}

/** Starts a runtime; `destroy()` closes it and, unless a store was passed in, deletes its data. */
export async function createTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const ownStore = !options.store;
  const store = options.store ?? (await createTestStore());
  const config = testConfig(store, options.env);
  const logger = pino({ level: config.LOG_LEVEL });
  const runtime = await startRuntime(config, logger, {
    http: options.http ?? true,
    workers: options.workers ?? false,
    queues: options.queues ?? [],
    onRoute: options.onRoute,
  });
  return {
    ...runtime,
    store,
    async destroy() {
      await runtime.close();
      if (ownStore) await store.destroy();
    },
  };
}

/** The database of a store, opened without a runtime (for migration tests). */
export function openStoreDatabase(store: TestStore) {
  return openDatabase(
    testDbKind === 'postgres'
      ? { kind: 'postgres', url: store.env.DATABASE_URL! }
      : { kind: 'pglite', dataDir: store.env.DATA_DIR! },
  );
}

/**
 * A copy of the migrations folder whose journal stops before `tag` (e.g. '0022'): what a database
 * written before that migration has applied. Writing it again with another tag moves the stop.
 */
export function migrationsBefore(tag: string): {
  folder: string;
  stopBefore(tag: string): void;
  remove(): void;
} {
  const folder = mkdtempSync(join(tmpdir(), 'titan-migrations-'));
  cpSync(migrationsDir, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const full = readFileSync(journalFile, 'utf8');
  const stopBefore = (stop: string) => {
    const journal = JSON.parse(full) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < stop);
    writeFileSync(journalFile, JSON.stringify(journal));
  };
  stopBefore(tag);
  return { folder, stopBefore, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
