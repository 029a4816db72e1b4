import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type {
  TBusiness,
  TConversation,
  TMessage,
  TWhatsappBalance,
  TWhatsappLog,
  TWhatsappLogDetail,
} from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { startConversation } from '../../conversations/conversations.service';
import { csvCell } from '../messages/whatsapp.logs';
import { parseCsv } from '../../../testing/csv';

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let agent: Session;
let business: TBusiness;
let stranger: Session;
let strangerBusiness: TBusiness;
let conversation: TConversation;

const call = <T = unknown>(
  method: string,
  path: string,
  who: Session,
  inBusiness: TBusiness,
  payload?: unknown,
) => callAs<T>(base, method, path, who, inBusiness, payload);

const sendTemplate = (payload: object) =>
  call<TMessage>('POST', '/api/whatsapp/message/send-template/', owner, business, payload);

const logs = async (query = '', who = owner, inBusiness = business) =>
  (
    await call<{ count: number; next: number | null; results: TWhatsappLog[] }>(
      'GET',
      `/api/whatsapp/events/${query}`,
      who,
      inBusiness,
    )
  ).body.result;

const detail = (trackingId: string, who = owner, inBusiness = business) =>
  call<TWhatsappLogDetail>('GET', `/api/whatsapp/events/${trackingId}/`, who, inBusiness);

const logOf = async (wamid: string) => (await logs(`?search=${encodeURIComponent(wamid)}`)).results[0]!;

/** Waits until the log of `wamid` shows `status` (statuses arrive by webhook, through a job). */
async function logReaches(wamid: string, status: string, extra: (l: TWhatsappLog) => boolean = () => true) {
  await expect
    .poll(
      async () => {
        const log = await logOf(wamid);
        return log?.status === status && extra(log);
      },
      { timeout: 45_000, interval: 100 },
    )
    .toBe(true);
  return logOf(wamid);
}

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Logs Co' });
  ({ sim, rt, base, owner, business } = bench);
  agent = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
  stranger = await signUp(rt.app!, rt.mailer);
  strangerBusiness = await createBusiness(rt.app!, stranger, 'Elsewhere');
  expect((await call('POST', '/api/whatsapp/template/sync/', owner, business)).status).toBe(200);
  await sim.sendInbound({ from: '15550002001', name: 'Lou Logs', type: 'text', text: 'hi' });
  const deadline = Date.now() + 15_000;
  while (!conversation) {
    if (Date.now() > deadline) throw new Error('the inbound message opened no conversation');
    await new Promise((r) => setTimeout(r, 50));
    conversation = (
      await call<{ results: TConversation[] }>(
        'GET',
        '/api/msg/conversations/?channel__in=whatsapp',
        owner,
        business,
      )
    ).body.result.results[0]!;
  }
});

afterAll(() => bench?.close());

describe('log list and detail', () => {
  it('shows a send with its whole status timeline, pricing and bodies without credentials', async () => {
    const sent = await sendTemplate({
      conversation_id: conversation.id,
      name: 'spring_sale',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '30%' }] }],
    });
    expect(sent.status).toBe(201);
    const wamid = sent.body.result.id as string;
    const log = await logReaches(wamid, 'read', (l) => l.pricing_category !== null);
    expect(log).toMatchObject({
      wamid,
      conversation_id: conversation.id,
      to: '15550002001',
      type: 'template',
      template_name: 'spring_sale',
      status: 'read',
      error_code: null,
      pricing_category: 'marketing',
      billable: true,
      sent_by: { id: owner.user.pk, name: 'Ada Lovelace' },
    });

    const res = await detail(log.tracking_id);
    expect(res.status).toBe(200);
    const d = res.body.result;
    expect(d.events.map((e) => e.status)).toEqual(['sent', 'delivered', 'read']);
    expect(d.events[0]).toMatchObject({
      pricing: { category: 'marketing', billable: true },
      error: null,
      timestamp: expect.stringMatching(/Z$/),
    });
    expect(d.request).toEqual({
      to: '15550002001',
      type: 'template',
      template: {
        name: 'spring_sale',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: '30%' }] }],
      },
    });
    expect((d.response as { messages: { id: string }[] }).messages[0]!.id).toBe(wamid);
    const raw = JSON.stringify(d);
    expect(raw).not.toContain(bench.account.access_token);
    expect(raw).not.toContain(bench.account.app_secret);
  });

  it('orders the timeline by status rank even when reports arrive out of order', async () => {
    sim.set({ outOfOrder: true });
    try {
      const sent = await sendTemplate({
        conversation_id: conversation.id,
        name: 'hello_world',
        language: 'en_US',
      });
      const log = await logReaches(sent.body.result.id as string, 'read');
      await expect
        .poll(async () => (await detail(log.tracking_id)).body.result.events.length, { timeout: 20_000 })
        .toBe(3);
      expect((await detail(log.tracking_id)).body.result.events.map((e) => e.status)).toEqual([
        'sent',
        'delivered',
        'read',
      ]);
    } finally {
      sim.reset();
    }
  });

  it('shows a failed delivery with Meta’s reason', async () => {
    sim.set({
      failDeliveries: {
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        details: 'Unable to deliver message. The number is not on WhatsApp.',
      },
    });
    try {
      const sent = await sendTemplate({
        conversation_id: conversation.id,
        name: 'hello_world',
        language: 'en_US',
      });
      const log = await logReaches(sent.body.result.id as string, 'failed');
      expect(log).toMatchObject({
        status: 'failed',
        error_code: 131026,
        error_message: 'Message undeliverable',
      });
      await expect
        .poll(async () => (await detail(log.tracking_id)).body.result.events.length, { timeout: 20_000 })
        .toBe(2);
      const events = (await detail(log.tracking_id)).body.result.events;
      expect(events.map((e) => e.status)).toEqual(['sent', 'failed']);
      expect(events[1]!.error).toEqual({
        code: 131026,
        title: 'Message undeliverable',
        details: 'Unable to deliver message. The number is not on WhatsApp.',
      });
    } finally {
      sim.reset();
    }
  });

  it('keeps a refused call as an error row with Meta’s answer and no timeline', async () => {
    sim.failNextSends(132001);
    const refused = await sendTemplate({
      conversation_id: conversation.id,
      name: 'hello_world',
      language: 'en_US',
    });
    expect(refused.status).toBe(400);
    const errors = await logs('?status=error');
    expect(errors.count).toBe(1);
    expect(errors.results[0]).toMatchObject({ status: 'error', wamid: null, error_code: 132001 });
    const d = (await detail(errors.results[0]!.tracking_id)).body.result;
    expect(d.events).toEqual([]);
    expect((d.response as { error: { code: number } }).error.code).toBe(132001);
  });

  it('filters by status, search and dates, newest first, paged', async () => {
    const all = await logs('?page_size=100');
    expect(all.count).toBe(4);
    const times = all.results.map((l) => l.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    expect((await logs('?search=spring')).results.map((l) => l.template_name)).toEqual(['spring_sale']);
    expect((await logs('?search=%2B1%20(555)%20000-2001')).count).toBe(4);
    expect((await logs('?status=read')).results.every((l) => l.status === 'read')).toBe(true);
    expect((await logs('?status=failed')).count).toBe(1);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await logs(`?created_at__gte=${future}`)).count).toBe(0);
    expect((await logs(`?created_at__lte=${future}`)).count).toBe(4);

    const first = await logs('?page_size=3');
    expect(first).toMatchObject({ count: 4, next: 2 });
    expect(first.results).toHaveLength(3);
    const second = await logs('?page_size=3&page=2');
    expect(second).toMatchObject({ count: 4, next: null, previous: 1 });
    expect(second.results[0]!.tracking_id).toBe(all.results[3]!.tracking_id);

    const bad = await call('GET', '/api/whatsapp/events/?created_at__gte=yesterday', owner, business);
    expect(bad.status).toBe(400);
    expect(bad.body.result).toEqual({ created_at__gte: ['Enter a valid date/time.'] });
  });

  it('lets agents read logs; other businesses see none of them', async () => {
    const mine = await logs('', agent);
    expect(mine.count).toBe(4);
    const theirs = await logs('', stranger, strangerBusiness);
    expect(theirs).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await detail(mine.results[0]!.tracking_id, stranger, strangerBusiness)).status).toBe(404);
    expect((await detail('not-a-uuid')).status).toBe(400);
    expect((await detail('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('CSV download', () => {
  it('exports the filtered logs with a header row, RFC 4180 quoting and a dated file name', async () => {
    // A row whose values a spreadsheet would misread: a formula, quotes, commas and a line break.
    await rt.database.query(
      `insert into sends (business_id, channel, cause, recipient, provider_request, template_name, status, error_code, error_message)
       values ($1, 'whatsapp', 'template_send', '15550002999', '{"type":"template"}', '=HYPERLINK("http://evil.example","x")', 'failed', '100',
               'Bad, "quoted"' || chr(13) || chr(10) || 'second line')`,
      [business.id],
    );
    const res = await fetch(`${base}/api/whatsapp/events/download/`, { headers: as(owner, business) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="whatsapp-logs-${today}.csv"`);
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'tracking_id',
      'created_at',
      'updated_at',
      'to',
      'type',
      'template_name',
      'status',
      'error_code',
      'error_message',
      'pricing_category',
      'billable',
      'wamid',
      'conversation_id',
      'sent_by',
    ]);
    expect(rows).toHaveLength(1 + 5);
    const evil = rows.find((r) => r[3] === '15550002999')!;
    expect(evil[5]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(evil[8]).toBe('Bad, "quoted"\r\nsecond line');
    const spring = rows.find((r) => r[5] === 'spring_sale')!;
    expect(spring.slice(6, 11)).toEqual(['read', '', '', 'marketing', 'true']);
    expect(spring[13]).toBe('Ada Lovelace');

    const filtered = parseCsv(
      await (
        await fetch(`${base}/api/whatsapp/events/download/?status=failed`, { headers: as(owner, business) })
      ).text(),
    );
    expect(filtered).toHaveLength(2);
    expect(filtered[1]![6]).toBe('failed');

    const theirs = await fetch(`${base}/api/whatsapp/events/download/`, {
      headers: as(stranger, strangerBusiness),
    });
    expect(parseCsv(await theirs.text())).toHaveLength(1);
    await rt.database.query(`delete from sends where recipient = '15550002999'`);
  });

  it('streams large exports in batches without skipping or repeating rows', async () => {
    // 4,500 rows sharing a handful of microsecond timestamps: the batches' keyset must hold ties.
    await rt.database.query(
      `insert into sends (business_id, channel, cause, recipient, provider_request, status, provider_message_id, created_at)
       select $1, 'whatsapp', 'staff_reply', '1555' || lpad(i::text, 7, '0'), '{"type":"text"}', 'read', 'wamid.X' || i,
              timestamptz '2025-01-15 10:00:00.123456+00' - (i % 3) * interval '1 microsecond'
       from generate_series(1, 4500) i`,
      [strangerBusiness.id],
    );
    try {
      const res = await fetch(`${base}/api/whatsapp/events/download/`, {
        headers: as(stranger, strangerBusiness),
      });
      const rows = parseCsv(await res.text()).slice(1);
      expect(rows).toHaveLength(4500);
      expect(new Set(rows.map((r) => r[0])).size).toBe(4500);
      expect(new Set(rows.map((r) => r[3])).size).toBe(4500);
    } finally {
      await rt.database.query('delete from sends where business_id = $1', [strangerBusiness.id]);
    }
  });

  it('neutralises every formula prefix and quotes only what needs it', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+15550100')).toBe("'+15550100");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(null)).toBe('');
    expect(csvCell(false)).toBe('false');
  });
});

describe('balance', () => {
  it('sums this month’s messages by pricing category with the estimated rates', async () => {
    const before = (await call<TWhatsappBalance>('GET', '/api/whatsapp/client/balance/', agent, business))
      .body.result;
    const now = new Date();
    expect(before).toMatchObject({
      currency: 'USD',
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });
    expect(before.by_category.map((c) => [c.category, c.rate])).toEqual([
      ['marketing', 0.025],
      ['utility', 0.004],
      ['authentication', 0.0135],
      ['service', 0],
      ['unknown', 0],
    ]);

    // Marketing twice, authentication once (billable); utility inside the window (free) and to a
    // number that never wrote (billable).
    const sends = [
      { name: 'spring_sale', components: [{ type: 'body', parameters: [{ type: 'text', text: '5%' }] }] },
      { name: 'spring_sale', components: [{ type: 'body', parameters: [{ type: 'text', text: '6%' }] }] },
      { name: 'login_code', components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }] },
      { name: 'hello_world' },
    ];
    const wamids: string[] = [];
    for (const s of sends) {
      const res = await sendTemplate({ conversation_id: conversation.id, language: 'en_US', ...s });
      expect(res.status).toBe(201);
      wamids.push(res.body.result.id as string);
    }
    const cold = await sendTemplate({ to: '+15550002002', name: 'hello_world', language: 'en_US' });
    expect(cold.status).toBe(201);
    wamids.push(cold.body.result.id as string);
    for (const wamid of wamids) await logReaches(wamid, 'read', (l) => l.pricing_category !== null);

    const after = (await call<TWhatsappBalance>('GET', '/api/whatsapp/client/balance/', agent, business)).body
      .result;
    const delta = (category: string) => {
      const a = after.by_category.find((c) => c.category === category)!;
      const b = before.by_category.find((c) => c.category === category)!;
      return { messages: a.messages - b.messages, billable: a.billable - b.billable, cost: a.cost - b.cost };
    };
    expect(delta('marketing')).toEqual({ messages: 2, billable: 2, cost: expect.closeTo(0.05, 9) });
    expect(delta('authentication')).toEqual({ messages: 1, billable: 1, cost: expect.closeTo(0.0135, 9) });
    expect(delta('utility')).toEqual({ messages: 2, billable: 1, cost: expect.closeTo(0.004, 9) });
    expect(after.messages_sent - before.messages_sent).toBe(5);
    expect(after.billable_messages - before.billable_messages).toBe(4);
    expect(after.spent - before.spent).toBeCloseTo(0.0675, 9);
    expect(after.spent).toBeCloseTo(
      after.by_category.reduce((n, c) => n + c.cost, 0),
      9,
    );

    const theirs = (
      await call<TWhatsappBalance>('GET', '/api/whatsapp/client/balance/', stranger, strangerBusiness)
    ).body.result;
    expect(theirs).toMatchObject({ messages_sent: 0, billable_messages: 0, spent: 0 });
  });
});

describe("agents' logs", () => {
  it('shows an agent only the sends in conversations their inbox shows; owners see all', async () => {
    const app = rt.app!;
    const group = async (slug: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/msg/chat-groups/',
          headers: as(owner, business),
          payload: { name: slug, slug },
        })
      ).json().result.id as number;
    const support = await group('logs-support');
    const sales = await group('logs-sales');
    const grouped = await addMember(app, rt.mailer, owner, business, 'agent');
    const added = await app.inject({
      method: 'POST',
      url: `/api/msg/chat-groups/${support}/users/`,
      headers: as(owner, business),
      payload: { user_id: grouped.user.pk },
    });
    expect(added.statusCode).toBe(201);
    const conversationIn = async (chatGroupId: number) =>
      (
        await startConversation(rt.database.db, {
          businessId: business.id,
          channel: 'whatsapp',
          initiatorId: null,
          chatGroupId,
          title: 'Scoped',
        })
      ).id;
    const inSupport = await conversationIn(support);
    const inSales = await conversationIn(sales);
    const inserted = await rt.database.query<{ tracking_id: string; recipient: string }>(
      `insert into sends (business_id, channel, cause, conversation_id, recipient, provider_request, status, provider_message_id)
       values ($1, 'whatsapp', 'staff_reply', $2, '15557770001', '{"type":"text"}', 'read', 'wamid.S1'),
              ($1, 'whatsapp', 'staff_reply', $3, '15557770002', '{"type":"text"}', 'read', 'wamid.S2'),
              ($1, 'whatsapp', 'template_send', null, '15557770003', '{"type":"template"}', 'read', 'wamid.S3')
       returning id as tracking_id, recipient`,
      [business.id, inSupport, inSales],
    );
    const tracking = Object.fromEntries(inserted.map((r) => [r.recipient, r.tracking_id]));
    try {
      const recipients = async (who: Session) =>
        (await logs('?search=1555777', who)).results.map((l) => l.to).sort();
      expect(await recipients(grouped)).toEqual(['15557770001']);
      expect(await recipients(owner)).toEqual(['15557770001', '15557770002', '15557770003']);
      // The shared pool (the unassigned conversation of the earlier tests) stays visible.
      expect(
        (await logs('?page_size=100', grouped)).results.some((l) => l.conversation_id === conversation.id),
      ).toBe(true);

      expect((await detail(tracking['15557770001']!, grouped)).status).toBe(200);
      for (const hidden of ['15557770002', '15557770003']) {
        expect((await detail(tracking[hidden]!, grouped)).status).toBe(404);
        expect((await detail(tracking[hidden]!, owner)).status).toBe(200);
      }

      const csv = async (who: Session) => {
        const res = await fetch(`${base}/api/whatsapp/events/download/?search=1555777`, {
          headers: as(who, business),
        });
        expect(res.status).toBe(200);
        return parseCsv(await res.text())
          .slice(1)
          .map((r) => r[3])
          .sort();
      };
      expect(await csv(grouped)).toEqual(['15557770001']);
      expect(await csv(owner)).toEqual(['15557770001', '15557770002', '15557770003']);
    } finally {
      await rt.database.query('delete from sends where recipient like $1', ['1555777%']);
      await rt.database.query('delete from conversations where id = any($1)', [[inSupport, inSales]]);
    }
  });
});
