// Retention of the webhook tables: processed and given-up deliveries older than
// WHATSAPP_EVENTS_RETENTION_DAYS are deleted in bounded batches; pending and failing ones never are;
// statuses of logged sends stay (the log's timeline), those nothing else knows of go with their delivery.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TWhatsappLogDetail } from '@titan/contracts';
import { ConfigError, parseConfigEnv } from '../../../config';
import {
  createTestRuntime,
  createTestStore,
  type TestRuntime,
  type TestStore,
} from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { pruneWebhookEvents, RETENTION_CRON, RETENTION_QUEUE } from '../webhook/whatsapp.retention';

type Bench = { store: TestStore; rt: TestRuntime; owner: Session; business: TBusiness; accountId: number };

let n = 0;

/** A runtime on its own store with a connected number (no processor runs unless `workers`). */
async function startBench(workers: boolean, env: Record<string, string> = {}): Promise<Bench> {
  const store = await createTestStore();
  const rt = await createTestRuntime({ store, workers, env });
  const owner = await signUp(rt.app!, rt.mailer);
  const business = await createBusiness(rt.app!, owner, `Retention Co ${++n}`);
  const res = await rt.app!.inject({
    method: 'PUT',
    url: '/api/whatsapp/account/',
    headers: as(owner, business),
    payload: {
      phone_number_id: `10987650090${n}`,
      waba_id: `20000000009900${n}`,
      display_phone_number: `+1 555 09${n}`,
      verify_token: `verify-the-retention-${n}`,
      access_token: 'EAAG-access-token-retention-000000',
      app_secret: 'retention-app-secret-0123456789abcdef',
    },
  });
  expect(res.statusCode).toBe(200);
  const [account] = await rt.database.query<{ id: number | string }>(
    'select id from whatsapp_accounts where business_id = $1',
    [business.id],
  );
  return { store, rt, owner, business, accountId: Number(account!.id) };
}

type State = 'processed' | 'pending' | 'failing' | 'given-up';

/** A delivery as the queue leaves it, received `daysAgo` days ago. */
async function insertEvent(b: Bench, daysAgo: number, state: State, payload: object = {}): Promise<number> {
  const [row] = await b.rt.database.query<{ id: number | string }>(
    `insert into whatsapp_webhook_events (account_id, payload, received_at, processed_at, attempts, last_error, next_attempt_at)
     select $1, $2::jsonb, r,
       case when $3 = 'processed' then r + interval '1 second' end,
       case $3 when 'failing' then 3 when 'given-up' then 10 else 0 end,
       case when $3 in ('failing', 'given-up') then 'boom' end,
       case $3 when 'failing' then now() + interval '1 hour' when 'given-up' then null else r end
     from (select now() - make_interval(days => $4::int) as r) t
     returning id`,
    [b.accountId, JSON.stringify(payload), state, daysAgo],
  );
  return Number(row!.id);
}

/** Meta's status delivery reporting each [wamid, status]. */
const statusDelivery = (statuses: [string, string][]) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '200000000000099',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            statuses: statuses.map(([id, status]) => ({
              id,
              status,
              timestamp: String(Math.floor(Date.now() / 1000)),
              recipient_id: '15550001111',
            })),
          },
        },
      ],
    },
  ],
});

async function insertStatus(b: Bench, wamid: string, status: string, daysAgo: number) {
  await b.rt.database.query(
    `insert into send_events (business_id, channel, provider_message_id, type, occurred_at, payload, received_at)
     values ($1, 'whatsapp', $2, $3, date_trunc('second', now()), jsonb_build_object('id', $2::text, 'status', $3::text),
             now() - make_interval(days => $4::int))`,
    [b.business.id, wamid, status, daysAgo],
  );
}

async function insertLog(b: Bench, wamid: string): Promise<string> {
  const [row] = await b.rt.database.query<{ tracking_id: string }>(
    `insert into sends (business_id, channel, cause, provider_message_id, recipient, provider_request, status, created_at)
     values ($1, 'whatsapp', 'staff_reply', $2, '15550001111', '{"type":"text"}', 'delivered', now() - interval '40 days')
     returning id as tracking_id`,
    [b.business.id, wamid],
  );
  return row!.tracking_id;
}

const remaining = async (b: Bench, ids: number[]) =>
  (
    await b.rt.database.query<{ id: number | string }>(
      'select id from whatsapp_webhook_events where id = any($1::bigint[]) order by id',
      [ids],
    )
  ).map((r) => Number(r.id));

const statusesOf = async (b: Bench, wamid: string) =>
  (
    await b.rt.database.query<{ status: string }>(
      'select type as status from send_events where provider_message_id = $1 order by type',
      [wamid],
    )
  ).map((r) => r.status);

describe('webhook retention', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await startBench(false);
  }, 120_000);
  afterAll(async () => {
    await b?.rt.close();
    await b?.store.destroy();
  });

  it('deletes processed and given-up deliveries past the retention, keeps recent, pending and failing ones', async () => {
    const oldProcessed = await insertEvent(b, 40, 'processed');
    const oldGivenUp = await insertEvent(b, 40, 'given-up');
    const oldPending = await insertEvent(b, 40, 'pending');
    const oldFailing = await insertEvent(b, 40, 'failing');
    const recentProcessed = await insertEvent(b, 29, 'processed');
    const recentGivenUp = await insertEvent(b, 1, 'given-up');
    const all = [oldProcessed, oldGivenUp, oldPending, oldFailing, recentProcessed, recentGivenUp];

    const result = await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30 });

    expect(result).toEqual({ events: 2, statuses: 0, batches: 1 });
    expect(await remaining(b, all)).toEqual([oldPending, oldFailing, recentProcessed, recentGivenUp]);
    // Nothing else is due: a second run finds nothing.
    expect(await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30 })).toEqual({
      events: 0,
      statuses: 0,
      batches: 1,
    });
  });

  it('counts the retention from the run: a shorter one takes more', async () => {
    const tenDays = await insertEvent(b, 10, 'processed');
    const twoDays = await insertEvent(b, 2, 'processed');
    // A week: this test's 10 days and the first test's 29 days are past it; 2 days and 1 day are not.
    const result = await pruneWebhookEvents(b.rt.database.db, { retentionDays: 7 });
    expect(result.events).toBe(2);
    expect(await remaining(b, [tenDays, twoDays])).toEqual([twoDays]);
    await pruneWebhookEvents(b.rt.database.db, { retentionDays: 1 });
    expect(await remaining(b, [twoDays])).toEqual([]);
  });

  it('deletes a backlog in bounded batches until none is left', async () => {
    const backlog: number[] = [];
    for (let i = 0; i < 7; i++) backlog.push(await insertEvent(b, 31 + i, 'processed'));
    const result = await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30, batchSize: 3 });
    expect(result).toEqual({ events: 7, statuses: 0, batches: 3 });
    expect(await remaining(b, backlog)).toEqual([]);

    // A full last batch takes one more statement to see that nothing is left.
    for (let i = 0; i < 6; i++) backlog.push(await insertEvent(b, 31, 'processed'));
    expect(await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30, batchSize: 3 })).toEqual({
      events: 6,
      statuses: 0,
      batches: 3,
    });
  });

  it('stops at its time budget, oldest first, and the next run goes on', async () => {
    const newest = await insertEvent(b, 31, 'processed');
    const middle = await insertEvent(b, 32, 'processed');
    const oldest = await insertEvent(b, 33, 'processed');
    const first = await pruneWebhookEvents(b.rt.database.db, {
      retentionDays: 30,
      batchSize: 2,
      budgetMs: 0,
    });
    expect(first).toEqual({ events: 2, statuses: 0, batches: 1 });
    expect(await remaining(b, [newest, middle, oldest])).toEqual([newest]);
    const next = await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30, batchSize: 2, budgetMs: 0 });
    expect(next).toEqual({ events: 1, statuses: 0, batches: 1 });
    expect(await remaining(b, [newest])).toEqual([]);
  });

  it('takes the statuses only an old delivery knew of; a logged send keeps its timeline', async () => {
    const tag = `wamid.RET${Date.now()}`;
    const logged = `${tag}.logged`;
    const orphan = `${tag}.orphan`;
    const partly = `${tag}.partly`;
    const redelivered = `${tag}.redelivered`;
    const trackingId = await insertLog(b, logged);
    for (const wamid of [logged, orphan]) {
      await insertStatus(b, wamid, 'sent', 40);
      await insertStatus(b, wamid, 'delivered', 40);
    }
    await insertStatus(b, partly, 'sent', 40);
    await insertStatus(b, partly, 'read', 3);
    // Stored by a recent redelivery after the old one gave up.
    await insertStatus(b, redelivered, 'sent', 3);

    const old = await insertEvent(
      b,
      40,
      'processed',
      statusDelivery([
        [logged, 'sent'],
        [logged, 'delivered'],
        [orphan, 'sent'],
        [orphan, 'delivered'],
        [partly, 'sent'],
      ]),
    );
    const recent = await insertEvent(b, 3, 'processed', statusDelivery([[partly, 'read']]));
    const gaveUp = await insertEvent(b, 40, 'given-up', statusDelivery([[redelivered, 'sent']]));
    const redelivery = await insertEvent(b, 3, 'processed', statusDelivery([[redelivered, 'sent']]));

    const result = await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30 });

    expect(result).toEqual({ events: 2, statuses: 3, batches: 1 });
    expect(await remaining(b, [old, recent, gaveUp, redelivery])).toEqual([recent, redelivery]);
    expect(await statusesOf(b, logged)).toEqual(['delivered', 'sent']);
    expect(await statusesOf(b, orphan)).toEqual([]);
    expect(await statusesOf(b, partly)).toEqual(['read']);
    expect(await statusesOf(b, redelivered)).toEqual(['sent']);

    // The log's detail still shows its whole timeline.
    const res = await b.rt.app!.inject({
      method: 'GET',
      url: `/api/whatsapp/events/${trackingId}/`,
      headers: as(b.owner, b.business),
    });
    expect(res.statusCode).toBe(200);
    const detail = (res.json() as { result: TWhatsappLogDetail }).result;
    expect(detail.events.map((e) => e.status)).toEqual(['sent', 'delivered']);
  });

  it('skips deliveries another transaction holds; the next run takes them', async () => {
    const held = await insertEvent(b, 40, 'processed');
    const free = await insertEvent(b, 41, 'processed');
    // PGlite has one connection, where the run would wait for this transaction: PostgreSQL only.
    if (b.rt.database.kind === 'postgres') {
      await b.rt.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from whatsapp_webhook_events where id = ${held} for update`);
        const result = await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30 });
        expect(result).toEqual({ events: 1, statuses: 0, batches: 1 });
        expect(await remaining(b, [held, free])).toEqual([held]);
      });
    }
    await pruneWebhookEvents(b.rt.database.db, { retentionDays: 30 });
    expect(await remaining(b, [held, free])).toEqual([]);
  });
});

describe('the retention job', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await startBench(true, { WHATSAPP_EVENTS_RETENTION_DAYS: '7' });
  }, 120_000);
  afterAll(async () => {
    await b?.rt.close();
    await b?.store.destroy();
  });

  it('is scheduled once for all instances (a pg-boss cron) and deletes by WHATSAPP_EVENTS_RETENTION_DAYS', async () => {
    const schedules = await b.rt.database.query<{ name: string; cron: string }>(
      'select name, cron from pgboss.schedule where name = $1',
      [RETENTION_QUEUE],
    );
    expect(schedules).toEqual([{ name: RETENTION_QUEUE, cron: RETENTION_CRON }]);

    const tenDays = await insertEvent(b, 10, 'processed');
    const threeDays = await insertEvent(b, 3, 'processed');
    const id = await b.rt.jobs.send(RETENTION_QUEUE, {});
    await expect
      .poll(async () => (await b.rt.jobs.getJob(RETENTION_QUEUE, id!))?.state, {
        timeout: 30_000,
        interval: 100,
      })
      .toBe('completed');
    expect(await remaining(b, [tenDays, threeDays])).toEqual([threeDays]);
  });
});

describe('WHATSAPP_EVENTS_RETENTION_DAYS', () => {
  const problemsOf = (value: string) => {
    try {
      parseConfigEnv({ WHATSAPP_EVENTS_RETENTION_DAYS: value });
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
    return [];
  };

  it('defaults to 30 days and takes a whole number of days', () => {
    expect(parseConfigEnv({}).WHATSAPP_EVENTS_RETENTION_DAYS).toBe(30);
    expect(parseConfigEnv({ WHATSAPP_EVENTS_RETENTION_DAYS: '' }).WHATSAPP_EVENTS_RETENTION_DAYS).toBe(30);
    expect(parseConfigEnv({ WHATSAPP_EVENTS_RETENTION_DAYS: '7' }).WHATSAPP_EVENTS_RETENTION_DAYS).toBe(7);
    expect(parseConfigEnv({ WHATSAPP_EVENTS_RETENTION_DAYS: '3650' }).WHATSAPP_EVENTS_RETENTION_DAYS).toBe(
      3650,
    );
  });

  it('rejects anything else, 0 included (there is no "keep forever")', () => {
    for (const value of ['0', '-1', '1.5', 'abc', '3651', '30d']) {
      expect(problemsOf(value)).toEqual([
        `WHATSAPP_EVENTS_RETENTION_DAYS: expected a whole number of days (1-3650) (got ${JSON.stringify(value)})`,
      ]);
    }
  });
});
