// The only code that writes user_presence (migration 0048).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/sql';
import type { TPresenceStatus } from '@titan/contracts';

export type PresenceRow = { userId: number; status: TPresenceStatus; updatedAt: Date };

type Raw = { user_id: string | number; status: TPresenceStatus; updated_at: string | Date };
const toRow = (r: Raw): PresenceRow => ({
  userId: Number(r.user_id),
  status: r.status,
  updatedAt: new Date(r.updated_at),
});

/** Sets a member's presence (and counts them as seen now); answers the row and whether it changed. */
export async function setStatus(
  db: Queryable,
  userId: number,
  status: TPresenceStatus,
): Promise<{ row: PresenceRow; changed: boolean }> {
  const [before] = await rowsOf<{ status: TPresenceStatus }>(
    db,
    sql`select status from user_presence where user_id = ${userId} for update`,
  );
  const [row] = await rowsOf<Raw>(
    db,
    sql`insert into user_presence (user_id, status, last_seen_at, updated_at)
      values (${userId}, ${status}, now(), now())
      on conflict (user_id) do update set status = excluded.status, last_seen_at = now(),
        updated_at = case when user_presence.status = excluded.status then user_presence.updated_at else now() end
      returning user_id, status, updated_at`,
  );
  return { row: toRow(row!), changed: (before?.status ?? 'offline') !== status };
}

/** These users have a realtime connection open: seen now. */
export async function touch(db: Queryable, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.execute(
    sql`update user_presence set last_seen_at = now()
      where user_id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb)::bigint)`,
  );
}

/** Everyone not seen within the grace period goes offline; answers who did. */
export async function expire(db: Queryable, graceSeconds: number): Promise<PresenceRow[]> {
  const rows = await rowsOf<Raw>(
    db,
    sql`update user_presence set status = 'offline', updated_at = now()
      where status <> 'offline' and last_seen_at < now() - make_interval(secs => ${graceSeconds})
      returning user_id, status, updated_at`,
  );
  return rows.map(toRow);
}

export async function findPresence(db: Queryable, userIds: number[]): Promise<PresenceRow[]> {
  if (userIds.length === 0) return [];
  const rows = await rowsOf<Raw>(
    db,
    sql`select user_id, status, updated_at from user_presence
      where user_id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb)::bigint)`,
  );
  return rows.map(toRow);
}

/** The businesses whose members these users are (each presence change is news to each of them). */
export async function businessesOf(
  db: Queryable,
  userIds: number[],
): Promise<{ businessId: number; userId: number }[]> {
  if (userIds.length === 0) return [];
  const rows = await rowsOf<{ business_id: string | number; user_id: string | number }>(
    db,
    sql`select business_id, user_id from memberships
      where user_id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb)::bigint)`,
  );
  return rows.map((r) => ({ businessId: Number(r.business_id), userId: Number(r.user_id) }));
}

/** Whether the user is a member of the business (the presence topic sends members only). */
export async function isMember(db: Queryable, businessId: number, userId: number): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    db,
    sql`select 1 as one from memberships where business_id = ${businessId} and user_id = ${userId}`,
  );
  return rows.length > 0;
}
