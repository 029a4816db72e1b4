// The only code that touches stored_files.
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { storedFiles, visitorUploadDays } from '../../db/schema';

export type StoredFileRow = typeof storedFiles.$inferSelect;

export async function insertStoredFile(
  db: Db,
  values: typeof storedFiles.$inferInsert,
): Promise<StoredFileRow> {
  const [row] = await db.insert(storedFiles).values(values).returning();
  return row!;
}

/** Rows of many stored files in one statement (nothing for none). */
export async function insertStoredFiles(db: Queryable, values: (typeof storedFiles.$inferInsert)[]) {
  if (values.length > 0) await db.insert(storedFiles).values(values);
}

export async function findStoredFile(db: Db, key: string): Promise<StoredFileRow | null> {
  const [row] = await db.select().from(storedFiles).where(eq(storedFiles.key, key)).limit(1);
  return row ?? null;
}

export async function findBusinessFile(
  db: Db,
  businessId: number,
  key: string,
): Promise<StoredFileRow | null> {
  const [row] = await db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.key, key), eq(storedFiles.businessId, businessId)))
    .limit(1);
  return row ?? null;
}

/** Chat media lives here: `{CHAT_MEDIA_PREFIX}{business}/{conversation}/…`. */
export const CHAT_MEDIA_PREFIX = 'public/public_chat_media/';

/**
 * Deletes up to `limit` chat files uploaded before `cutoff` that no message holds, oldest first,
 * and answers their keys (the caller removes the bytes). The check and the delete are one
 * statement: a file a message holds is never deleted, and once its row is gone no message can
 * take it (sending a file needs its row).
 */
export async function deleteUnsentChatMedia(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const result = await db.execute(sql`
    with doomed as (
      select f.id from stored_files f
      where f.key like ${`${CHAT_MEDIA_PREFIX}%`} and f.created_at < ${cutoff.toISOString()}::timestamptz
        and not exists (
          select 1 from messages m where m.message_type = 'file' and (m.meta_data ->> 'key') = f.key
        )
      order by f.created_at, f.id
      limit ${limit}
      for update skip locked
    )
    delete from stored_files where id = any(array(select id from doomed))
    returning key`);
  return (result as unknown as { rows: { key: string }[] }).rows.map((r) => r.key);
}

/**
 * Counts one visitor upload of `bytes` against the business's allowance for today (UTC), in one
 * statement so concurrent uploads cannot both take the last of it. False (nothing counted) when
 * the file would go over either limit.
 */
export async function takeVisitorUploadAllowance(
  db: Db,
  businessId: number,
  bytes: number,
  limits: { maxFiles: number; maxBytes: number },
): Promise<boolean> {
  const today = sql`(now() at time zone 'UTC')::date`;
  const size = sql`${bytes}::bigint`;
  const maxBytes = sql`${limits.maxBytes}::bigint`;
  const maxFiles = sql`${limits.maxFiles}::int`;
  const result = await db.execute(sql`
    insert into visitor_upload_days as u (business_id, day, files, bytes)
    select ${businessId}::bigint, ${today}, 1, ${size}
    where ${size} <= ${maxBytes} and 1 <= ${maxFiles}
    on conflict (business_id, day) do update set files = u.files + 1, bytes = u.bytes + excluded.bytes
      where u.files + 1 <= ${maxFiles} and u.bytes + excluded.bytes <= ${maxBytes}
    returning u.files`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/** Forgets allowance days before `before` (a UTC date, YYYY-MM-DD). */
export async function pruneVisitorUploadDays(db: Db, before: string): Promise<void> {
  await db.delete(visitorUploadDays).where(sql`${visitorUploadDays.day} < ${before}::date`);
}
