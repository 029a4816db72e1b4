// A statement built with drizzle's query builder, run on the driver itself. For the hottest reads:
// drizzle's per-call work (tracing spans, placeholder checks, mapping every field of every row)
// costs a list call about as much as the rest of its JavaScript; answered as arrays of the
// driver's own values, in the select's column order.
import type { PGlite } from '@electric-sql/pglite';
import { is, Param, Placeholder } from 'drizzle-orm';
import pg from 'pg';
import { STATEMENT, statementSummary } from '../platform/db-errors';
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
  // A failure is logged by this name, not by the driver's text, which holds the values.
  const label = name || statementSummary(text);
  const failed = (err: unknown): never => {
    if (err instanceof Error) Object.defineProperty(err, STATEMENT, { value: label });
    throw err;
  };
  if (client instanceof pg.Pool) {
    const statementName = name || undefined; // undefined: the unnamed statement
    return (values) =>
      client
        .query<unknown[]>({ name: statementName, text, values: fill(values), rowMode: 'array' })
        .then(rowsOf, failed);
  }
  return (values) => client.query<unknown[]>(text, fill(values), { rowMode: 'array' }).then(rowsOf, failed);
}

const rowsOf = (result: { rows: unknown[][] }) => result.rows;

/**
 * drizzle's fillPlaceholders, with the parameters sorted out once instead of per call: a constant,
 * or the name of a placeholder and the encoder of the column it is compared with.
 */
export function placeholderFiller(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const names: (string | null)[] = [];
  const constants: unknown[] = [];
  const encoders: ((value: unknown) => unknown)[] = [];
  const asIs = (value: unknown) => value;
  for (const p of params) {
    if (is(p, Placeholder)) {
      names.push(p.name);
      encoders.push(asIs);
    } else if (is(p, Param) && is(p.value, Placeholder)) {
      const encoder = p.encoder;
      names.push(p.value.name);
      encoders.push((value) => encoder.mapToDriverValue(value));
    } else {
      names.push(null);
      encoders.push(asIs);
    }
    constants.push(p);
  }
  return (values) => {
    const out = new Array<unknown>(names.length);
    for (let i = 0; i < names.length; i++) {
      const placeholder = names[i]!;
      if (placeholder === null) out[i] = constants[i];
      else if (placeholder in values) out[i] = encoders[i]!(values[placeholder]);
      else throw new Error(`No value for placeholder "${placeholder}" was provided`);
    }
    return out;
  };
}
