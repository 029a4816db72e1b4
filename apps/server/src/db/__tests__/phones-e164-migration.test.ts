// Migration 0042 on a database written before it: phones kept as typed become E.164 with the
// business's dial code, what reads no single way stays as it was, and numbers that end up shared
// (by customers, or by suppressions whose addresses are unique) never stop the migration.
import { describe, expect, it } from 'vitest';
import type { Database } from '../client';
import { migrateDatabase } from '../migrate';
import {
  createTestRuntime,
  createTestStore,
  migrationsBefore,
  openStoreDatabase,
} from '../../testing/test-runtime';

async function id(db: Database, sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(sql, params);
  return Number(row!.id);
}

describe('migration 0042 on a database with phones as typed', () => {
  it('stores every phone that reads one way in E.164 and leaves the rest', async () => {
    const store = await createTestStore({ empty: true });
    const before = migrationsBefore('0042');
    try {
      const old = await openStoreDatabase(store);
      await migrateDatabase(old, before.folder);
      const business = (code: string, dialCode: string | null) =>
        id(old, `insert into businesses (name, unique_code, dial_code) values ($1, $1, $2) returning id`, [
          code,
          dialCode,
        ]);
      const us = await business('us-0042', '+1');
      const uk = await business('uk-0042', '+44');
      const none = await business('none-0042', null);
      const typed: [number, string][] = [
        [us, '+1 (201) 555-0123'],
        [us, '+12015550123'], // the same number, already E.164: both stay, one number
        [us, '(201) 555-0124'],
        [us, '1-201-555-0125'],
        [us, '001 201 555 0126'],
        [us, '201.555.0127'],
        [us, 'call me maybe'],
        [us, '   '],
        [uk, '07950 000123'],
        [uk, '+44 (0)20 7946 0958'],
        [uk, '0044 7950 000124'],
        [none, '201-555-0128'],
        [none, '+49 30 1234567'],
      ];
      const ids: number[] = [];
      for (const [b, phone] of typed)
        ids.push(
          await id(old, `insert into customers (business_id, phone) values ($1, $2) returning id`, [
            b,
            phone,
          ]),
        );
      const suppress = (b: number, channel: string, address: string) =>
        old.query(
          `insert into suppressions (business_id, channel, address, reason) values ($1, $2, $3, 'manual')`,
          [b, channel, address],
        );
      await suppress(us, 'sms', '+1 (201) 555-0123');
      await suppress(us, 'sms', '+12015550123');
      await suppress(us, 'sms', '201 555 0130');
      await suppress(us, 'sms', '(201) 555-0130');
      await suppress(us, 'whatsapp', '(201) 555-0129');
      await suppress(us, 'email', '00 (a).b@example.test');
      await old.close();

      const rt = await createTestRuntime({ store, http: false });
      try {
        const db = rt.database;
        const rows = await db.query<{ id: string | number; phone: string | null }>(
          `select id, phone from customers where id = any($1::bigint[]) order by id`,
          [ids],
        );
        expect(rows.map((r) => r.phone)).toEqual([
          '+12015550123',
          '+12015550123',
          '+12015550124',
          '+12015550125',
          '+12015550126',
          '+12015550127',
          'call me maybe',
          null,
          '+447950000123',
          '+442079460958',
          '+447950000124',
          '201-555-0128',
          '+49301234567',
        ]);
        const suppressions = await db.query<{ channel: string; address: string }>(
          `select channel, address from suppressions where business_id = $1 order by id`,
          [us],
        );
        expect(suppressions.map((s) => `${s.channel} ${s.address}`)).toEqual([
          // Already suppressed in E.164: the typed copy stays, redundant, rather than collide.
          'sms +1 (201) 555-0123',
          'sms +12015550123',
          'sms +12015550130',
          'sms (201) 555-0130',
          'whatsapp +12015550129',
          'email 00 (a).b@example.test',
        ]);
      } finally {
        await rt.close();
      }
    } finally {
      before.remove();
      await store.destroy();
    }
    // Every migration from an empty database, on a machine shared with other suites.
  }, 240_000);
});
