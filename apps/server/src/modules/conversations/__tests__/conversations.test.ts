import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ZChatGroup, ZChatGroupSettings, ZConversation, ZEnvelope, ZPage } from '@titan/contracts';
import type { TBusiness, TConversation, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createStorage } from '../../../platform/storage';
import * as repo from '../conversations.repository';
import { receiveCustomerMessage, startConversation, INBOX_ERRORS } from '../conversations.service';
import { insertCustomer } from '../../directory/directory.repository';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Inbox Co');
});
afterAll(() => rt.destroy());

const deps = () => ({ db: rt.database.db, storage: createStorage(rt.config) });

/** A customer starts a conversation and writes `texts`, through the product's write path. */
async function customerConversation(
  b: TBusiness,
  options: { name?: string; texts?: string[]; channel?: 'titan_message' | 'whatsapp'; title?: string } = {},
) {
  const customer = await insertCustomer(rt.database.db, {
    businessId: b.id,
    name: options.name ?? 'Cora Customer',
    email: 'cora@example.test',
  });
  const conversation = await startConversation(rt.database.db, {
    businessId: b.id,
    channel: options.channel ?? 'titan_message',
    initiatorId: customer.id,
    title: options.title ?? 'Where is my order?',
  });
  for (const text of options.texts ?? ['Hello?']) {
    if (conversation.channel === 'titan_message') {
      await receiveCustomerMessage(deps(), {
        businessId: b.id,
        conversationId: conversation.id,
        customerId: customer.id,
        message: { message_type: 'text', content: text },
      });
    }
  }
  return { customer, conversation };
}

const list = async (query = '', s: Session = owner, b: TBusiness = business) => {
  const res = await app.inject({ method: 'GET', url: `/api/msg/conversations/?${query}`, headers: as(s, b) });
  return res;
};
const ids = (res: { json(): { result: { results: TConversation[] } } }) =>
  res.json().result.results.map((c) => c.id);

describe('conversation list', () => {
  let isolated: { owner: Session; business: TBusiness; all: TConversation[] };

  beforeAll(async () => {
    // A business of its own so counts are exact.
    const o = await signUp(app, rt.mailer);
    const b = await createBusiness(app, o, 'List Co');
    const made: TConversation[] = [];
    for (let i = 0; i < 13; i++) {
      made.push(
        (await customerConversation(b, { name: `Customer ${i}`, texts: [`message ${i}`] })).conversation,
      );
    }
    isolated = { owner: o, business: b, all: made };
  });

  const iso = (q = '') => list(q, isolated.owner, isolated.business);

  it('answers pages of 10 ordered by last message, newest first, with count and neighbours', async () => {
    const first = await iso();
    expect(first.statusCode).toBe(200);
    const page1 = first.json().result;
    expect(page1.count).toBe(13);
    expect(page1.results).toHaveLength(10);
    expect(page1.next).toBe(2);
    expect(page1.previous).toBeNull();
    expect(page1.results[0].id).toBe(isolated.all.at(-1)!.id);
    const page2 = (await iso('page=2')).json().result;
    expect(page2.results).toHaveLength(3);
    expect(page2).toMatchObject({ count: 13, next: null, previous: 1 });
    const past = (await iso('page=9')).json().result;
    expect(past).toMatchObject({ count: 13, results: [] });
    expect((await iso('page_size=5&page=3')).json().result.results).toHaveLength(3);
  });

  it('enriches rows with the initiator and the chat group', async () => {
    const row = (await iso('page_size=1')).json().result.results[0] as TConversation;
    expect(row).toMatchObject({
      status: 'active',
      is_read: false,
      channel: 'titan_message',
      business_replied: false,
      engage_business_id: isolated.business.id,
      initiator: { name: 'Customer 12', email: 'cora@example.test' },
      assigned_chat_group: null,
    });
    expect(row.last_message_at).not.toBeNull();
  });

  it("answers every row exactly as the conversation itself, in the contract's shape", async () => {
    const o = await signUp(app, rt.mailer);
    const b = await createBusiness(app, o, 'Shape Co');
    const { conversation: plain } = await customerConversation(b, {
      name: 'Zoë "Q" O\'Brien \\ 😀',
      title: 'Line one\nline "two" — ünïcode',
    });
    const { conversation: grouped } = await customerConversation(b, { texts: [] });
    const { conversation: anonymous } = await customerConversation(b);
    // A group made through its own API, every field set, so the record it answers is the yardstick.
    const groupRes = await app.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(o, b),
      payload: {
        name: 'Support <EU>',
        slug: 'support-eu',
        greeting: 'Hi "there" — ünïcode \\ 😀',
        color: '#1f6feb',
        launcher_position: 'left',
        visitor_form: [
          { name: 'plan', label: 'Plan', type: 'select', required: true, options: ['Free', 'Pro'] },
        ],
        allowed_origins: ['https://www.example.com'],
      },
    });
    expect(groupRes.statusCode).toBe(201);
    const fullGroup = ZChatGroupSettings.strict().parse(groupRes.json().result);
    const group = { id: fullGroup.id };
    // Microseconds past the millisecond: the list truncates them as the rest of the API does.
    await rt.database.query(
      `update conversations set assigned_chat_group_id = $2, created_at = '2025-03-04T05:06:07.123999Z'
       where id = $1`,
      [grouped.id, group.id],
    );
    await rt.database.query(`update conversations set initiator_id = null where id = $1`, [anonymous.id]);
    await rt.database.query(
      `update customers set name = null, email = null where business_id = $1 and id =
      (select initiator_id from conversations where id = $2)`,
      [b.id, plain.id],
    );
    const res = await list('', o, b);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = ZEnvelope(ZPage(ZConversation.strict())).parse(res.json());
    expect(body).toMatchObject({
      status: 200,
      message: 'OK',
      result: { count: 3, next: null, previous: null },
    });
    for (const row of body.result.results) {
      const one = await app.inject({
        method: 'GET',
        url: `/api/msg/conversations/${row.id}/`,
        headers: as(o, b),
      });
      expect(row).toEqual(one.json().result);
    }
    const byId = new Map(body.result.results.map((r) => [r.id, r]));
    expect(byId.get(grouped.id)).toMatchObject({
      last_message_at: null,
      created_at: '2025-03-04T05:06:07.123Z',
    });
    // The full chat group record (spec section 3), the same as the group's own GET, in list and read.
    const groupGet = await app.inject({
      method: 'GET',
      url: `/api/msg/chat-groups/${group.id}/`,
      headers: as(o, b),
    });
    expect(groupGet.json().result).toEqual(fullGroup);
    // The group as the group route answers it, less its settings (auto-assignment, the widget's
    // language and text overrides, the AI first responder, business hours, SLA and CSAT: not part
    // of the conversation's record).
    const {
      assignment: _assignment,
      locale: _locale,
      strings: _strings,
      ai_responder: _aiResponder,
      business_hours: _hours,
      away_message: _away,
      sla: _sla,
      csat: _csat,
      ...groupRecord
    } = fullGroup;
    expect(ZChatGroup.strict().parse(byId.get(grouped.id)!.assigned_chat_group)).toEqual(groupRecord);
    expect(byId.get(anonymous.id)!.initiator).toBeNull();
    expect(byId.get(plain.id)).toMatchObject({
      title: 'Line one\nline "two" — ünïcode',
      initiator: { name: null, email: null },
    });
  });

  it('filters by status, read state, reply state and channel, alone and combined', async () => {
    const [a, b, c] = isolated.all;
    const h = as(isolated.owner, isolated.business);
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${a!.id}/`,
      headers: h,
      payload: { status: 'resolved' },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${b!.id}/`,
      headers: h,
      payload: { is_read: true },
    });
    await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${c!.id}/messages/`,
      headers: h,
      payload: { message_type: 'text', content: 'On its way!' },
    });
    expect(ids(await iso('status=resolved'))).toEqual([a!.id]);
    expect((await iso('status=active')).json().result.count).toBe(12);
    expect(ids(await iso('is_read=true')).sort()).toEqual([b!.id, c!.id].sort());
    expect((await iso('is_read=false')).json().result.count).toBe(11);
    expect(ids(await iso('business_replied=true'))).toEqual([c!.id]);
    expect((await iso('business_replied=false')).json().result.count).toBe(12);
    expect((await iso('channel__in=titan_message')).json().result.count).toBe(13);
    expect((await iso('channel__in=whatsapp')).json().result.count).toBe(0);
    expect((await iso('channel__in=whatsapp,titan_message')).json().result.count).toBe(13);
    expect(ids(await iso('status=active&is_read=true&business_replied=true'))).toEqual([c!.id]);
    expect((await iso('status=resolved&is_read=true')).json().result.count).toBe(0);
  });

  it('keeps counts equal to the rows for every filter combination as conversations change', async () => {
    const h = as(isolated.owner, isolated.business);
    const [d, e] = isolated.all.slice(5);
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${d!.id}/`,
      headers: h,
      payload: { status: 'resolved', is_read: true },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${d!.id}/`,
      headers: h,
      payload: { status: 'active' },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${e!.id}/`,
      headers: h,
      payload: { is_read: true },
    });
    for (const status of [undefined, 'active', 'resolved']) {
      for (const isRead of [undefined, true, false]) {
        for (const replied of [undefined, true, false]) {
          for (const channel of [undefined, 'titan_message', 'whatsapp']) {
            const query = new URLSearchParams();
            const where = ['business_id = $1'];
            const params: unknown[] = [isolated.business.id];
            const add = (param: string, column: string, value: string | boolean | undefined) => {
              if (value === undefined) return;
              query.set(param, String(value));
              params.push(value);
              where.push(`${column} = $${params.length}`);
            };
            add('status', 'status', status);
            add('is_read', 'is_read', isRead);
            add('business_replied', 'business_replied', replied);
            add('channel__in', 'channel', channel);
            const [row] = await rt.database.query<{ n: number }>(
              `select count(*)::int as n from conversations where ${where.join(' and ')}`,
              params,
            );
            expect((await iso(query.toString())).json().result.count, query.toString()).toBe(row!.n);
          }
        }
      }
    }
  });

  it('filters by created and last-message time ranges', async () => {
    const all = isolated.all;
    await rt.database.query(`update conversations set created_at = '2025-01-01T00:00:00Z' where id = $1`, [
      all[0]!.id,
    ]);
    await rt.database.query(
      `update conversations set last_message_at = '2025-06-01T00:00:00Z' where id = $1`,
      [all[1]!.id],
    );
    expect(ids(await iso('created_at__lte=2025-01-02T00:00:00Z'))).toEqual([all[0]!.id]);
    expect((await iso('created_at__gte=2025-01-02T00:00:00Z')).json().result.count).toBe(12);
    expect(ids(await iso('last_message_at__lte=2025-06-02'))).toEqual([all[1]!.id]);
    expect((await iso('last_message_at__gte=2025-06-02')).json().result.count).toBe(12);
    expect(ids(await iso('last_message_at__gte=2025-05-01&last_message_at__lte=2025-07-01'))).toEqual([
      all[1]!.id,
    ]);
    // The list is ordered by last message: the one moved into 2025 is now last.
    expect((await iso('page=2')).json().result.results.at(-1).id).toBe(all[1]!.id);
  });

  it('answers date ranges exactly: counts from month and day buckets and edge days, pages by created month', async () => {
    const o = await signUp(app, rt.mailer);
    const b = await createBusiness(app, o, 'Days Co');
    const made: TConversation[] = [];
    for (let i = 0; i < 24; i++)
      made.push((await customerConversation(b, { texts: [`m${i}`] })).conversation);
    // Spread over two years at varied days and hours, a third of them crowded into March 2025,
    // through plain updates (the trigger keeps the buckets).
    const when = (i: number, crowded: boolean, year: number, day: number, hour: number, minute: number) =>
      crowded
        ? new Date(Date.UTC(2025, 2, 1 + (i % 10), hour, minute))
        : new Date(Date.UTC(year, (i * 5) % 12, day, hour, minute));
    for (const [i, c] of made.entries()) {
      await rt.database.query(
        `update conversations set created_at = $2, last_message_at = $3, status = $4, is_read = $5 where id = $1`,
        [
          c.id,
          when(i, i % 3 === 0, 2024 + (i % 2), 1 + ((i * 3) % 28), (i * 7) % 24, 30),
          i % 5 === 0 ? null : when(i + 2, i % 3 === 1, 2025, 1 + ((i * 11) % 28), (i * 5) % 24, 15),
          i % 3 === 0 ? 'resolved' : 'active',
          i % 2 === 0,
        ],
      );
    }
    await rt.database.query(`delete from conversations where id = $1`, [made[7]!.id]);
    // Open, in one day, in one month, across month and year ends, and at day and month edges.
    const bounds = [
      undefined,
      '2024-03-01T00:00:00Z',
      '2024-06-15T10:00:00Z',
      '2025-01-31T23:59:59.999Z',
      '2025-02-01T00:00:00Z',
      '2025-03-02T12:00:00Z',
      '2025-03-04T23:59:59Z',
      '2025-03-06T07:30:00Z',
      '2025-03-11T18:00:00Z',
      '2025-07-16T06:00:00Z',
      '2025-12-31T12:00:00Z',
    ];
    for (const column of ['created_at', 'last_message_at']) {
      for (const lo of bounds) {
        for (const hi of bounds) {
          for (const status of [undefined, 'resolved']) {
            const query = new URLSearchParams();
            const where = ['business_id = $1'];
            const params: unknown[] = [b.id];
            const add = (param: string, clause: string, value: string | undefined) => {
              if (value === undefined) return;
              query.set(param, value);
              params.push(value);
              where.push(clause.replace('?', `$${params.length}`));
            };
            add(`${column}__gte`, `${column} >= ?`, lo);
            add(`${column}__lte`, `${column} <= ?`, hi);
            add('status', 'status = ?', status);
            const [row] = await rt.database.query<{ n: number }>(
              `select count(*)::int as n from conversations where ${where.join(' and ')}`,
              params,
            );
            const res = await list(query.toString(), o, b);
            expect(res.json().result.count, query.toString()).toBe(row!.n);
            // And the rows: second page of 4, in last-message order.
            const page = await rt.database.query<{ id: number }>(
              `select id from conversations where ${where.join(' and ')}
               order by last_message_at desc nulls last, id desc limit 4 offset 4`,
              params,
            );
            query.set('page', '2');
            query.set('page_size', '4');
            expect(ids(await list(query.toString(), o, b)), query.toString()).toEqual(
              page.map((r) => Number(r.id)),
            );
          }
        }
      }
    }
  });

  it('answers 400 with field messages for bad filter and paging values', async () => {
    const bad = await iso(
      'status=open&is_read=maybe&created_at__gte=yesterday-ish&channel__in=fax&page=0&page_size=101',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toEqual({
      status: ['Select a valid choice: active, resolved, snoozed.'],
      is_read: ['Must be true or false.'],
      created_at__gte: ['Enter a valid date/time.'],
      channel__in: ['Select valid channels: whatsapp, titan_message, email, sms.'],
      page: ['Ensure this value is at least 1.'],
      page_size: ['Ensure this value is at most 100.'],
    });
  });
});

describe('conversation state', () => {
  it('marks resolved and active again, answering the conversation', async () => {
    const { conversation } = await customerConversation(business);
    const h = as(owner, business);
    const resolved = await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: h,
      payload: { status: 'resolved' },
    });
    expect(resolved.json().result).toMatchObject({ id: conversation.id, status: 'resolved' });
    const active = await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: h,
      payload: { status: 'active' },
    });
    expect(active.json().result.status).toBe('active');
    const empty = await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: h,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result).toEqual({
      non_field_errors: ['Send status, is_read, assignee_id, snoozed_until or label_ids.'],
    });
    const bogus = await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: h,
      payload: { status: 'archived' },
    });
    expect(bogus.statusCode).toBe(400);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/msg/conversations/99999999/',
          headers: h,
          payload: { status: 'active' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('reading a conversation marks it and its customer messages read; a new customer message makes it unread and reopens it', async () => {
    const { conversation, customer } = await customerConversation(business, { texts: ['one', 'two'] });
    const h = as(owner, business);
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: h,
      payload: { is_read: true, status: 'resolved' },
    });
    const msgs = (
      await app.inject({
        method: 'GET',
        url: `/api/msg/conversations/${conversation.id}/messages/`,
        headers: h,
      })
    ).json().result as TMessage[];
    expect(msgs.every((m) => m.is_read)).toBe(true);

    await receiveCustomerMessage(deps(), {
      businessId: business.id,
      conversationId: conversation.id,
      customerId: customer.id,
      message: { message_type: 'text', content: 'still there?' },
    });
    const after = (
      await app.inject({ method: 'GET', url: `/api/msg/conversations/${conversation.id}/`, headers: h })
    ).json().result;
    expect(after).toMatchObject({ is_read: false, business_replied: false, status: 'active' });
  });
});

describe('messages', () => {
  it('answers the newest messages oldest first and pages back with before', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `m${i}`);
    const { conversation } = await customerConversation(business, { texts });
    const h = as(owner, business);
    const url = `/api/msg/conversations/${conversation.id}/messages/`;
    const all = (await app.inject({ method: 'GET', url, headers: h })).json().result as TMessage[];
    expect(all.map((m) => m.content)).toEqual(texts);
    expect(all[0]).toMatchObject({
      sender_type: 'customer',
      message_type: 'text',
      conversation_id: conversation.id,
      sender: { name: 'Cora Customer', role: 'customer' },
    });
    const newest3 = (await app.inject({ method: 'GET', url: `${url}?limit=3`, headers: h })).json()
      .result as TMessage[];
    expect(newest3.map((m) => m.content)).toEqual(['m4', 'm5', 'm6']);
    const older = (
      await app.inject({ method: 'GET', url: `${url}?limit=3&before=${newest3[0]!.id}`, headers: h })
    ).json().result as TMessage[];
    expect(older.map((m) => m.content)).toEqual(['m1', 'm2', 'm3']);
    const bad = await app.inject({ method: 'GET', url: `${url}?limit=201&before=abc`, headers: h });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toEqual({ limit: ['Ensure this value is at most 200.'] });
    const badBefore = await app.inject({ method: 'GET', url: `${url}?before=abc`, headers: h });
    expect(badBefore.json().result).toEqual({ before: [INBOX_ERRORS.badBefore] });
  });

  it('sends a staff text: replied, read, last message time moves, sender named with role', async () => {
    const { conversation } = await customerConversation(business);
    const h = as(owner, business);
    const sent = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: h,
      payload: { message_type: 'text', content: '  Thanks for writing!  ' },
    });
    expect(sent.statusCode).toBe(201);
    const m = sent.json().result as TMessage;
    expect(m).toMatchObject({
      content: 'Thanks for writing!',
      sender_type: 'staff',
      sender_id: owner.user.pk,
      sender: { id: owner.user.pk, email: owner.email, role: 'owner', name: 'Ada Lovelace' },
    });
    const after = (
      await app.inject({ method: 'GET', url: `/api/msg/conversations/${conversation.id}/`, headers: h })
    ).json().result;
    expect(after).toMatchObject({ business_replied: true, is_read: true, last_message_at: m.created_at });

    const blank = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: h,
      payload: { message_type: 'text', content: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().result).toEqual({ content: ['This field may not be blank.'] });
  });

  it('takes a message without message_type as text, and names the choices for a wrong one', async () => {
    const { conversation } = await customerConversation(business);
    const post = (payload: Record<string, unknown>) =>
      app.inject({
        method: 'POST',
        url: `/api/msg/conversations/${conversation.id}/messages/`,
        headers: as(owner, business),
        payload,
      });
    const sent = await post({ content: 'No type given' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().result).toMatchObject({ message_type: 'text', content: 'No type given' });

    const wrong = await post({ message_type: 'video', content: 'x' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().result).toEqual({ message_type: ['Select a valid choice: text, file.'] });
    const notText = await post({ content: 42 });
    expect(notText.statusCode).toBe(400);
    expect(notText.json().result).toEqual({ content: ['Not a valid string.'] });
  });

  it('refuses own-channel replies on a WhatsApp conversation', async () => {
    const { conversation } = await customerConversation(business, { channel: 'whatsapp', texts: [] });
    const res = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content: 'hi' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(INBOX_ERRORS.whatsappReply);
  });

  it('lists WhatsApp messages from wa_messages with wamid ids and second timestamps', async () => {
    const { conversation, customer } = await customerConversation(business, {
      channel: 'whatsapp',
      texts: [],
    });
    for (let i = 0; i < 3; i++) {
      await repo.insertWaMessage(rt.database.db, {
        id: `wamid.TEST${conversation.id}x${i}`,
        businessId: business.id,
        conversationId: conversation.id,
        content: `wa ${i}`,
        senderType: 'customer',
        senderId: customer.id,
        timestamp: 1_700_000_000 + i,
        metaData: { type: 'text', text: { body: `wa ${i}` } },
      });
    }
    const url = `/api/msg/conversations/${conversation.id}/messages/`;
    const msgs = (await app.inject({ method: 'GET', url, headers: as(owner, business) })).json()
      .result as TMessage[];
    expect(msgs.map((m) => [m.id, m.timestamp])).toEqual([
      [`wamid.TEST${conversation.id}x0`, 1_700_000_000],
      [`wamid.TEST${conversation.id}x1`, 1_700_000_001],
      [`wamid.TEST${conversation.id}x2`, 1_700_000_002],
    ]);
    const older = (
      await app.inject({
        method: 'GET',
        url: `${url}?before=${msgs[2]!.id}&limit=1`,
        headers: as(owner, business),
      })
    ).json().result as TMessage[];
    expect(older.map((m) => m.id)).toEqual([msgs[1]!.id]);
  });
});

describe('tenant isolation and roles', () => {
  it("refuses another business's member with 404 on every conversation call and never lists its rows", async () => {
    const { conversation } = await customerConversation(business, { title: 'Secret' });
    const other = await signUp(app, rt.mailer);
    const otherBusiness = await createBusiness(app, other, 'Other Co');
    const h = as(other, otherBusiness);
    const base = `/api/msg/conversations/${conversation.id}/`;
    for (const [method, url, payload] of [
      ['GET', base, undefined],
      ['PUT', base, { status: 'resolved' }],
      ['GET', `${base}messages/`, undefined],
      ['POST', `${base}messages/`, { message_type: 'text', content: 'leak?' }],
    ] as const) {
      const res = await app.inject({ method, url, headers: h, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await list('', other, otherBusiness)).json().result).toMatchObject({ count: 0, results: [] });
    // Naming the first business in the header is refused outright.
    expect((await list('', other, business)).statusCode).toBe(403);
    const still = (await app.inject({ method: 'GET', url: base, headers: as(owner, business) })).json()
      .result;
    expect(still.status).toBe('active');
  });

  it('lets an agent work the inbox', async () => {
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await list('', agent, business)).statusCode).toBe(200);
  });
});
