// The drizzle schema (src/db/schema) is what the migrations make, and the latest snapshot
// (drizzle/meta) is the schema: so `npm run db:generate` on an unchanged schema writes no migration,
// and a migration written by hand without its schema change (or the reverse) fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../paths';
import * as schema from '../schema';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';

/**
 * What the migrations make that drizzle cannot say, each named with its reason. The index takes
 * INCLUDE columns (0012_conversation-day-counts.sql), which drizzle's index builder lacks.
 */
const NOT_EXPRESSIBLE = new Set(['conversations conversations_created_month_idx']);

const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));

/** The newest snapshot drizzle-kit diffs the schema against (it takes the last by file name). */
function latestSnapshot() {
  const meta = join(migrationsDir, 'meta');
  const names = readdirSync(meta)
    .filter((n) => n.endsWith('_snapshot.json'))
    .sort();
  return JSON.parse(readFileSync(join(meta, names.at(-1)!), 'utf8')) as Parameters<
    typeof generateMigration
  >[0];
}

describe('drizzle snapshots', () => {
  it('db:generate finds nothing to write for the unchanged schema', async () => {
    const prev = latestSnapshot();
    const cur = generateDrizzleJson(schema, prev.id);
    expect(await generateMigration(prev, cur)).toEqual([]);
  });
});

/** SQL type names as PostgreSQL's format_type spells them. */
function normalType(type: string): string {
  const t = type.toLowerCase().replace(/\s*,\s*/g, ',');
  const serial: Record<string, string> = { bigserial: 'bigint', serial: 'integer', smallserial: 'smallint' };
  return serial[t] ?? t.replace(/^varchar/, 'character varying').replace(/^timestamp(?= with)/, 'timestamp');
}

describe('the migrated database is the drizzle schema', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await createTestRuntime({ http: false });
  });
  afterAll(() => rt.destroy());

  const q = <T extends Record<string, unknown>>(text: string) => rt.database.query<T>(text);

  it('has the same tables, columns (type, null), keys, foreign keys and indexes', async () => {
    const dbColumns = await q<{ t: string; c: string; type: string; not_null: boolean }>(
      `select c.relname as t, a.attname as c, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
         and not c.relispartition`,
    );
    const dbConstraints = await q<{ t: string; kind: string; cols: string; ref: string | null; del: string }>(
      `select c.relname as t, k.contype as kind,
         (select string_agg(a.attname, ',' order by x.n) from unnest(k.conkey) with ordinality x(num, n)
           join pg_attribute a on a.attrelid = k.conrelid and a.attnum = x.num) as cols,
         case when k.contype = 'f' then (select relname from pg_class where oid = k.confrelid) || '(' ||
           (select string_agg(a.attname, ',' order by x.n) from unnest(k.confkey) with ordinality x(num, n)
             join pg_attribute a on a.attrelid = k.confrelid and a.attnum = x.num) || ')' end as ref,
         k.confdeltype as del
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and k.contype in ('p', 'u', 'f') and not c.relispartition`,
    );
    const dbIndexes = await q<{ t: string; name: string }>(
      `select c.relname as t, i.relname as name
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
         join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and not c.relispartition
         and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.contype in ('p', 'u'))`,
    );

    const described = (rows: string[]) => [...new Set(rows)].sort();
    const deleteCode: Record<string, string> = {
      cascade: 'c',
      'set null': 'n',
      restrict: 'r',
      'no action': 'a',
      'set default': 'd',
    };
    const want = { columns: [] as string[], constraints: [] as string[], indexes: [] as string[] };
    for (const table of tables) {
      const config = getTableConfig(table);
      if (config.schema) continue;
      const t = config.name;
      for (const col of config.columns) {
        want.columns.push(
          `${t}.${col.name} ${normalType(col.getSQLType())}${col.notNull ? ' not null' : ''}`,
        );
        if (col.primary) want.constraints.push(`${t} p (${col.name})`);
        if (col.isUnique) want.constraints.push(`${t} u (${col.name})`);
      }
      for (const pk of config.primaryKeys)
        want.constraints.push(`${t} p (${pk.columns.map((c) => c.name).join(',')})`);
      for (const u of config.uniqueConstraints)
        want.constraints.push(`${t} u (${u.columns.map((c) => c.name).join(',')})`);
      for (const fk of config.foreignKeys) {
        const ref = fk.reference();
        want.constraints.push(
          `${t} f (${ref.columns.map((c) => c.name).join(',')}) → ${getTableConfig(ref.foreignTable).name}(${ref.foreignColumns
            .map((c) => c.name)
            .join(',')}) on delete ${deleteCode[fk.onDelete ?? 'no action']}`,
        );
      }
      for (const index of config.indexes) want.indexes.push(`${t} ${index.config.name}`);
    }
    const have = {
      columns: dbColumns.map((r) => `${r.t}.${r.c} ${r.type}${r.not_null ? ' not null' : ''}`),
      constraints: dbConstraints.map(
        (r) => `${r.t} ${r.kind} (${r.cols})${r.kind === 'f' ? ` → ${r.ref} on delete ${r.del}` : ''}`,
      ),
      indexes: dbIndexes.map((r) => `${r.t} ${r.name}`).filter((i) => !NOT_EXPRESSIBLE.has(i)),
    };
    for (const key of ['columns', 'constraints', 'indexes'] as const) {
      const a = described(have[key]);
      const b = described(want[key]);
      expect({
        key,
        onlyInDatabase: a.filter((x) => !b.includes(x)),
        onlyInSchema: b.filter((x) => !a.includes(x)),
      }).toEqual({
        key,
        onlyInDatabase: [],
        onlyInSchema: [],
      });
    }
  });
});
