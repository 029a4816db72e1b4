// A business's connections to outside services (MCP servers, plugin connections) share one row
// lifecycle: listed, found, added, changed and removed within the business, and refreshed one
// process at a time under a lease. Each owning repository builds its functions here from its table,
// so that repository stays the only code writing it.
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** The columns every connection table has. */
export type ConnectionTable = PgTable & {
  id: PgColumn;
  businessId: PgColumn;
  updatedAt: PgColumn;
  refreshLeaseUntil: PgColumn;
};

/** One connection, for refreshing it under its lease (`refreshWithLease`). */
export type LeasedRow<Row, New> = {
  /** The connection as stored now; null once removed. */
  read(): Promise<Row | null>;
  /**
   * Takes the refresh lease for `ms` when nobody holds it (or theirs ran out): the one process that
   * gets the row back refreshes; the others wait and read what it stored.
   */
  claim(ms: number): Promise<Row | null>;
  /** Writes the refresh's outcome (which frees the lease). */
  finish(set: Partial<New>): Promise<void>;
};

export type ConnectionRows<Row, New> = {
  list(db: Db, businessId: number): Promise<Row[]>;
  find(db: Db, businessId: number, id: number): Promise<Row | null>;
  insert(db: Db, values: New): Promise<Row>;
  update(db: Db, businessId: number, id: number, set: Partial<New>): Promise<Row | null>;
  remove(db: Db, businessId: number, id: number): Promise<boolean>;
  leased(db: Db, row: { businessId: number; id: number }): LeasedRow<Row, New>;
};

export function connectionRows<T extends ConnectionTable>(
  table: T,
): ConnectionRows<T['$inferSelect'], T['$inferInsert']> {
  type Row = T['$inferSelect'];
  type New = T['$inferInsert'];
  // Drizzle's builders cannot follow a table chosen by a type parameter: the rows are typed here.
  const t = table as ConnectionTable;
  const one = (businessId: number, id: number) => and(eq(t.businessId, businessId), eq(t.id, id));
  const find = async (db: Db, businessId: number, id: number): Promise<Row | null> => {
    const [row] = await db.select().from(t).where(one(businessId, id)).limit(1);
    return (row as Row | undefined) ?? null;
  };
  const update = async (db: Db, businessId: number, id: number, set: Partial<New>): Promise<Row | null> => {
    const [row] = await db
      .update(t)
      .set({ ...set, updatedAt: new Date() } as never)
      .where(one(businessId, id))
      .returning();
    return (row as Row | undefined) ?? null;
  };
  return {
    list: async (db, businessId) =>
      (await db.select().from(t).where(eq(t.businessId, businessId)).orderBy(asc(t.id))) as Row[],
    find,
    insert: async (db, values) => {
      const [row] = await db
        .insert(t)
        .values(values as never)
        .returning();
      return row as Row;
    },
    update,
    remove: async (db, businessId, id) => {
      const rows = await db.delete(t).where(one(businessId, id)).returning({ id: t.id });
      return rows.length > 0;
    },
    leased: (db, { businessId, id }) => ({
      read: () => find(db, businessId, id),
      claim: async (ms) => {
        const [row] = await db
          .update(t)
          .set({ refreshLeaseUntil: sql`now() + ${`${ms} milliseconds`}::interval` } as never)
          .where(
            and(one(businessId, id), or(isNull(t.refreshLeaseUntil), lt(t.refreshLeaseUntil, sql`now()`))),
          )
          .returning();
        return (row as Row | undefined) ?? null;
      },
      finish: async (set) => {
        await update(db, businessId, id, set);
      },
    }),
  };
}
