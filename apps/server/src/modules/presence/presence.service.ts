// Presence (next-api.md "Team inbox"): a member is online, away or offline. Set by hand (the web
// app's avatar menu) or by the web app when idle (away); a member with no realtime connection left
// on any instance is offline after PRESENCE_GRACE_SECONDS: every instance refreshes last_seen_at of
// the members connected to it, and every instance turns offline those nobody refreshed. A change is
// announced to each business of the member (realtime topic `presence`, and the assignment engine,
// which hands waiting conversations to whoever came online).
import type { TPresence, TPresenceStatus } from '@titan/contracts';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../../db/client';
import { announceChange } from '../../platform/realtime/change-log.repository';
import * as repo from './presence.repository';

export const PRESENCE_TABLE = 'user_presence';

export const toPresence = (row: repo.PresenceRow): TPresence => ({
  user_id: row.userId,
  status: row.status,
  updated_at: row.updatedAt.toISOString(),
});

async function announce(tx: Queryable, userIds: number[]) {
  for (const { businessId, userId } of await repo.businessesOf(tx, userIds)) {
    await announceChange(tx as Db, {
      businessId,
      table: PRESENCE_TABLE,
      op: 'UPDATE',
      rowId: String(userId),
    });
  }
}

export async function setPresence(db: Db, userId: number, status: TPresenceStatus): Promise<TPresence> {
  const row = await db.transaction(async (tx) => {
    const { row, changed } = await repo.setStatus(tx, userId, status);
    if (changed) await announce(tx, [userId]);
    return row;
  });
  return toPresence(row);
}

/** Members with a realtime connection open on this instance: seen now. */
export async function touchPresence(db: Db, userIds: number[]): Promise<void> {
  await repo.touch(db, userIds);
}

/** Turns offline everyone unseen for the grace period, announced; answers who. */
export async function expirePresence(db: Db, graceSeconds: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    const gone = await repo.expire(tx, graceSeconds);
    if (gone.length > 0)
      await announce(
        tx,
        gone.map((r) => r.userId),
      );
    return gone.map((r) => r.userId);
  });
}

/** Each user's presence (offline when never set). */
export async function presenceOf(db: Queryable, userIds: number[]): Promise<Map<number, TPresenceStatus>> {
  const rows = await repo.findPresence(db, userIds);
  const map = new Map<number, TPresenceStatus>(userIds.map((id) => [id, 'offline']));
  for (const r of rows) map.set(r.userId, r.status);
  return map;
}

export async function loadPresence(db: Queryable, userId: number): Promise<TPresence> {
  const [row] = await repo.findPresence(db, [userId]);
  return row
    ? toPresence(row)
    : { user_id: userId, status: 'offline', updated_at: new Date(0).toISOString() };
}

/**
 * Every instance turns stale presences offline this often (a quarter of the grace, 1–15 s): a
 * member whose last connection closed is offline between grace and grace + this.
 */
export function startPresenceSweep(db: Db, logger: Logger, graceSeconds: number): () => void {
  const every = Math.min(15_000, Math.max(1_000, (graceSeconds * 1000) / 4));
  const timer = setInterval(() => {
    expirePresence(db, graceSeconds).catch((err: unknown) => logger.error({ err }, 'presence sweep failed'));
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
