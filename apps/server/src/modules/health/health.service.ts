// Health: is the database answering, and how quickly.
import type { THealth } from '@titan/contracts';
import type { Database } from '../../db/client';
import { version } from '../../platform/version';

export async function checkHealth(database: Database): Promise<THealth> {
  const started = performance.now();
  let ok = true;
  try {
    await database.query('select 1');
  } catch {
    ok = false;
  }
  const latency = Math.round((performance.now() - started) * 100) / 100;
  return {
    status: ok ? 'ok' : 'degraded',
    database: { ok, kind: database.kind, latency_ms: latency },
    version,
    uptime_seconds: Math.round(process.uptime()),
  };
}
