// dev_outbox: mail kept for the person running Titan when no SMTP server is configured.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { devOutbox } from '../db/schema';

export async function insertOutboxMail(db: Db, mail: typeof devOutbox.$inferInsert): Promise<void> {
  await db.insert(devOutbox).values(mail);
}

/** One address's mail, newest first. */
export async function listOutboxMail(db: Db, to: string, limit: number) {
  return db.select().from(devOutbox).where(eq(devOutbox.to, to)).orderBy(desc(devOutbox.id)).limit(limit);
}
