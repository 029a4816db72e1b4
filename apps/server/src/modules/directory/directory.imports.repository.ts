// Imports: many rows matched and written set-based (customer-imports module).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';

export type ImportedRow = {
  rowNumber: number;
  name: string | null;
  /** Lower-cased. */
  email: string | null;
  /** E.164. */
  phone: string | null;
  /** Namespaced (`widget:<id>`). */
  externalId: string | null;
  fields: Record<string, string>;
};

export type ImportMode = 'skip' | 'overwrite' | 'merge';

/** The key a row matched an existing customer by, as the errors CSV names it. */
export type ImportKey = 'external id' | 'email address' | 'phone number';

/**
 * Per row: inserted, updated, matched but left as it was (skip mode), lost to a concurrent insert,
 * or matched a customer an earlier row of the same file already had (`duplicates`: not written).
 */
export type ImportOutcome = {
  inserted: { rowNumber: number; id: number }[];
  updated: { rowNumber: number; id: number }[];
  unchanged: { rowNumber: number; id: number }[];
  lost: number[];
  duplicates: { rowNumber: number; of: number; key: ImportKey }[];
};

/** Array parameters: one bind value per column, whatever the batch's size (no IN lists). */
const textArray = (values: (string | null)[]) => sql`${sql.param(values)}::text[]`;

/**
 * The existing customer of the business each row matches — by external id, else email
 * (case-insensitive), else phone — in one query over the batch's keys, or null.
 */
export async function matchImportRows(
  db: Queryable,
  businessId: number,
  rows: ImportedRow[],
): Promise<({ id: number; key: ImportKey } | null)[]> {
  if (rows.length === 0) return [];
  const emails = [...new Set(rows.flatMap((r) => (r.email ? [r.email] : [])))];
  const phones = [...new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])))];
  const externals = [...new Set(rows.flatMap((r) => (r.externalId ? [r.externalId] : [])))];
  // One index probe per key (a lateral lookup the planner may not flatten: `offset 0`), whatever
  // the table's statistics say: with the keys as a filter or a join, a table grown fast since it
  // was last analysed (by an import) looked small to the planner, and was read whole every batch.
  const lookups = (
    [
      [sql`c.external_id`, externals],
      [sql`lower(c.email)`, emails],
      [sql`c.phone`, phones],
    ] as const
  ).flatMap(([column, values]) =>
    values.length
      ? [
          sql`select m.* from unnest(${textArray(values)}) as k(value) cross join lateral (
              select c.id, lower(c.email) as email, c.phone, c.external_id from customers c
              where c.business_id = ${businessId} and ${column} = k.value offset 0) m`,
        ]
      : [],
  );
  if (lookups.length === 0) return rows.map(() => null);
  const { rows: existing } = (await db.execute(
    sql`${sql.join(lookups, sql` union all `)} order by id`,
  )) as unknown as {
    rows: { id: string | number; email: string | null; phone: string | null; external_id: string | null }[];
  };
  const byExternal = new Map<string, number>();
  const byEmail = new Map<string, number>();
  const byPhone = new Map<string, number>();
  for (const c of existing) {
    const id = Number(c.id);
    if (c.external_id) byExternal.set(c.external_id, id);
    if (c.email && !byEmail.has(c.email)) byEmail.set(c.email, id);
    if (c.phone && !byPhone.has(c.phone)) byPhone.set(c.phone, id);
  }
  const found = (id: number | undefined, key: ImportKey) => (id === undefined ? null : { id, key });
  return rows.map(
    (r) =>
      (r.externalId ? found(byExternal.get(r.externalId), 'external id') : null) ??
      (r.email ? found(byEmail.get(r.email), 'email address') : null) ??
      (r.phone ? found(byPhone.get(r.phone), 'phone number') : null),
  );
}

/**
 * One batch of import rows, set-based: each row is matched to an existing customer of the
 * business (`matchImportRows`); unmatched rows are inserted; matched ones are skipped,
 * overwritten (the row's non-empty values replace the stored ones) or merged (only empty stored
 * values are filled; stored custom fields win), by `mode` — unless `earlierRow` names the row of
 * the same file that already had that customer: then the row is a duplicate, and not written.
 */
export async function importCustomers(
  db: Queryable,
  businessId: number,
  rows: ImportedRow[],
  mode: ImportMode,
  earlierRow: (customerId: number) => number | undefined = () => undefined,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { inserted: [], updated: [], unchanged: [], lost: [], duplicates: [] };
  if (rows.length === 0) return outcome;
  const matches = await matchImportRows(db, businessId, rows);
  const fresh: ImportedRow[] = [];
  const matched: { row: ImportedRow; id: number }[] = [];
  rows.forEach((row, i) => {
    const match = matches[i];
    if (!match) return fresh.push(row);
    const of = earlierRow(match.id);
    if (of !== undefined) outcome.duplicates.push({ rowNumber: row.rowNumber, of, key: match.key });
    else matched.push({ row, id: match.id });
  });
  const column = <K extends keyof ImportedRow>(list: ImportedRow[], key: K) => list.map((r) => r[key]);
  const returned = fresh.length
    ? (
        (await db.execute(sql`insert into customers (business_id, name, email, phone, external_id, fields)
          select ${businessId}, v.name, v.email, v.phone, v.external_id, v.fields::jsonb
          from unnest(${sql.param(column(fresh, 'rowNumber'))}::int[], ${textArray(column(fresh, 'name'))},
            ${textArray(column(fresh, 'email'))}, ${textArray(column(fresh, 'phone'))},
            ${textArray(column(fresh, 'externalId'))}, ${textArray(fresh.map((r) => JSON.stringify(r.fields)))})
            as v("row", name, email, phone, external_id, fields)
          order by v."row"
          on conflict (business_id, external_id) do nothing
          returning id, external_id`)) as unknown as {
          rows: { id: string | number; external_id: string | null }[];
        }
      ).rows
    : [];
  // A row whose external id another writer took meanwhile is skipped; the others come back in order.
  const byReturnedExternal = new Map(
    returned.flatMap((r) => (r.external_id ? [[r.external_id, Number(r.id)]] : [])),
  );
  const withoutExternal = returned.filter((r) => !r.external_id).map((r) => Number(r.id));
  for (const r of fresh) {
    const id = r.externalId ? byReturnedExternal.get(r.externalId) : withoutExternal.shift();
    if (id === undefined) outcome.lost.push(r.rowNumber);
    else outcome.inserted.push({ rowNumber: r.rowNumber, id });
  }
  const ids = matched.map((m) => ({ rowNumber: m.row.rowNumber, id: m.id }));
  if (mode === 'skip' || matched.length === 0) return { ...outcome, unchanged: ids };
  const m = matched.map((x) => x.row);
  const set =
    mode === 'overwrite'
      ? sql`name = coalesce(v.name, c.name), email = coalesce(v.email, c.email), phone = coalesce(v.phone, c.phone),
          external_id = coalesce(c.external_id, v.external_id), fields = c.fields || v.fields`
      : sql`name = coalesce(nullif(c.name, ''), v.name), email = coalesce(nullif(c.email, ''), v.email),
          phone = coalesce(nullif(c.phone, ''), v.phone), external_id = coalesce(c.external_id, v.external_id),
          fields = v.fields || c.fields`;
  await db.execute(sql`update customers c set ${set}, updated_at = now()
    from (select distinct on (id) id, name, email, phone, external_id, fields::jsonb as fields
      from unnest(${sql.param(matched.map((x) => x.id))}::bigint[], ${sql.param(column(m, 'rowNumber'))}::int[],
        ${textArray(column(m, 'name'))}, ${textArray(column(m, 'email'))}, ${textArray(column(m, 'phone'))},
        ${textArray(column(m, 'externalId'))}, ${textArray(m.map((r) => JSON.stringify(r.fields)))})
        as x(id, "row", name, email, phone, external_id, fields)
      order by id, "row" desc) v
    where c.id = v.id and c.business_id = ${businessId}`);
  return { ...outcome, updated: ids };
}
