// CPU seconds PostgreSQL spent for one database: its backends, found in pg_stat_activity on every
// `sample()`, each one's CPU read from /proc then (a backend that closes between samples loses its
// tail). Only meaningful when PostgreSQL runs on this machine.
import pg from 'pg';
import { cpuSeconds } from './rows-table.mjs';

export async function watchBackendCpu(databaseUrl) {
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await watcher.connect();
  const backends = new Map();
  const sample = async () => {
    const { rows } = await watcher.query(
      `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    for (const { pid } of rows) {
      try {
        const now = cpuSeconds(pid);
        backends.set(pid, { first: backends.get(pid)?.first ?? now, last: now });
      } catch {
        // gone, or not on this machine
      }
    }
  };
  await sample();
  return {
    sample,
    /** CPU seconds since the first sample, summed over the backends seen. */
    total: () => [...backends.values()].reduce((sum, b) => sum + b.last - b.first, 0),
    reset: async () => {
      backends.clear();
      await sample();
    },
    end: () => watcher.end(),
  };
}
