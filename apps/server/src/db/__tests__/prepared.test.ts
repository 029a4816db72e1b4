import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDbKind, type TestStore } from '../../testing/test-runtime';
import { prepareStatements } from '../prepared';

describe.runIf(testDbKind === 'postgres')('prepared statements on PostgreSQL', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(() => store.destroy());

  /** One connection, so what it has prepared can be read back from pg_prepared_statements. */
  async function onePool(limit: number) {
    const pool = new pg.Pool({ connectionString: store.env.DATABASE_URL!, max: 1 });
    prepareStatements(pool, limit);
    const prepared = async () =>
      (
        await pool.query<{ statement: string }>(
          'select statement from pg_prepared_statements order by prepare_time',
        )
      ).rows.map((r) => r.statement);
    return { pool, prepared };
  }

  it('prepares a statement with parameters once per connection and answers as before', async () => {
    const { pool, prepared } = await onePool(500);
    try {
      for (let i = 0; i < 3; i++) {
        const { rows } = await pool.query('select $1::int + 1 as n', [i]);
        expect(rows).toEqual([{ n: i + 1 }]);
      }
      // The callback form (the pool's own query) and a config object are named alike.
      const viaObject = await pool.query({ text: 'select $1::int + 1 as n', values: [41] });
      expect(viaObject.rows).toEqual([{ n: 42 }]);
      // Without parameters nothing is prepared (the simple protocol, several statements allowed).
      await pool.query('select 1; select 2');
      // Nor is a search, whose plan depends on how much its text matches.
      await pool.query(`select 'ab' ilike $1 as m`, ['a%']);
      await pool.query(`select to_tsvector('simple', 'a b') @@ plainto_tsquery('simple', $1) as m`, ['a']);
      expect(await prepared()).toEqual(['select $1::int + 1 as n']);
    } finally {
      await pool.end();
    }
  });

  it('keeps at most its limit per connection, dropping the least recently used', async () => {
    const { pool, prepared } = await onePool(3);
    try {
      for (const n of [1, 2, 3]) await pool.query(`select $1::int * ${n} as n`, [1]);
      await pool.query('select $1::int * 1 as n', [1]); // used again: the most recent now
      await pool.query('select $1::int * 4 as n', [1]); // drops "* 2"
      await pool.query('select $1::int * 5 as n', [1]); // drops "* 3"
      expect((await pool.query('select $1::int * 2 as n', [21])).rows).toEqual([{ n: 42 }]); // drops "* 1"
      expect(await prepared()).toEqual([
        'select $1::int * 4 as n',
        'select $1::int * 5 as n',
        'select $1::int * 2 as n',
      ]);
    } finally {
      await pool.end();
    }
  });

  it('works inside transactions, also after a failed one, and drops nothing a rollback needs', async () => {
    const { pool, prepared } = await onePool(2);
    try {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query('select $1::int as a', [1]);
        await expect(client.query('select $1::int / 0 as b', [1])).rejects.toThrow(/division by zero/);
        // A third statement in the failed transaction: refused, and the drop it causes fails too.
        await expect(client.query('select $1::int as c', [1])).rejects.toThrow(/aborted/);
        await client.query('rollback');
        await client.query('begin');
        expect((await client.query('select $1::int as a', [7])).rows).toEqual([{ a: 7 }]);
        expect((await client.query('select $1::int as d', [8])).rows).toEqual([{ d: 8 }]);
        await client.query('commit');
      } finally {
        client.release();
      }
      expect(await pool.query('select $1::int / 0 as b', [0]).catch((e: Error) => e.message)).toMatch(
        /division/,
      );
      expect((await prepared()).length).toBeLessThanOrEqual(3);
    } finally {
      await pool.end();
    }
  });

  it('prepares a statement again when a schema change altered its result', async () => {
    const { pool } = await onePool(500);
    // A checked-out connection (a transaction's): the pool replaces one whose query failed.
    const client = await pool.connect();
    try {
      await client.query('create table prepared_probe (id int primary key)');
      await client.query('insert into prepared_probe values (1)');
      const read = () => client.query('select * from prepared_probe where id = $1', [1]);
      expect((await read()).rows).toEqual([{ id: 1 }]);
      await client.query('alter table prepared_probe add column note text');
      // PostgreSQL refuses the old statement once; the next call prepares the new shape.
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      expect((await read()).rows).toEqual([{ id: 1, note: null }]);
    } finally {
      client.release();
      await pool.end();
    }
  });
});
