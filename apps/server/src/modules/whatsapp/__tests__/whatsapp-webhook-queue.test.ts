// The webhook queue: deliveries stored before the 200 survive a restart, are processed in batches
// exactly once by any number of processors, and a delivery that fails is isolated and retried later.
import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { WebhookProcessor } from '../webhook/whatsapp.inbound';
import { createWhatsappDeps } from '../whatsapp.queues';

const APP_SECRET = 'queue-app-secret-0123456789abcdef';
const PHONE_NUMBER_ID = '109876500001';
const silent = pino({ level: 'silent' });

let store: TestStore;
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;

/** A runtime on the shared store; HTTP only unless `workers`. */
const runtime = (workers: boolean) => createTestRuntime({ store, workers });

beforeAll(async () => {
  store = await createTestStore();
  rt = await runtime(false);
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Queue Co');
  expect((await connect(rt, APP_SECRET)).statusCode).toBe(200);
});
afterAll(async () => {
  await rt?.close();
  await store?.destroy();
});

const connect = (on: TestRuntime, appSecret?: string) =>
  on.app!.inject({
    method: 'PUT',
    url: '/api/whatsapp/account/',
    headers: as(owner, business),
    payload: {
      phone_number_id: PHONE_NUMBER_ID,
      waba_id: '200000000000077',
      display_phone_number: '+1 555 0177',
      verify_token: 'verify-the-queue',
      ...(appSecret ? { access_token: 'EAAG-access-token-queue-000000', app_secret: appSecret } : {}),
    },
  });

/** Meta's bytes: compact JSON, non-ASCII as lowercase \\uXXXX, "/" as "\\/". */
const metaBytes = (payload: object) =>
  JSON.stringify(payload)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');

const sign = (raw: string, secret = APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

let counter = 0;
const wamid = (tag = 'Q') => `wamid.${tag}${Date.now()}x${++counter}`;

type Message = { from: string; id: string; timestamp: string; type: 'text'; text: { body: string } };

function textMessage(from: string, body: string, at = Math.floor(Date.now() / 1000), id = wamid()): Message {
  return { from, id, timestamp: String(at), type: 'text', text: { body } };
}

function delivery(messages: Message[], names: Record<string, string> = {}) {
  const senders = [...new Set(messages.map((m) => m.from))];
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '200000000000077',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550177', phone_number_id: PHONE_NUMBER_ID },
              contacts: senders.map((wa_id) => ({
                profile: { name: names[wa_id] ?? `Customer ${wa_id}` },
                wa_id,
              })),
              messages,
            },
          },
        ],
      },
    ],
  };
}

/** POSTs a signed delivery to `on` (in-process); answers the status code. */
async function post(on: TestRuntime, payload: object, secret = APP_SECRET) {
  const raw = metaBytes(payload);
  const res = await on.app!.inject({
    method: 'POST',
    url: '/api/whatsapp/webhook/',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw, secret) },
    payload: raw,
  });
  return res.statusCode;
}

const one = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await rt.database.query<T>(sql, params))[0]!;
const pending = async () =>
  (
    await one<{ n: number }>(
      'select count(*)::int as n from whatsapp_webhook_events where processed_at is null and next_attempt_at is not null',
    )
  ).n;

/** Runs a processor over the queue until nothing is due. */
async function drain(processor: WebhookProcessor) {
  while ((await processor.run()) > 0);
}

const processor = (options?: { maxEvents?: number }) =>
  new WebhookProcessor(createWhatsappDeps(rt.config, rt.database.db, rt.jobs), silent, options);

/** A customer's WhatsApp conversations and the messages in each, in paging order. */
async function threadOf(waId: string) {
  return rt.database.query<{ conversation_id: number; status: string; is_read: boolean; bodies: string[] }>(
    `select c.id as conversation_id, c.status, c.is_read,
       coalesce((select array_agg(m.content order by m.position) from wa_messages m where m.conversation_id = c.id), '{}') as bodies
     from conversations c join customers k on k.id = c.initiator_id
     where k.business_id = $1 and k.external_id = $2 and c.channel = 'whatsapp' order by c.id`,
    [business.id, `wa:${waId}`],
  );
}

describe('accepting without processing', () => {
  it('keeps a delivery an HTTP-only instance accepted, and the next instance with workers processes it', async () => {
    const from = '4917000000001';
    expect(await post(rt, delivery([textMessage(from, 'stored before the 200')]))).toBe(200);
    // rt runs no workers (RUN_WORKERS=false): the delivery waits.
    await new Promise((r) => setTimeout(r, 600));
    expect(await pending()).toBeGreaterThan(0);
    expect(await threadOf(from)).toEqual([]);

    // A crash after the 200 loses nothing: a process with workers takes it over.
    await rt.close();
    const worker = await runtime(true);
    try {
      await expect
        .poll(
          () => worker.database.query('select 1 from whatsapp_webhook_events where processed_at is null'),
          {
            timeout: 10_000,
          },
        )
        .toEqual([]);
    } finally {
      await worker.close();
    }
    rt = await runtime(false);
    expect(await threadOf(from)).toEqual([
      expect.objectContaining({ status: 'active', is_read: false, bodies: ['stored before the 200'] }),
    ]);
  });

  it('refuses a body that is not JSON even when signed, and stores nothing', async () => {
    const before = (await one<{ n: number }>('select count(*)::int as n from whatsapp_webhook_events')).n;
    const raw = `{"entry":[{"changes":[{"value":{"metadata":{"phone_number_id":"${PHONE_NUMBER_ID}"}}}]}]`;
    const res = await rt.app!.inject({
      method: 'POST',
      url: '/api/whatsapp/webhook/',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) },
      payload: raw,
    });
    expect(res.statusCode).toBe(400);
    expect((await one<{ n: number }>('select count(*)::int as n from whatsapp_webhook_events')).n).toBe(
      before,
    );
  });

  it('checks the next delivery with a secret saved a moment ago', async () => {
    const from = '4917000000002';
    expect(await post(rt, delivery([textMessage(from, 'old secret')]))).toBe(200);
    const rotated = 'rotated-app-secret-0123456789abcd';
    expect((await connect(rt, rotated)).statusCode).toBe(200);
    expect(await post(rt, delivery([textMessage(from, 'old secret again')]))).toBe(401);
    expect(await post(rt, delivery([textMessage(from, 'new secret')]), rotated)).toBe(200);
    expect((await connect(rt, APP_SECRET)).statusCode).toBe(200);
    expect(await post(rt, delivery([textMessage(from, 'back again')]))).toBe(200);
    await drain(processor());
  });
});

describe('processing in batches', () => {
  it('writes many deliveries in one batch as one at a time would: one thread per customer, in order, once', async () => {
    const t = Math.floor(Date.now() / 1000);
    const customers = Array.from({ length: 10 }, (_, i) => `49171000000${String(i).padStart(2, '0')}`);
    const redelivered = textMessage(customers[0]!, 'said twice', t + 1);
    let posted = 0;
    for (let round = 0; round < 3; round++) {
      for (const from of customers) {
        expect(await post(rt, delivery([textMessage(from, `round ${round}`, t + round)]))).toBe(200);
        posted++;
      }
    }
    expect(await post(rt, delivery([redelivered]))).toBe(200);
    expect(await post(rt, delivery([redelivered]))).toBe(200);
    posted += 2;
    // Meta's batch: several customers and several messages of one customer in one delivery.
    expect(
      await post(
        rt,
        delivery([
          textMessage(customers[1]!, 'batched a', t + 5),
          textMessage(customers[2]!, 'batched b', t + 5),
        ]),
      ),
    ).toBe(200);
    posted++;

    expect(await processor().run()).toBe(posted); // all of them, in one transaction
    expect(await pending()).toBe(0);
    for (const [i, from] of customers.entries()) {
      const thread = await threadOf(from);
      expect(thread, from).toHaveLength(1);
      const expected = ['round 0', 'round 1', 'round 2'];
      if (i === 0) expected.push('said twice');
      if (i === 1) expected.push('batched a');
      if (i === 2) expected.push('batched b');
      expect(thread[0]!.bodies).toEqual(expected);
    }
    const [last] = await rt.database.query<{ last_message_at: Date; title: string }>(
      `select c.last_message_at, c.title from conversations c join customers k on k.id = c.initiator_id
       where k.external_id = $1`,
      [`wa:${customers[1]}`],
    );
    expect(new Date(last!.last_message_at).getTime()).toBe((t + 5) * 1000);
    expect(last!.title).toBe(`WhatsApp with Customer ${customers[1]}`);
    // Set-based writes fire the realtime triggers like single ones: the inbox updates live.
    const [thread] = await threadOf(customers[1]!);
    const changes = await rt.database.query<{ table_name: string; op: string; n: number }>(
      `select table_name, op, count(*)::int as n from change_log where conversation_id = $1
       group by table_name, op order by table_name, op`,
      [thread!.conversation_id],
    );
    expect(changes).toEqual([
      { table_name: 'conversations', op: 'INSERT', n: 1 },
      { table_name: 'wa_messages', op: 'INSERT', n: 4 },
    ]);
  });

  it('continues and reopens the latest conversation, never moving last_message_at back', async () => {
    const from = '4917200000001';
    const t = Math.floor(Date.now() / 1000);
    await post(rt, delivery([textMessage(from, 'first', t)]));
    await drain(processor());
    const [conversation] = await threadOf(from);
    const resolved = await rt.app!.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation!.conversation_id}/`,
      headers: as(owner, business),
      payload: { status: 'resolved' },
    });
    expect(resolved.statusCode).toBe(200);
    await post(rt, delivery([textMessage(from, 'late, from before', t - 3600)]));
    await drain(processor());
    const [again] = await threadOf(from);
    expect(again).toMatchObject({
      conversation_id: conversation!.conversation_id,
      status: 'active',
      is_read: false,
    });
    const { last } = await one<{ last: Date }>(
      'select last_message_at as last from conversations where id = $1',
      [conversation!.conversation_id],
    );
    expect(new Date(last).getTime()).toBe(t * 1000);
  });
});

describe('a delivery that fails', () => {
  // A stand-in for any fault in one delivery: the database refuses its message.
  const POISON = 'wamid.POISON';
  beforeAll(async () => {
    await rt.database.exec(`
      create function test_refuse_poison() returns trigger language plpgsql as $$
      begin
        if new.id like '${POISON}%' then raise exception 'refused %', new.id; end if;
        return new;
      end $$;
      create trigger test_refuse_poison before insert on wa_messages
        for each row execute function test_refuse_poison();`);
  });
  afterAll(async () => {
    await rt.database.exec(`drop trigger if exists test_refuse_poison on wa_messages;
      drop function if exists test_refuse_poison();`);
  });

  it('is set aside with its error while the rest of its batch goes through, and retried later', async () => {
    const good = Array.from({ length: 5 }, (_, i) => `491730000000${i}`);
    for (const from of good.slice(0, 2)) await post(rt, delivery([textMessage(from, 'before the poison')]));
    const poisonId = wamid(POISON.slice('wamid.'.length));
    await post(rt, delivery([textMessage('4917300000099', 'poison', undefined, poisonId)]));
    for (const from of good.slice(2)) await post(rt, delivery([textMessage(from, 'after the poison')]));

    // The log says which statement failed and its SQLSTATE, never the values the database quotes.
    const lines: string[] = [];
    const capture = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const logged = new WebhookProcessor(createWhatsappDeps(rt.config, rt.database.db, rt.jobs), capture);
    expect(await logged.run()).toBe(6);
    expect(lines.join('')).toContain('P0001');
    expect(lines.join('')).not.toContain(poisonId);
    for (const from of good) expect((await threadOf(from))[0]?.bodies, from).toHaveLength(1);
    const failed = await one<{ attempts: number; last_error: string; wait: number }>(
      `select attempts, last_error, extract(epoch from next_attempt_at - now())::float8 as wait
       from whatsapp_webhook_events where processed_at is null`,
    );
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toContain('refused');
    expect(failed.wait).toBeGreaterThan(3);
    // Not due yet: the processor does not spin on it.
    expect(await processor().run()).toBe(0);
    expect((await threadOf('4917300000099'))[0]?.bodies ?? []).toEqual([]);

    // Each failure waits twice as long; after the last allowed attempt it is no longer due.
    await rt.database.exec(
      `update whatsapp_webhook_events set next_attempt_at = now() - interval '1 second' where processed_at is null`,
    );
    expect(await processor().run()).toBe(1);
    const second = await one<{ attempts: number; wait: number }>(
      `select attempts, extract(epoch from next_attempt_at - now())::float8 as wait
       from whatsapp_webhook_events where processed_at is null`,
    );
    expect(second.attempts).toBe(2);
    expect(second.wait).toBeGreaterThan(8);
    await rt.database.exec(
      `update whatsapp_webhook_events set attempts = 9, next_attempt_at = now() where processed_at is null`,
    );
    expect(await processor().run()).toBe(1);
    expect(
      await one<{ attempts: number; next_attempt_at: Date | null }>(
        'select attempts, next_attempt_at from whatsapp_webhook_events where processed_at is null',
      ),
    ).toEqual({ attempts: 10, next_attempt_at: null });

    // Once the fault is gone, a retry goes through like any delivery.
    await rt.database.exec(`drop trigger test_refuse_poison on wa_messages;
      update whatsapp_webhook_events set next_attempt_at = now() where processed_at is null`);
    expect(await processor().run()).toBe(1);
    expect(await pending()).toBe(0);
    expect((await threadOf('4917300000099'))[0]?.bodies).toEqual(['poison']);
    expect(
      await one<{ last_error: string | null }>(
        `select last_error from whatsapp_webhook_events e where payload::text like '%${poisonId}%'`,
      ),
    ).toEqual({ last_error: null });
  });
});

describe('several processors', () => {
  /** 240 messages from 12 customers, each in turn, some of them redelivered. */
  async function postMany(on: TestRuntime[]) {
    const t = Math.floor(Date.now() / 1000);
    const customers = Array.from(
      { length: 12 },
      (_, i) => `49174${String(Date.now()).slice(-6)}${String(i).padStart(2, '0')}`,
    );
    const sent: Message[] = [];
    for (let i = 0; i < 240; i++) {
      const m = textMessage(customers[i % customers.length]!, `message ${i}`, t + Math.floor(i / 12));
      sent.push(m);
      const copies = i % 10 === 0 ? [delivery([m]), delivery([m])] : [delivery([m])];
      for (const [k, copy] of copies.entries()) expect(await post(on[(i + k) % on.length]!, copy)).toBe(200);
    }
    return { customers, sent };
  }

  async function expectEachOnce(customers: string[], sent: Message[]) {
    for (const from of customers) {
      const thread = await threadOf(from);
      expect(thread, from).toHaveLength(1);
      // Each once; in what order concurrent batches stored them is not defined (nor is Meta's).
      expect([...thread[0]!.bodies].sort()).toEqual(
        sent
          .filter((m) => m.from === from)
          .map((m) => m.text.body)
          .sort(),
      );
    }
    expect(
      await one<{ failed: number }>(
        'select count(*)::int as failed from whatsapp_webhook_events where attempts > 0 and processed_at is null',
      ),
    ).toEqual({ failed: 0 });
    // The per-bucket counters stayed exact under concurrent batches.
    const counts = await one<{ counted: number; actual: number }>(
      `select (select coalesce(sum(n), 0)::int from conversation_counts where business_id = $1) as counted,
              (select count(*)::int from conversations where business_id = $1) as actual`,
      [business.id],
    );
    expect(counts.counted).toBe(counts.actual);
  }

  it('share the queue without processing a delivery twice or opening two conversations', async () => {
    const { customers, sent } = await postMany([rt]);
    const processors = Array.from({ length: 4 }, () => processor({ maxEvents: 7 }));
    await Promise.all(processors.map(drain));
    expect(await pending()).toBe(0);
    await expectEachOnce(customers, sent);
  });

  it.skipIf(testDbKind !== 'postgres')(
    'run in two instances on one database, each taking deliveries the other accepted',
    async () => {
      const instances = [await runtime(true), await runtime(true)];
      try {
        const { customers, sent } = await postMany(instances);
        await expect.poll(pending, { timeout: 20_000 }).toBe(0);
        await expectEachOnce(customers, sent);
      } finally {
        await Promise.all(instances.map((i) => i.close()));
      }
    },
  );
});
