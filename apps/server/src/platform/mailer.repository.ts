// dev_outbox: mail kept for the person running Titan when no SMTP server is configured.
import { desc, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { devOutbox } from '../db/schema';

export async function insertOutboxMail(db: Db, mail: typeof devOutbox.$inferInsert): Promise<void> {
  await db.insert(devOutbox).values(mail);
}

/** One address's mail, newest first. */
export async function listOutboxMail(db: Db, to: string, limit: number) {
  return db.select().from(devOutbox).where(eq(devOutbox.to, to)).orderBy(desc(devOutbox.id)).limit(limit);
}

/** Development mail to any of `addresses` (a customer's erasure: the outbox keeps nothing of them). */
export async function deleteOutboxMailTo(db: Queryable, addresses: string[]): Promise<void> {
  const to = addresses.map((a) => a.toLowerCase()).filter(Boolean);
  if (to.length === 0) return;
  await db.delete(devOutbox).where(sql`lower(${devOutbox.to}) = any(${sql.param(to)}::text[])`);
}
