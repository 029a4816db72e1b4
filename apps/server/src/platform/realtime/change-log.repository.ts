// change_log: every realtime change with its per-business sequence number (filled by the
// change-feed triggers, or by `announceChange` for rows that announce themselves), read back to
// resume subscriptions and pruned after a day.
import { and, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { changeLog } from '../../db/schema';
import { CHANGE_CHANNEL } from '../change-feed';

/**
 * What the change-feed trigger does, for a row whose table has none (it changes often, and only
 * some of its writes are news): appends the change to change_log and announces it on the feed
 * with its seq. In a transaction the announcement goes out when it commits, and not at all if it
 * rolls back — so a subscriber hears only what was written.
 */
export async function announceChange(
  db: Db | Tx,
  change: { businessId: number; table: string; op: 'INSERT' | 'UPDATE'; rowId: string },
): Promise<void> {
  await db.execute(sql`with logged as (
      insert into change_log (business_id, table_name, op, row_id)
      values (${change.businessId}, ${change.table}, ${change.op}, ${change.rowId})
      returning seq, business_id, table_name, op, row_id
    )
    select pg_notify(${CHANGE_CHANNEL}, json_build_object(
      'seq', seq, 'table', table_name, 'op', op, 'id', row_id,
      'business_id', business_id::text, 'conversation_id', null
    )::text) from logged`);
}

/**
 * announceChange for several rows of one table, as part of a caller's own statement (its write and the announcement in one round
 * trip, without a transaction around two): two CTEs, `logged` and `announced`, that log and announce
 * the rows `source` selects (columns `business_id` and `row_id`, text). The caller's statement must
 * read `announced` (a CTE that only selects runs when read), e.g. `(select n from announced)`.
 */
export function announceChangesCte(table: string, op: 'INSERT' | 'UPDATE', source: SQL): SQL {
  return sql`logged as (
      insert into change_log (business_id, table_name, op, row_id)
      select s.business_id, ${table}, ${op}, s.row_id from (${source}) as s
      returning seq, business_id, table_name, op, row_id
    ), announced as (
      select count(pg_notify(${CHANGE_CHANNEL}, json_build_object(
        'seq', seq, 'table', table_name, 'op', op, 'id', row_id,
        'business_id', business_id::text, 'conversation_id', null
      )::text)) as n from logged
    )`;
}

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

/** Changes to these tables logged since `since`, oldest first (every business): for sweeps. */
export async function recentChanges(db: Db, tables: string[], since: Date, limit: number) {
  return db
    .select()
    .from(changeLog)
    .where(and(inArray(changeLog.tableName, tables), gt(changeLog.createdAt, since)))
    .orderBy(changeLog.seq)
    .limit(limit);
}

/** The changes of these seqs still logged, oldest first (for claims to take again). */
export async function changesBySeq(db: Db, seqs: readonly number[]) {
  if (seqs.length === 0) return [];
  return db
    .select()
    .from(changeLog)
    .where(inArray(changeLog.seq, [...seqs]))
    .orderBy(changeLog.seq);
}

export async function pruneChangeLog(db: Db, olderThan: Date): Promise<void> {
  await db.delete(changeLog).where(lt(changeLog.createdAt, olderThan));
}
