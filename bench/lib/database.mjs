// The database Titan runs on during a benchmark: a fresh PostgreSQL database, dropped afterwards;
// embedded PGlite in a temporary DATA_DIR only when PostgreSQL cannot be reached.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const DEFAULT_ADMIN_URL = 'postgres://root@127.0.0.1:5432/test';

/** The URL without its password, for printing. */
export function redactUrl(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function isLocal(url) {
  return ['localhost', '127.0.0.1', '[::1]', ''].includes(url.hostname) || url.hostname.startsWith('/');
}

async function withAdmin(adminUrl, fn) {
  const client = new pg.Client({
    connectionString: adminUrl,
    connectionTimeoutMillis: 5_000,
    application_name: 'titan-bench',
  });
  // A server that drops the connection must not crash the benchmark process.
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Returns one of
 *   { kind: 'postgres', url, name, adminUrl, serverVersion, describe, drop() }
 *   { kind: 'pglite', dataDir, reason, describe, drop() }
 * `drop()` removes what was created; it is safe to call more than once.
 */
export async function provisionDatabase() {
  const adminUrl = process.env.DATABASE_URL || DEFAULT_ADMIN_URL;
  const source = process.env.DATABASE_URL ? 'DATABASE_URL' : 'the default';
  const name = `titan_bench_${randomBytes(5).toString('hex')}`;
  let serverVersion;
  try {
    serverVersion = await withAdmin(adminUrl, async (client) => {
      const { rows } = await client.query('show server_version');
      await client.query(`create database "${name}"`);
      return rows[0].server_version;
    });
  } catch (err) {
    const reason =
      `PostgreSQL unusable at ${redactUrl(adminUrl)} (${source}): ${err.code ?? ''} ${err.message}`.replace(
        /\s+/g,
        ' ',
      );
    return provisionPglite(reason);
  }

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  // BENCH_KEEP_DATABASE=1 leaves the database in place (its name printed) to look into afterwards.
  const keep = process.env.BENCH_KEEP_DATABASE === '1';
  return {
    kind: 'postgres',
    url: url.toString(),
    name,
    adminUrl,
    serverVersion,
    describe:
      `PostgreSQL ${serverVersion} at ${redactUrl(adminUrl)}${isLocal(url) ? ' (on this machine, sharing its CPUs)' : ''}, ` +
      `fresh database ${name} (${keep ? 'kept: BENCH_KEEP_DATABASE' : 'dropped at the end'})`,
    async drop() {
      if (dropped) return;
      dropped = true;
      if (keep) return;
      await withAdmin(adminUrl, async (client) => {
        try {
          await client.query(`drop database if exists "${name}" with (force)`);
        } catch (err) {
          // WITH (FORCE) needs PostgreSQL 13+: end the sessions by hand, then drop.
          if (err.code !== '42601') throw err;
          await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
            name,
          ]);
          await client.query(`drop database if exists "${name}"`);
        }
      });
    },
  };
}

async function provisionPglite(reason) {
  const dataDir = await mkdtemp(join(tmpdir(), 'titan-bench-pglite-'));
  return {
    kind: 'pglite',
    dataDir,
    reason,
    describe:
      `embedded PGlite in ${dataDir} — FALLBACK: ${reason}. ` +
      'PGlite is ~10x slower per query than PostgreSQL and not the deployment target: ' +
      'these Titan figures are not the real ones.',
    async drop() {
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
