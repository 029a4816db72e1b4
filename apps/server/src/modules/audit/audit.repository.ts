// The only code that writes audit_log: rows are inserted, and deleted only by the retention purge.
// There is no update path (audit-log.test.ts greps the server for one).
import { and, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditInsert = typeof auditLog.$inferInsert;

/**
 * Appends one row. The actor's name is read in the same statement (a member's name, else their
 * address; an API key's name), so a later rename or deletion does not change who the row names.
 */
export async function insertAudit(db: Queryable, row: Omit<AuditInsert, 'actorName'>): Promise<void> {
  const name =
    row.actorType === 'member'
      ? sql`coalesce((select nullif(trim(first_name || ' ' || last_name), '') || ' <' || email || '>' from users where id = ${row.actorId}), '')`
      : sql`coalesce((select name from api_keys where id = ${row.actorId}), '')`;
  await db.insert(auditLog).values({ ...row, actorName: name });
}

export type AuditFilter = {
  actorType?: 'member' | 'api_key' | undefined;
  actorId?: number | undefined;
  action?: string | undefined;
  objectType?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

function where(businessId: number, f: AuditFilter): SQL | undefined {
  return and(
    eq(auditLog.businessId, businessId),
    f.actorType ? eq(auditLog.actorType, f.actorType) : undefined,
    f.actorId !== undefined ? eq(auditLog.actorId, f.actorId) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.objectType ? eq(auditLog.objectType, f.objectType) : undefined,
    f.from ? gte(auditLog.createdAt, f.from) : undefined,
    f.to ? lte(auditLog.createdAt, f.to) : undefined,
  );
}

export async function listAudit(
  db: Queryable,
  businessId: number,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AuditRow[]; count: number }> {
  const condition = where(businessId, filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(condition)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(condition),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** The filtered rows, newest first, `batch` at a time (keyset on id). */
export async function* streamAudit(
  db: Queryable,
  businessId: number,
  filter: AuditFilter,
  batch = 1000,
): AsyncGenerator<AuditRow[]> {
  let before: number | null = null;
  for (;;) {
    const rows: AuditRow[] = await db
      .select()
      .from(auditLog)
      .where(and(where(businessId, filter), before === null ? undefined : lt(auditLog.id, before)))
      .orderBy(desc(auditLog.id))
      .limit(batch);
    if (!rows.length) return;
    yield rows;
    if (rows.length < batch) return;
    before = rows.at(-1)!.id;
  }
}

/** The retention purge: the only statement that removes audit rows. */
export async function purgeAuditBefore(db: Queryable, before: Date): Promise<number> {
  const rows = await db.delete(auditLog).where(lt(auditLog.createdAt, before)).returning({ id: auditLog.id });
  return rows.length;
}

/**
 * Erase (GDPR art. 17): the trail keeps who changed a customer and when, without the values
 * (names, addresses) the changes held.
 */
export async function scrubObjectChanges(
  db: Queryable,
  businessId: number,
  objectType: string,
  objectId: string,
): Promise<void> {
  await db
    .update(auditLog)
    .set({ changes: {} })
    .where(
      and(
        eq(auditLog.businessId, businessId),
        eq(auditLog.objectType, objectType),
        eq(auditLog.objectId, objectId),
      ),
    );
}
