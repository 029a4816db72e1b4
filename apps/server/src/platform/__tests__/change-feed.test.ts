import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/client';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../testing/test-runtime';
import { ChangeFeed, type Change } from '../change-feed';

// A realtime-style table made only for this test, using the product's trigger function.
const PROBE_TABLE = `
  CREATE TABLE IF NOT EXISTS feed_probe (
    id bigserial PRIMARY KEY, business_id bigint NOT NULL, conversation_id bigint, body text
  );
  DROP TRIGGER IF EXISTS feed_probe_notify ON feed_probe;
  CREATE TRIGGER feed_probe_notify AFTER INSERT OR UPDATE OR DELETE ON feed_probe
    FOR EACH ROW EXECUTE FUNCTION titan_notify_change();`;

function nextChange(rt: TestRuntime, match: (c: Change) => boolean, timeoutMs = 10_000): Promise<Change> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('no matching change arrived'));
    }, timeoutMs);
    const stop = rt.feed.subscribe((change) => {
      if (!match(change)) return;
      clearTimeout(timer);
      stop();
      resolve(change);
    });
  });
}

let store: TestStore;
let a: TestRuntime;
beforeAll(async () => {
  store = await createTestStore();
  a = await createTestRuntime({ store });
  await a.database.exec(PROBE_TABLE);
});
afterAll(async () => {
  await a.close();
  await store.destroy();
});

describe('change feed', () => {
  it('announces inserts, updates and deletes with table, ids and business', async () => {
    const inserted = nextChange(a, (c) => c.table === 'feed_probe' && c.op === 'INSERT');
    const [row] = await a.database.query<{ id: string }>(
      'insert into feed_probe (business_id, conversation_id, body) values (7, 42, $1) returning id',
      ['hello'],
    );
    expect(await inserted).toEqual({
      table: 'feed_probe',
      op: 'INSERT',
      id: String(row!.id),
      business_id: '7',
      conversation_id: '42',
    });

    const updated = nextChange(a, (c) => c.table === 'feed_probe' && c.op === 'UPDATE');
    await a.database.query('update feed_probe set body = $1 where id = $2', ['edited', row!.id]);
    expect((await updated).id).toBe(String(row!.id));

    const deleted = nextChange(a, (c) => c.table === 'feed_probe' && c.op === 'DELETE');
    await a.database.query('delete from feed_probe where id = $1', [row!.id]);
    expect((await deleted).business_id).toBe('7');
  });

  it('announces nothing for a transaction that rolls back', async () => {
    const seen: Change[] = [];
    const stop = a.feed.subscribe((c) => {
      if (c.table === 'feed_probe') seen.push(c);
    });
    await a.database.exec(`BEGIN; INSERT INTO feed_probe (business_id, body) VALUES (1, 'never'); ROLLBACK;`);
    // A committed change after the rollback proves the feed was listening the whole time.
    const committed = nextChange(a, (c) => c.table === 'feed_probe' && c.business_id === '2');
    await a.database.query(`insert into feed_probe (business_id, body) values (2, 'kept')`);
    await committed;
    stop();
    expect(seen.map((c) => c.business_id)).toEqual(['2']);
  });

  it.runIf(testDbKind === 'postgres')(
    'delivers a change committed through one instance to another',
    async () => {
      const b = await createTestRuntime({ store });
      try {
        const arrived = nextChange(b, (c) => c.table === 'feed_probe' && c.business_id === '99');
        await a.database.db.transaction(async (tx) => {
          await tx.execute(`insert into feed_probe (business_id, body) values (99, 'from instance a')`);
        });
        const change = await arrived;
        expect(change).toMatchObject({ table: 'feed_probe', op: 'INSERT', business_id: '99' });
        const [row] = await b.database.query<{ body: string }>('select body from feed_probe where id = $1', [
          change.id,
        ]);
        expect(row!.body).toBe('from instance a');
      } finally {
        await b.close();
      }
    },
  );

  it.runIf(testDbKind === 'postgres')(
    'stays healthy while every pooled connection is busy for longer than its timeout',
    async () => {
      const database = await openDatabase({ kind: 'postgres', url: store.env.DATABASE_URL!, poolMax: 2 });
      const feed = new ChangeFeed(database, pino({ level: 'silent' }), { heartbeatMs: 50, timeoutMs: 500 });
      await feed.start();
      const resets = vi.fn();
      feed.onReset(resets);
      try {
        // Requests hold the whole pool for three of the feed's timeouts.
        await Promise.all([database.query('select pg_sleep(1.5)'), database.query('select pg_sleep(1.5)')]);
        expect(feed.healthy).toBe(true);
        expect(resets).not.toHaveBeenCalled();
      } finally {
        await feed.stop();
        await database.close();
      }
    },
  );
});
