// The send spine: a send killed mid-call resolves after a restart with one record, a queued send
// left behind is sent by the job, events never lower a status, the CSV of 100,000 sends streams
// with flat memory, and another business's sends are not found.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { createTestRuntime, createTestStore, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp } from '../../../testing/identity';
import { createWhatsappDeps } from '../../whatsapp/whatsapp.queues';
import { connectedAccount, deliver, runQueuedSend } from '../../whatsapp/messages/whatsapp.outbound';
import * as repo from '../../whatsapp/account/whatsapp.account.repository';
import * as sends from '../sends.service';
import { exportSendLogs } from '../sends.logs';

/** A Graph stand-in: `hang` never answers (a process killed mid-call), otherwise accepts. */
async function graphServer(mode: 'hang' | 'accept'): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let n = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    if (mode === 'hang') return;
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: `wamid.R${++n}` }] }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

async function seedBusiness(rt: TestRuntime, code: string) {
  const deps = createWhatsappDeps(rt.config, rt.database.db, rt.jobs);
  const [b] = await rt.database.query<{ id: string }>(
    `insert into businesses (name, unique_code) values ($1, $1) returning id`,
    [code],
  );
  const businessId = Number(b!.id);
  await repo.upsertAccount(rt.database.db, {
    businessId,
    phoneNumberId: `pn-${code}`,
    wabaId: `waba-${code}`,
    displayPhoneNumber: '+1 555 0100',
    verifyToken: `verify-${code}`,
    accessTokenSealed: deps.secrets.seal('EAAG-token-for-spine-tests-000'),
    appSecretSealed: deps.secrets.seal('app-secret-for-spine-tests-000'),
  });
  const [c] = await rt.database.query<{ id: string }>(
    `insert into conversations (business_id, channel, status) values ($1, 'whatsapp', 'active') returning id`,
    [businessId],
  );
  return { deps, businessId, conversationId: Number(c!.id) };
}

const text = (body: string) => ({ type: 'text', text: { body } });

describe('a send killed during the provider call', () => {
  it('resolves after a restart: one record, failed with the reason, never sent twice', async () => {
    const store = await createTestStore();
    const hanging = await graphServer('hang');
    try {
      const rt1 = await createTestRuntime({ store, http: false, env: { WHATSAPP_GRAPH_URL: hanging.url } });
      const { deps, businessId, conversationId } = await seedBusiness(rt1, 'spine-kill');
      const account = await connectedAccount(deps, businessId);
      const call = deliver(deps, account, {
        businessId,
        conversationId,
        recipient: '15550001234',
        senderType: 'staff',
        senderId: null,
        payload: text('Hello'),
        content: 'Hello',
      });
      call.catch(() => undefined); // it ends with the process below
      const statusOf = async (db: TestRuntime['database']) =>
        (
          await db.query<{ status: string }>('select status from sends where business_id = $1', [businessId])
        ).map((r) => r.status);
      await expect.poll(() => statusOf(rt1.database), { timeout: 60_000, interval: 50 }).toEqual(['sending']);
      await rt1.close(); // the process dies while Meta has the request

      const rt2 = await createTestRuntime({ store, http: false });
      try {
        const enqueued: string[] = [];
        const result = await sends.recoverSends(rt2.database.db, async (s) => void enqueued.push(s.id), {
          now: new Date(Date.now() + sends.SENDING_TIMEOUT_MS + 1000),
        });
        expect(result).toEqual({ failed: 1, queued: 0 });
        expect(enqueued).toEqual([]);
        const rows = await rt2.database.query<{ status: string; error_code: string; error_message: string }>(
          'select status, error_code, error_message from sends where business_id = $1',
          [businessId],
        );
        expect(rows).toEqual([
          {
            status: 'failed',
            error_code: sends.INTERRUPTED_CODE,
            error_message: sends.SEND_ERRORS.interrupted,
          },
        ]);
        // Nothing shows in the conversation; a second sweep changes nothing.
        const [m] = await rt2.database.query<{ n: number }>(
          'select count(*)::int as n from wa_messages where conversation_id = $1',
          [conversationId],
        );
        expect(m!.n).toBe(0);
        expect(
          await sends.recoverSends(rt2.database.db, async () => undefined, {
            now: new Date(Date.now() + 10 * sends.SENDING_TIMEOUT_MS),
          }),
        ).toEqual({ failed: 0, queued: 0 });
      } finally {
        await rt2.close();
      }
    } finally {
      await hanging.close();
      await store.destroy();
    }
  });

  it('sends a queued send its request never claimed, once, from the job', async () => {
    const accepting = await graphServer('accept');
    const rt = await createTestRuntime({ http: false, env: { WHATSAPP_GRAPH_URL: accepting.url } });
    try {
      const { deps, businessId, conversationId } = await seedBusiness(rt, 'spine-queued');
      const queued = await rt.database.db.transaction((tx) =>
        sends.createQueued(tx, {
          businessId,
          channel: 'whatsapp',
          cause: 'staff_reply',
          conversationId,
          recipient: '15550001235',
          providerRequest: { to: '15550001235', ...text('Left behind') },
          message: {
            content: 'Left behind',
            message_type: 'text',
            sender_type: 'staff',
            sender_id: null,
            meta_data: text('Left behind'),
          },
        }),
      );
      const enqueued: string[] = [];
      await sends.recoverSends(rt.database.db, async (s) => void enqueued.push(s.id), {
        now: new Date(Date.now() + sends.QUEUED_TIMEOUT_MS + 1000),
      });
      expect(enqueued).toEqual([queued.id]);
      await runQueuedSend(deps, queued.id);
      await runQueuedSend(deps, queued.id); // a retried job sends nothing twice
      const rows = await rt.database.query<{ status: string; provider_message_id: string }>(
        'select status, provider_message_id from sends where business_id = $1',
        [businessId],
      );
      expect(rows).toEqual([{ status: 'accepted', provider_message_id: 'wamid.R1' }]);
      const messages = await rt.database.query<{ id: string; content: string }>(
        'select id, content from wa_messages where conversation_id = $1',
        [conversationId],
      );
      expect(messages).toEqual([{ id: 'wamid.R1', content: 'Left behind' }]);
    } finally {
      await rt.destroy();
      await accepting.close();
    }
  });
});

describe('the spine', () => {
  let rt: TestRuntime;
  let seeded: Awaited<ReturnType<typeof seedBusiness>>;
  beforeAll(async () => {
    rt = await createTestRuntime({ http: true });
    seeded = await seedBusiness(rt, 'spine-main');
  });
  afterAll(async () => {
    await rt.destroy();
  });

  it('never lowers a status, whatever order the events arrive in; failed is final', async () => {
    expect(sends.strongerStatus('whatsapp', 'read', 'delivered')).toBe('read');
    expect(sends.strongerStatus('email', 'clicked', 'opened')).toBe('clicked');
    expect(sends.strongerStatus('whatsapp', 'failed', 'read')).toBe('failed');
    const { businessId, conversationId } = seeded;
    const send = await rt.database.db.transaction((tx) =>
      sends.createQueued(tx, {
        businessId,
        channel: 'whatsapp',
        cause: 'staff_reply',
        conversationId,
        recipient: '15550009876',
        providerRequest: text('x'),
      }),
    );
    const claimed = await sends.claim(rt.database.db, send.id);
    expect(await sends.claim(rt.database.db, send.id)).toBeNull(); // one claimant only
    await rt.database.db.transaction((tx) =>
      sends.recordAccepted(tx, claimed!, { ok: true, providerMessageId: 'wamid.ORDER', response: {} }),
    );
    const status = async () =>
      (await rt.database.query<{ status: string }>('select status from sends where id = $1', [send.id]))[0]!
        .status;
    const event = (type: string) => ({
      businessId,
      providerMessageId: 'wamid.ORDER',
      type,
      timestamp: 1_700_000_000,
      payload: { id: 'wamid.ORDER', status: type },
    });
    for (const [type, expected] of [
      ['read', 'read'],
      ['sent', 'read'],
      ['delivered', 'read'],
    ] as const) {
      await rt.database.db.transaction((tx) => sends.applyEvents(tx, 'whatsapp', [event(type)]));
      expect(await status()).toBe(expected);
    }
    await rt.database.db.transaction((tx) =>
      sends.applyEvents(tx, 'whatsapp', [
        { ...event('failed'), payload: { errors: [{ code: 131026, title: 'Undeliverable' }] } },
        event('delivered'),
      ]),
    );
    expect(await status()).toBe('failed');
    await rt.database.db.transaction((tx) => sends.applyEvents(tx, 'whatsapp', [event('read')]));
    expect(await status()).toBe('failed');
    // Another business reporting the same id touches nothing of this one's.
    await rt.database.db.transaction((tx) =>
      sends.applyEvents(tx, 'whatsapp', [{ ...event('read'), businessId: businessId + 100_000 }]),
    );
    expect(await status()).toBe('failed');
  });

  it('keeps events Titan observes itself and raises the send in order, never lowering it', async () => {
    const { businessId } = seeded;
    const send = await rt.database.db.transaction((tx) =>
      sends.createQueued(tx, {
        businessId,
        channel: 'email',
        cause: 'test',
        recipient: 'ada@example.com',
        providerRequest: {},
      }),
    );
    await sends.recordAccepted(rt.database.db, (await sends.claim(rt.database.db, send.id))!, {
      ok: true,
      providerMessageId: '<m1@example.com>',
      response: {},
    });
    const clicked = await sends.recordSendEvent(rt.database.db, {
      sendId: send.id,
      type: 'clicked',
      payload: { url: 'https://example.com/a' },
    });
    expect(clicked?.status).toBe('clicked');
    // An open after the click is kept, and lowers nothing; a second click is kept too.
    expect((await sends.recordSendEvent(rt.database.db, { sendId: send.id, type: 'opened' }))?.status).toBe(
      'clicked',
    );
    await sends.recordSendEvent(rt.database.db, { sendId: send.id, type: 'clicked', payload: { url: 'b' } });
    // A non-status event is only kept.
    await sends.recordSendEvent(rt.database.db, { sendId: send.id, type: 'unsubscribed', raise: false });
    const bounced = await sends.recordSendEvent(rt.database.db, {
      sendId: send.id,
      type: 'bounced',
      errorCode: '5.1.1',
      errorMessage: 'User unknown',
    });
    expect(bounced).toMatchObject({ status: 'bounced', errorCode: '5.1.1', errorMessage: 'User unknown' });
    expect((await sends.recordSendEvent(rt.database.db, { sendId: send.id, type: 'opened' }))?.status).toBe(
      'bounced',
    );
    const types = await rt.database.query<{ type: string }>(
      'select type from send_events where send_id = $1 order by id',
      [send.id],
    );
    expect(types.map((t) => t.type)).toEqual([
      'clicked',
      'opened',
      'clicked',
      'unsubscribed',
      'bounced',
      'opened',
    ]);
    expect(
      await sends.recordSendEvent(rt.database.db, {
        sendId: '00000000-0000-4000-8000-000000000000',
        type: 'opened',
      }),
    ).toBeNull();
  });

  it('answers another business’s send as not found, and email and SMS logs empty', async () => {
    const owner = await signUp(rt.app!, rt.mailer);
    const mine: TBusiness = await createBusiness(rt.app!, owner, 'Spine Other Co');
    const [theirs] = await rt.database.query<{ id: string }>(
      `insert into sends (business_id, channel, cause, recipient, status, provider_request)
       values ($1, 'whatsapp', 'staff_reply', '15550000001', 'accepted', '{"type":"text"}') returning id`,
      [seeded.businessId],
    );
    for (const channel of ['whatsapp', 'email', 'sms']) {
      const res = await rt.app!.inject({
        method: 'GET',
        url: `/api/${channel}/events/${theirs!.id}/`,
        headers: as(owner, mine),
      });
      expect(res.statusCode, channel).toBe(404);
      const list = await rt.app!.inject({
        method: 'GET',
        url: `/api/${channel}/events/`,
        headers: as(owner, mine),
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().result).toMatchObject({ count: 0, results: [] });
      const csv = await rt.app!.inject({
        method: 'GET',
        url: `/api/${channel}/events/download/`,
        headers: as(owner, mine),
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.body.trim().split('\r\n')).toHaveLength(1);
    }
  });

  it('streams the CSV of 100,000 sends with flat memory', { timeout: 240_000 }, async () => {
    const { businessId } = seeded;
    await rt.database.query(
      `insert into sends (business_id, channel, cause, recipient, status, provider_message_id, provider_request, created_at)
       select $1, 'whatsapp', 'staff_reply', '1555' || lpad(i::text, 7, '0'), 'delivered', 'wamid.CSV' || i,
              '{"type":"text"}', now() - i * interval '1 second'
       from generate_series(1, 100000) i`,
      [businessId],
    );
    // Retained memory, not garbage: a collection before each measurement.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    let chunks = 0;
    let bytes = 0;
    let lines = 0;
    for await (const chunk of exportSendLogs(
      rt.database.db,
      'whatsapp',
      { businessId, groupIds: null },
      {
        search: 'CSV',
      },
    )) {
      bytes += chunk.length;
      lines += chunk.split('\r\n').length - 1;
      if (++chunks % 10 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      }
    }
    expect(lines).toBe(100_001); // the header and every send: no row cap
    // The whole file is ~18 MB (more as JS strings); one batch of 1,000 rows is ~180 kB. Holding
    // the file, or the rows, would pass the bound; reading batch by batch stays far below it.
    expect(bytes).toBeGreaterThan(10_000_000);
    expect(peak).toBeLessThan(bytes / 4);
  });
});
