// Helpers for the SQL repositories write by hand: one definition each, shared by every repository.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './client';

/** Both drivers answer `execute` with `{ rows }`; the generic PgDatabase type cannot say so. */
export async function rowsOf<T>(db: Queryable, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Rows (or values) travel as one jsonb document: one parameter whatever the batch size, on both drivers. */
export const recordset = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;

/**
 * The one hash that turns a lock's text key into an advisory-lock number (64-bit), for SQL that
 * locks many keys in one statement; every lock on a key must hash it the same way.
 */
export const lockKeyOf = (key: SQL | string) => sql`hashtextextended(${key}, 0)`;

/** Holds the advisory lock named `key` until the transaction ends (commit or rollback). */
export async function advisoryLock(tx: Queryable, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${lockKeyOf(key)})`);
}
