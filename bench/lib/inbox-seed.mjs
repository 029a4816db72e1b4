// The seeded inbox database, shared by the suites of one run: seeded once (bench/seed/inbox.mjs),
// on first use, and dropped when the run ends. With BENCH_INBOX_DATABASE_URL the given database is
// used instead (seeded first if it is not yet) and kept, so later runs skip the seeding.
import pg from 'pg';
import { redactUrl } from './database.mjs';
import { findSeed, seedInbox, seedSizes } from '../seed/inbox.mjs';

/**
 * `ctx`-like deps: { provisionDatabase, startTitan, progress, deferRun }.
 * Resolves with { database, seed, seeded: boolean, describe, seedSeconds, timings }.
 */
export async function prepareInboxSeed({ provisionDatabase, startTitan, progress, deferRun }) {
  const keptUrl = process.env.BENCH_INBOX_DATABASE_URL;
  let database;
  if (keptUrl) {
    await ensureDatabase(keptUrl);
    database = {
      kind: 'postgres',
      url: keptUrl,
      name: new URL(keptUrl).pathname.slice(1),
      describe: `PostgreSQL at ${redactUrl(keptUrl)} (BENCH_INBOX_DATABASE_URL, kept)`,
      drop: async () => {},
    };
  } else {
    database = await provisionDatabase();
    deferRun(() => database.drop());
    if (database.kind !== 'postgres') {
      throw new Error(`the inbox suites need PostgreSQL: ${database.describe}`);
    }
  }

  const existing = keptUrl ? await findSeed(keptUrl).catch(() => null) : null;
  if (existing?.complete) {
    progress(
      `reusing the seeded inbox in ${database.name}: ${JSON.stringify(existing.counts)} (BENCH_INBOX_DATABASE_URL)`,
    );
    return { database, seed: existing, seeded: false, seedSeconds: null, timings: [] };
  }
  if (existing) {
    throw new Error(
      `${database.name} holds a partial seed (${JSON.stringify(existing.counts)}): drop it or use a fresh database`,
    );
  }
  const sizes = seedSizes();
  progress(
    `seeding ${sizes.conversations.toLocaleString('en-US')} conversations + ` +
      `${sizes.messages.toLocaleString('en-US')} messages into ${database.name} (once for this run)`,
  );
  const seed = await seedInbox(database, { startTitan, sizes, log: (t) => progress(`seed: ${t}`) });
  progress(`seeded in ${seed.totalSeconds.toFixed(1)} s`);
  return { database, seed, seeded: true, seedSeconds: seed.totalSeconds, timings: seed.timings };
}

/** Creates the database of `url` when it does not exist (connecting through the `postgres` db). */
/**
 * A suite's PostgreSQL database: a fresh one (dropped at the end), or the one `envName` names —
 * kept (`kept: true`): created when missing, seeded on a first run, reused after, never dropped.
 */
export async function keptOrFreshDatabase(ctx, envName, suite) {
  const kept = process.env[envName];
  if (!kept) {
    const database = await ctx.database();
    if (database.kind !== 'postgres') throw new Error(`${suite} needs PostgreSQL: ${database.describe}`);
    return database;
  }
  await ensureDatabase(kept);
  return {
    kind: 'postgres',
    url: kept,
    name: new URL(kept).pathname.slice(1),
    kept: true,
    describe: `PostgreSQL at ${redactUrl(kept)} (${envName}, kept)`,
  };
}

export async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) await client.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end().catch(() => {});
  }
}
