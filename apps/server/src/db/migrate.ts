// Applies drizzle migrations at start; the same SQL runs on PGlite and PostgreSQL.
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrationsDir } from '../paths';
import type { Database } from './client';

// Serialises instances that start together against one PostgreSQL; any constant works.
const MIGRATION_LOCK_KEY = 7_146_521_903;

/** `migrationsFolder`: another folder, for tests that start from an older schema. */
export async function migrateDatabase(database: Database, migrationsFolder = migrationsDir): Promise<void> {
  const config = { migrationsFolder };
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, config);
    return;
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await migratePg(tx as unknown as NodePgDatabase, config);
  });
}
