// The inbox counts come from bucket rows kept by triggers: conversation_counts, and
// conversation_day_counts per UTC day ('c', 'l') and month ('cm', 'lm') of created_at and
// last_message_at. They are only useful if exact, so after every kind of write each axis is
// compared with a GROUP BY over the conversations themselves.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import { createBusiness, signUp } from '../../../testing/identity';
import {
  createTestRuntime,
  createTestStore,
  migrationsBefore,
  openStoreDatabase,
  testDbKind,
  type TestRuntime,
} from '../../../testing/test-runtime';

const FILTERS = 'status, is_read, business_replied, channel';

// The truth is computed with to_char rather than the migration's expressions, so a wrong bucket
// function cannot agree with itself.
const AXES = [
  { axis: 'c', column: 'created_at', format: 'YYYY-MM-DD' },
  { axis: 'l', column: 'last_message_at', format: 'YYYY-MM-DD' },
  { axis: 'cm', column: 'created_at', format: 'YYYY-MM-01' },
  { axis: 'lm', column: 'last_message_at', format: 'YYYY-MM-01' },
] as const;

/** Every axis and conversation_counts of each business equal a GROUP BY over its conversations. */
async function expectExact(db: Database, step: string, businessIds: number[]) {
  for (const businessId of businessIds) {
    for (const { axis, column, format } of AXES) {
      const kept = await db.query(
        `select day::text as day, ${FILTERS}, n::int as n from conversation_day_counts
         where business_id = $1 and axis = $2 and n <> 0 order by 1, 2, 3, 4, 5`,
        [businessId, axis],
      );
      const truth = await db.query(
        `select to_char(${column} at time zone 'UTC', '${format}') as day, ${FILTERS}, count(*)::int as n
         from conversations where business_id = $1 and ${column} is not null
         group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
        [businessId],
      );
      expect(kept, `${step}: axis ${axis}, business ${businessId}`).toEqual(truth);
    }
    const kept = await db.query(
      `select ${FILTERS}, n::int as n from conversation_counts
       where business_id = $1 and n <> 0 order by 1, 2, 3, 4`,
      [businessId],
    );
    const truth = await db.query(
      `select ${FILTERS}, count(*)::int as n from conversations
       where business_id = $1 group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
      [businessId],
    );
    expect(kept, `${step}: conversation_counts, business ${businessId}`).toEqual(truth);
  }
  const axes = await db.query<{ axis: string }>(
    'select distinct axis from conversation_day_counts order by axis',
  );
  expect(axes.map((r) => r.axis).filter((a) => !['c', 'cm', 'l', 'lm'].includes(a))).toEqual([]);
}

type NewConversation = {
  createdAt: string;
  lastMessageAt: string | null;
  status?: 'active' | 'resolved';
  isRead?: boolean;
  replied?: boolean;
  channel?: 'titan_message' | 'whatsapp';
};

async function insertConversation(db: Database, businessId: number, c: NewConversation) {
  const [row] = await db.query<{ id: string | number }>(
    `insert into conversations
       (business_id, status, is_read, business_replied, channel, created_at, last_message_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      businessId,
      c.status ?? 'active',
      c.isRead ?? false,
      c.replied ?? false,
      c.channel ?? 'titan_message',
      c.createdAt,
      c.lastMessageAt,
    ],
  );
  return Number(row!.id);
}

/** Deterministic, so a failure replays the same way. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const DAY = 24 * 60 * 60 * 1000;

/** Spread over 2023-11 .. 2025-04 with varied filters; a fifth without a message. */
function someConversations(count: number, seed: number): NewConversation[] {
  const rand = random(seed);
  const start = Date.UTC(2023, 10, 1);
  return Array.from({ length: count }, () => {
    const created = start + Math.floor(rand() * 520 * DAY);
    return {
      createdAt: new Date(created).toISOString(),
      lastMessageAt: rand() < 0.2 ? null : new Date(created + Math.floor(rand() * 90 * DAY)).toISOString(),
      status: rand() < 0.5 ? 'active' : 'resolved',
      isRead: rand() < 0.5,
      replied: rand() < 0.5,
      channel: rand() < 0.5 ? 'titan_message' : 'whatsapp',
    };
  });
}

// Instants on either side of UTC day, month, year and leap-day boundaries, some written with an
// offset so the local date differs from the UTC one.
const EDGES: NewConversation[] = [
  { createdAt: '2023-12-31T23:59:59.999Z', lastMessageAt: '2024-01-01T00:00:00Z' },
  { createdAt: '2024-01-01T00:00:00Z', lastMessageAt: '2023-12-31T23:59:59Z' },
  { createdAt: '2024-02-29T12:00:00Z', lastMessageAt: '2024-03-01T00:00:00+01:00' },
  { createdAt: '2024-03-31T23:30:00-02:00', lastMessageAt: null },
  { createdAt: '2025-01-31T23:59:59Z', lastMessageAt: '2025-02-01T00:00:01Z', status: 'resolved' },
  { createdAt: '2025-02-28T22:00:00Z', lastMessageAt: '2025-03-01T08:00:00+09:00', isRead: true },
];

describe('conversation count buckets', () => {
  let rt: TestRuntime;
  let db: Database;
  let a: number;
  let b: number;
  const ids: number[] = [];
  const exact = (step: string) => expectExact(db, step, [a, b]);
  const q = (text: string, params: unknown[] = []) => db.query(text, params);
  /** The bucket rows of business a on these axes with their row versions: equal means not written. */
  const versions = (...axes: string[]) =>
    q(
      `select axis, day::text as day, ${FILTERS}, xmin::text as version from conversation_day_counts
       where business_id = $1 and axis = any($2::text[]) order by 1, 2, 3, 4, 5, 6`,
      [a, axes],
    );

  beforeAll(async () => {
    rt = await createTestRuntime();
    db = rt.database;
    const app = rt.app!;
    await app.ready();
    const owner = await signUp(app, rt.mailer);
    a = (await createBusiness(app, owner, 'Buckets Co')).id;
    b = (await createBusiness(app, owner, 'Other Buckets Co')).id;
  });
  afterAll(() => rt?.destroy());

  it('counts inserts on every axis, across day, month and year boundaries', async () => {
    for (const c of [...EDGES, ...someConversations(40, 1)]) ids.push(await insertConversation(db, a, c));
    for (const c of someConversations(12, 2)) await insertConversation(db, b, c);
    await exact('inserts');
    // Enough spread for the month axes to matter: many months over three years.
    const [spread] = await q(
      `select count(distinct day) filter (where axis = 'cm')::int as months,
              count(distinct extract(year from day)) filter (where axis = 'lm')::int as years
       from conversation_day_counts where business_id = $1`,
      [a],
    );
    expect(spread!.months).toBeGreaterThan(12);
    expect(spread!.years).toBeGreaterThanOrEqual(3);
  });

  it('moves a conversation between buckets when a filter column changes', async () => {
    const [x, y] = ids;
    for (const [column, value] of [
      ['status', 'resolved'],
      ['is_read', true],
      ['business_replied', true],
      ['channel', 'whatsapp'],
      ['status', 'active'],
      ['channel', 'titan_message'],
    ] as const) {
      await q(`update conversations set ${column} = $2 where id = $1`, [x, value]);
      await exact(`${column} = ${value}`);
    }
    await q(
      `update conversations
       set status = 'resolved', is_read = not is_read, business_replied = not business_replied,
           channel = 'whatsapp'
       where id = $1`,
      [y],
    );
    await exact('all filter columns at once');
  });

  it('writes no bucket row for a new message on the same day, and no month row within the month', async () => {
    const x = ids[0]!; // created 2023-12-31, last message 2024-01-01T00:00Z
    const before = await versions('c', 'l', 'cm', 'lm');
    await q(
      `update conversations set last_message_at = '2024-01-01T23:59:59Z', title = 'again' where id = $1`,
      [x],
    );
    await q(`update conversations set created_at = created_at - interval '1 minute' where id = $1`, [x]);
    expect(await versions('c', 'l', 'cm', 'lm')).toEqual(before);
    await exact('same-day moves');

    const months = await versions('cm', 'lm');
    expect(months).not.toHaveLength(0);
    const days = await versions('c', 'l');
    await q(`update conversations set last_message_at = '2024-01-20T10:00:00Z' where id = $1`, [x]);
    expect(await versions('cm', 'lm')).toEqual(months);
    expect(await versions('c', 'l')).not.toEqual(days);
    await exact('a new day in the same month');
  });

  it('moves created_at and last_message_at across days, months and years', async () => {
    const [, , x, y] = ids;
    const moves: [number, string, string][] = [
      [x!, 'last_message_at', '2024-03-02T09:00:00Z'],
      [x!, 'last_message_at', '2024-04-30T23:59:59.999Z'],
      [x!, 'last_message_at', '2024-05-01T00:00:00Z'],
      [x!, 'last_message_at', '2026-01-01T00:00:00Z'],
      [x!, 'last_message_at', '2023-11-15T12:00:00Z'],
      [y!, 'created_at', '2024-04-01T01:30:00Z'],
      [y!, 'created_at', '2024-04-01T00:00:00+02:00'],
      [y!, 'created_at', '2022-07-14T12:00:00Z'],
      [y!, 'created_at', '2025-12-31T23:59:59Z'],
    ];
    for (const [id, column, at] of moves) {
      await q(`update conversations set ${column} = $2 where id = $1`, [id, at]);
      await exact(`${column} → ${at}`);
    }
    await q(
      `update conversations set created_at = '2024-08-31T23:00:00Z', last_message_at = '2024-09-01T01:00:00Z',
         status = 'resolved', is_read = true
       where id = $1`,
      [x],
    );
    await exact('both dates and filters at once');
  });

  it('stops counting on the last-message axes while last_message_at is null', async () => {
    const x = ids[5]!;
    await q(`update conversations set last_message_at = null where id = $1`, [x]);
    await exact('last_message_at → null');
    await q(
      `update conversations set is_read = not is_read, created_at = '2024-10-10T10:00:00Z' where id = $1`,
      [x],
    );
    await exact('a change while null');
    await q(`update conversations set last_message_at = '2024-11-30T23:59:00Z' where id = $1`, [x]);
    await exact('last_message_at back');
    const never = ids[3]!; // inserted without a message
    await q(`update conversations set last_message_at = '2024-04-02T00:00:00Z' where id = $1`, [never]);
    await exact('a first message');
  });

  it('keeps buckets exact across multi-row updates, business moves and deletes', async () => {
    await q(`update conversations set is_read = not is_read where business_id = $1`, [a]);
    await exact('every row of a business at once');
    await q(
      `update conversations set last_message_at = last_message_at + interval '17 days'
       where business_id = $1 and id % 3 = 0`,
      [a],
    );
    await exact('a third of the rows 17 days on');
    await q(`update conversations set business_id = $2 where id = $1`, [ids[6], b]);
    await exact('moved to another business');
    await q(`delete from conversations where id = any(array[$1, $2, $3]::bigint[])`, [
      ids[1],
      ids[7],
      ids[8],
    ]);
    await exact('deletes');
  });

  it('keeps them exact through random churn', async () => {
    const rand = random(3);
    const live = async () =>
      (await q(`select id from conversations where business_id = $1 order by id`, [a])).map((r) =>
        Number(r.id),
      );
    const at = () => new Date(Date.UTC(2023, 10, 1) + Math.floor(rand() * 560 * DAY)).toISOString();
    for (let step = 0; step < 60; step++) {
      const rows = await live();
      const id = rows[Math.floor(rand() * rows.length)];
      const op = Math.floor(rand() * 8);
      if (op === 0)
        await q(
          `update conversations set status = case status when 'active' then 'resolved' else 'active' end where id = $1`,
          [id],
        );
      else if (op === 1) await q(`update conversations set is_read = not is_read where id = $1`, [id]);
      else if (op === 2) await q(`update conversations set last_message_at = $2 where id = $1`, [id, at()]);
      else if (op === 3) await q(`update conversations set created_at = $2 where id = $1`, [id, at()]);
      else if (op === 4)
        await q(`update conversations set last_message_at = $2, business_replied = true where id = $1`, [
          id,
          rand() < 0.5 ? null : at(),
        ]);
      else if (op === 5) await q(`delete from conversations where id = $1`, [id]);
      else await insertConversation(db, a, someConversations(1, step + 100)[0]!);
      await exact(`churn step ${step}, op ${op}`);
    }
  });

  it('uses UTC whatever the session time zone', async () => {
    // 05:00 on April 1st in Kiribati (UTC+14) is still March 31st in UTC: another day and month.
    const x = await insertConversation(db, a, { createdAt: '2025-01-01T00:00:00Z', lastMessageAt: null });
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Pacific/Kiritimati'`);
      await tx.execute(
        sql`update conversations set created_at = '2025-04-01 05:00', last_message_at = '2025-04-01 05:00'
            where id = ${x}`,
      );
    });
    const [row] = await q(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as at from conversations where id = $1`,
      [x],
    );
    expect(row).toEqual({ at: '2025-03-31 15:00' });
    await exact('written in another time zone');
  });

  it('rebuilds one business from its rows, after corruption or a bulk load without triggers', async () => {
    await q(`update conversation_day_counts set n = n + 3 where business_id = $1 and axis in ('cm', 'lm')`, [
      a,
    ]);
    await q(`delete from conversation_day_counts where business_id = $1 and axis = 'l'`, [a]);
    await q(
      `insert into conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
       values ($1, 'lm', '1999-01-01', 'active', false, false, 'whatsapp', 5)`,
      [a],
    );
    await q(`update conversation_counts set n = n - 1 where business_id = $1`, [a]);
    const other = await q(
      `select *, xmin::text as version from conversation_day_counts where business_id = $1`,
      [b],
    );
    await q(`select titan_rebuild_conversation_counts($1)`, [a]);
    await exact('rebuild after corruption');
    expect(
      await q(`select *, xmin::text as version from conversation_day_counts where business_id = $1`, [b]),
    ).toEqual(other);

    // As bench/seed does: rows copied in with the triggers off, then one rebuild.
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`alter table conversations disable trigger user`);
      for (const c of someConversations(30, 4)) {
        await tx.execute(
          sql`insert into conversations (business_id, status, is_read, business_replied, channel, created_at, last_message_at)
              values (${a}, ${c.status}, ${c.isRead}, ${c.replied}, ${c.channel}, ${c.createdAt}, ${c.lastMessageAt})`,
        );
      }
      await tx.execute(sql`alter table conversations enable trigger user`);
    });
    await q(`select titan_rebuild_conversation_counts($1)`, [a]);
    await exact('rebuild after a bulk load');
    await q(`select titan_rebuild_conversation_counts($1)`, [a]);
    await exact('a second rebuild');
    await q(`update conversations set last_message_at = '2025-04-15T12:00:00Z' where business_id = $1`, [a]);
    await exact('the trigger carries on from rebuilt rows');
  });
});

describe('migration 0015 on a database that already has conversations', () => {
  it('backfills the month axes from the existing rows', async () => {
    const store = await createTestStore({ empty: true });
    const before = migrationsBefore('0015');
    try {
      // The migrations up to 0014, as a database written before this one would have them.
      const old = await openStoreDatabase(store);
      await migrateDatabase(old, before.folder);
      const businessIds: number[] = [];
      for (const [i, code] of ['old-one', 'old-two'].entries()) {
        const [row] = await old.query<{ id: string | number }>(
          `insert into businesses (name, unique_code) values ($1, $2) returning id`,
          [`Old ${i}`, code],
        );
        businessIds.push(Number(row!.id));
        for (const c of [...EDGES, ...someConversations(25, 10 + i)]) {
          await insertConversation(old, businessIds[i]!, c);
        }
      }
      const [month] = await old.query(
        `select count(*)::int as n from conversation_day_counts where axis like '_m'`,
      );
      expect(month).toEqual({ n: 0 });
      await old.close();

      const rt = await createTestRuntime({ store, http: false });
      try {
        await expectExact(rt.database, 'after migrating', businessIds);
        await rt.database.query(
          `update conversations set last_message_at = last_message_at + interval '40 days' where business_id = $1`,
          [businessIds[0]],
        );
        await expectExact(rt.database, 'the new trigger after migrating', businessIds);
      } finally {
        await rt.close();
      }
    } finally {
      before.remove();
      await store.destroy();
    }
  });
});

describe.runIf(testDbKind === 'postgres')('concurrent moves', () => {
  it('do not deadlock when two conversations swap months in opposite directions', async () => {
    const store = await createTestStore();
    const rt = await createTestRuntime({ store, http: false });
    try {
      const db = rt.database;
      const [business] = await db.query<{ id: string }>(
        `insert into businesses (name, unique_code) values ('Race Co', 'race') returning id`,
      );
      const ids: number[] = [];
      for (const at of ['2024-01-10T00:00:00Z', '2024-02-10T00:00:00Z']) {
        const [row] = await db.query<{ id: string }>(
          `insert into conversations (business_id, channel, created_at, last_message_at)
           values ($1, 'whatsapp', $2, $2) returning id`,
          [business!.id, at],
        );
        ids.push(Number(row!.id));
      }
      // This database only: each bump on the racing axis holds its row lock a while, so the two
      // moves overlap between their first and second bucket row. Touched in opposite orders,
      // they would deadlock.
      await db.exec(`
        CREATE OR REPLACE FUNCTION titan_bump_conversation_day(b bigint, a text, d date, s text, r boolean, br boolean, c text, delta integer)
        RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO conversation_day_counts AS cc (business_id, axis, day, status, is_read, business_replied, channel, n)
          VALUES (b, a, d, s, r, br, c, delta)
          ON CONFLICT (business_id, axis, day, status, is_read, business_replied, channel)
          DO UPDATE SET n = cc.n + excluded.n;
          IF a = current_setting('test.slow_axis', true) THEN PERFORM pg_sleep(0.3); END IF;
        END;
        $$`);
      const update = async (axis: string, statement: string, params: unknown[]) => {
        const client = new pg.Client({ connectionString: store.env.DATABASE_URL });
        await client.connect();
        try {
          await client.query(`set test.slow_axis = '${axis}'`);
          await client.query(statement, params);
        } finally {
          await client.end();
        }
      };
      const [x, y] = ids;
      // x moves from January to February while y moves from February to January.
      for (const [axis, column, xTo, yTo] of [
        ['cm', 'created_at', '2024-02-11T00:00:00Z', '2024-01-11T00:00:00Z'],
        ['lm', 'last_message_at', '2024-02-12T00:00:00Z', '2024-01-12T00:00:00Z'],
      ] as const) {
        const set = `update conversations set ${column} = $2 where id = $1`;
        await Promise.all([update(axis, set, [x, xTo]), update(axis, set, [y, yTo])]);
      }
      await expectExact(db, 'after the races', [Number(business!.id)]);
    } finally {
      await rt.close();
      await store.destroy();
    }
  });
});
