// Isolated runtimes for tests: a temp data dir on PGlite, or a fresh database on PostgreSQL.
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig, type Config } from '../config';
import { openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { migrationsDir } from '../paths';
import type { QueueDefinition } from '../platform/jobs';
import { startRuntime, type Runtime, type RuntimeOptions } from '../runtime';

export const testDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A place to keep data across several runtimes in one test: a data dir or a database. */
export type TestStore = { env: Record<string, string>; destroy(): Promise<void> };

/**
 * The migrations' fingerprint: a migrated, empty database is made once per fingerprint (a data dir
 * under the temp folder for PGlite, a template database on PostgreSQL) and every store starts as a
 * copy of it — initdb and 30 migrations per runtime were most of the server suites' time.
 */
function migrationsKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsDir);
  return hash.digest('hex').slice(0, 16);
}

/** A migrated PGlite data dir to copy; made by whichever test process needs it first. */
async function pgliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), `titan-test-template-${migrationsKey()}`);
  if (existsSync(join(dir, 'pglite'))) return join(dir, 'pglite');
  const building = mkdtempSync(join(tmpdir(), 'titan-test-template-building-'));
  const database = await openDatabase({ kind: 'pglite', dataDir: building });
  await migrateDatabase(database);
  await database.close();
  try {
    renameSync(building, dir);
  } catch {
    // Another test process finished first: theirs is the same template.
    rmSync(building, { recursive: true, force: true });
  }
  return join(dir, 'pglite');
}

const adminClient = async (adminUrl: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return client;
};

const withDatabase = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A migrated PostgreSQL template database; made once, under an advisory lock, by the first caller. */
async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `titan_test_template_${migrationsKey()}`;
  const admin = await adminClient(adminUrl);
  try {
    await admin.query('select pg_advisory_lock(7146521904)');
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const database = await openDatabase({ kind: 'postgres', url: withDatabase(adminUrl, building) });
      await migrateDatabase(database);
      await database.close();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * A new, empty place for a runtime's data, already migrated unless `empty` (the migration suites
 * start from an older schema).
 */
export async function createTestStore(options: { empty?: boolean } = {}): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'titan-test-'));
  if (testDbKind === 'pglite') {
    if (!options.empty) cpSync(await pgliteTemplate(), join(dataDir, 'pglite'), { recursive: true });
    return {
      env: { DATA_DIR: dataDir },
      destroy: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `titan_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? null : await postgresTemplate(adminUrl);
  const admin = await adminClient(adminUrl);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        break;
      } catch (err) {
        // Two clones of one template at the same instant: PostgreSQL refuses the second; retry.
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: withDatabase(adminUrl, name) },
    async destroy() {
      const a = await adminClient(adminUrl);
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

type OpenedDatabase = Awaited<ReturnType<typeof openDatabase>>;

/** The id of the row an `insert … returning id` made (migration tests write old schemas in SQL). */
export async function insertedId(db: OpenedDatabase, sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(sql, params);
  return Number(row!.id);
}

/**
 * A migration's test on a database written before it: an empty store migrated up to (not
 * including) `tag`, written by `seed` in that schema's SQL, then opened by a runtime that applies
 * the rest, which `check` reads. Store and migrations copy are removed either way.
 */
export async function acrossMigration<T>(
  tag: string,
  seed: (old: OpenedDatabase) => Promise<T>,
  check: (rt: Runtime, seeded: T) => Promise<void>,
): Promise<void> {
  const store = await createTestStore({ empty: true });
  const before = migrationsBefore(tag);
  try {
    const old = await openStoreDatabase(store);
    let seeded: T;
    try {
      await migrateDatabase(old, before.folder);
      seeded = await seed(old);
    } finally {
      await old.close();
    }
    const rt = await createTestRuntime({ store, http: false });
    try {
      await check(rt, seeded);
    } finally {
      await rt.close();
    }
  } finally {
    before.remove();
    await store.destroy();
  }
}
