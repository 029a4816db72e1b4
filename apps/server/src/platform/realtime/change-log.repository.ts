// change_log: every realtime change with its per-business sequence number (filled by the
// change-feed triggers), read back to resume subscriptions and pruned after a day.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { changeLog } from '../../db/schema';

export async function latestSeq(db: Db, businessId: number): Promise<number> {
  const [row] = await db
    .select({ seq: sql<number>`coalesce(max(${changeLog.seq}), 0)` })
    .from(changeLog)
    .where(eq(changeLog.businessId, businessId));
  return Number(row?.seq ?? 0);
}

export async function oldestSeq(db: Db): Promise<number> {
  const [row] = await db.select({ seq: sql<number>`coalesce(min(${changeLog.seq}), 0)` }).from(changeLog);
  return Number(row?.seq ?? 0);
}

/** Changes of a business after `afterSeq`, oldest first, for resuming a subscription. */
export async function changesAfter(db: Db, businessId: number, afterSeq: number, limit: number) {
  return db
    .select()
    .from(changeLog)
    .where(and(eq(changeLog.businessId, businessId), gt(changeLog.seq, afterSeq)))
    .orderBy(changeLog.seq)
    .limit(limit);
}

export async function pruneChangeLog(db: Db, olderThan: Date): Promise<void> {
  await db.delete(changeLog).where(lt(changeLog.createdAt, olderThan));
}
