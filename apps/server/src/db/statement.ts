// A statement built with drizzle's query builder, run on the driver itself. For the hottest reads:
// drizzle's per-call work (tracing spans, placeholder checks, mapping every field of every row)
// costs a list call about as much as the rest of its JavaScript; answered as arrays of the
// driver's own values, in the select's column order.
import type { PGlite } from '@electric-sql/pglite';
import { is, Param, Placeholder } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client';

export type RawStatement = (values: Record<string, unknown>) => Promise<unknown[][]>;

/**
 * `query`'s text and parameters, fixed now; each call fills its placeholders (`sql.placeholder`)
 * from `values`. A non-empty `name` makes it a named (prepared) statement on PostgreSQL.
 */
export function rawStatement(
  db: Db,
  query: { toSQL(): { sql: string; params: unknown[] } },
  name = '',
): RawStatement {
  const { sql: text, params } = query.toSQL();
  const fill = placeholderFiller(params);
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool) {
    return async (values) => {
      const config = { text, values: fill(values), rowMode: 'array' as const };
      const { rows } = await client.query<unknown[]>(name ? { ...config, name } : config);
      return rows;
    };
  }
  return async (values) => {
    const { rows } = await client.query<unknown[]>(text, fill(values), { rowMode: 'array' });
    return rows;
  };
}

type Slot = { value: unknown } | { placeholder: string; encode: (value: unknown) => unknown };

/** drizzle's fillPlaceholders, with the parameters' kinds sorted out once instead of per call. */
function placeholderFiller(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const slots: Slot[] = params.map((p) => {
    if (is(p, Placeholder)) return { placeholder: p.name, encode: (v) => v };
    if (is(p, Param) && is(p.value, Placeholder)) {
      const encoder = p.encoder;
      return { placeholder: p.value.name, encode: (v) => encoder.mapToDriverValue(v) };
    }
    return { value: p };
  });
  return (values) =>
    slots.map((slot) => {
      if ('value' in slot) return slot.value;
      if (!(slot.placeholder in values))
        throw new Error(`No value for placeholder "${slot.placeholder}" was provided`);
      return slot.encode(values[slot.placeholder]);
    });
}
