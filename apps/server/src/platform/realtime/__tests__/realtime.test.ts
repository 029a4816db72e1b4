import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_RANGE_MESSAGE, NUL_CHARACTER_MESSAGE } from '@titan/contracts';
import type { TBusiness, TChatGroup, TConversation, TMessage } from '@titan/contracts';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { authenticated, WsClient, type WsMessage } from '../../../testing/ws-client';
import { createStorage } from '../../storage';
import { pruneChangeLog } from '../change-log.repository';
import {
  receiveCustomerMessage,
  startConversation,
} from '../../../modules/conversations/conversations.service';
import { insertCustomer } from '../../../modules/directory/directory.repository';

let store: TestStore;
let rt: TestRuntime;
let url: string;
let owner: Session;
let business: TBusiness;
const clients: WsClient[] = [];

async function listen(runtime: TestRuntime): Promise<string> {
  await runtime.app!.listen({ port: 0, host: '127.0.0.1' });
  const address = runtime.app!.server.address() as { port: number };
  return `ws://127.0.0.1:${address.port}/api/realtime/`;
}

beforeAll(async () => {
  store = await createTestStore();
  rt = await createTestRuntime({ store });
  url = await listen(rt);
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Live Co');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.close();
  await store.destroy();
});

async function client(session: Session = owner, target = url): Promise<WsClient> {
  const c = await authenticated(target, session.access);
  clients.push(c);
  return c;
}

const deps = () => ({ db: rt.database.db, storage: createStorage(rt.config) });

async function newConversation(b: TBusiness = business, name = 'Live Customer') {
  const customer = await insertCustomer(rt.database.db, {
    businessId: b.id,
    name,
    email: 'live@example.test',
  });
  const conversation = await startConversation(rt.database.db, {
    businessId: b.id,
    channel: 'titan_message',
    initiatorId: customer.id,
    title: 'Live',
  });
  return { customer, conversation };
}

const change =
  (sub: string, pred: (m: WsMessage) => boolean = () => true) =>
  (m: WsMessage) =>
    m.type === 'change' && m.sub === sub && pred(m);

describe('realtime conversations', () => {
  it('refuses to subscribe before auth, and closes on a bad token', async () => {
    const anon = await WsClient.open(url);
    clients.push(anon);
    anon.send({ type: 'subscribe', id: 's1', topic: 'conversations', business_code: business.unique_code });
    expect(await anon.next((m) => m.type === 'error')).toMatchObject({
      id: 's1',
      message: 'Authenticate first.',
    });
    anon.send({ type: 'auth', token: 'not-a-jwt' });
    expect((await anon.closed).code).toBe(4003);
  });

  it('refuses a NUL in a business code and a year PostgreSQL cannot compare, naming the field', async () => {
    const c = await client();
    c.send({ type: 'subscribe', id: 'nul', topic: 'conversations', business_code: 'a\u0000b' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({
      message: 'Invalid message.',
      errors: { business_code: [NUL_CHARACTER_MESSAGE] },
    });
    c.send({
      type: 'subscribe',
      id: 'year',
      topic: 'conversations',
      business_code: business.unique_code,
      filter: { created_at__gte: '99999-01-01' },
    });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({
      id: 'year',
      errors: { 'filter.created_at__gte': [DATE_RANGE_MESSAGE] },
    });
  });

  it('pushes new conversations and customer messages enriched like the REST list, with old last_message_at', async () => {
    const c = await client();
    c.send({ type: 'subscribe', id: 'all', topic: 'conversations', business_code: business.unique_code });
    const subscribed = await c.next((m) => m.type === 'subscribed');
    expect(subscribed).toMatchObject({ id: 'all', seq: expect.any(Number) });

    const { conversation, customer } = await newConversation();
    const inserted = await c.next(change('all', (m) => m.event === 'INSERT'));
    expect(inserted).toMatchObject({
      table: 'conversations',
      new: {
        id: conversation.id,
        initiator: { id: customer.id, name: 'Live Customer', email: 'live@example.test' },
      },
      old: null,
    });
    expect(inserted.seq as number).toBeGreaterThan(subscribed.seq as number);

    await receiveCustomerMessage(deps(), {
      businessId: business.id,
      conversationId: conversation.id,
      customerId: customer.id,
      message: { message_type: 'text', content: 'ping' },
    });
    const updated = await c.next(change('all', (m) => m.event === 'UPDATE'));
    const row = updated.new as TConversation;
    expect(row.last_message_at).not.toBeNull();
    expect(updated.old).toEqual({ last_message_at: null });
    expect(updated.seq as number).toBeGreaterThan(inserted.seq as number);
  });

  it('enriches each change with the full chat group record, as the group itself answers it', async () => {
    const created = await rt.app!.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(owner, business),
      payload: {
        name: 'Live Group',
        slug: 'live-group',
        greeting: 'Hello!',
        visitor_form: [{ name: 'order', label: 'Order', type: 'text' }],
        allowed_origins: ['https://shop.example.com'],
      },
    });
    // The group as its route answers it, less its settings (auto-assignment, the widget's language
    // and text overrides, business hours and the away message, SLA, CSAT, the AI first responder:
    // not part of the record).
    const {
      assignment: _assignment,
      locale: _locale,
      strings: _strings,
      business_hours: _hours,
      away_message: _away,
      sla: _sla,
      csat: _csat,
      ai_responder: _ai,
      ...group
    } = created.json().result as TChatGroup &
      Record<
        | 'assignment'
        | 'locale'
        | 'strings'
        | 'business_hours'
        | 'away_message'
        | 'sla'
        | 'csat'
        | 'ai_responder',
        unknown
      >;
    const c = await client();
    c.send({ type: 'subscribe', id: 'grp', topic: 'conversations', business_code: business.unique_code });
    await c.next((m) => m.type === 'subscribed');
    const { conversation } = await newConversation();
    await c.next(change('grp', (m) => m.event === 'INSERT'));
    await rt.database.query('update conversations set assigned_chat_group_id = $1 where id = $2', [
      group.id,
      conversation.id,
    ]);
    const updated = await c.next(change('grp', (m) => m.event === 'UPDATE'));
    expect((updated.new as TConversation).assigned_chat_group).toEqual(group);
    expect(group).toMatchObject({ greeting: 'Hello!', allowed_origins: ['https://shop.example.com'] });
  });

  it('applies the subscription filter on the server and tells when a row leaves it', async () => {
    const c = await client();
    c.send({
      type: 'subscribe',
      id: 'resolved',
      topic: 'conversations',
      business_code: business.unique_code,
      filter: { status: 'resolved' },
    });
    await c.next((m) => m.type === 'subscribed');
    const { conversation } = await newConversation();
    // An active insert does not match: nothing arrives for it.
    expect((await c.quietFor(400)).filter((m) => m.type === 'change')).toEqual([]);

    await rt.app!.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: as(owner, business),
      payload: { status: 'resolved' },
    });
    const resolved = await c.next(change('resolved'));
    expect(resolved).toMatchObject({
      event: 'UPDATE',
      matches: true,
      new: { id: conversation.id, status: 'resolved' },
    });

    await rt.app!.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: as(owner, business),
      payload: { status: 'active' },
    });
    expect(await c.next(change('resolved'))).toMatchObject({ matches: false, new: { status: 'active' } });
  });

  it("never lets a member of another business subscribe to this one's conversations or messages", async () => {
    const other = await signUp(rt.app!, rt.mailer);
    const otherBusiness = await createBusiness(rt.app!, other, 'Spy Co');
    const { conversation } = await newConversation();
    const spy = await client(other);
    spy.send({ type: 'subscribe', id: 'x', topic: 'conversations', business_code: business.unique_code });
    expect(await spy.next((m) => m.type === 'error')).toMatchObject({ id: 'x' });
    spy.send({ type: 'subscribe', id: 'y', topic: 'messages', conversation_id: conversation.id });
    expect(await spy.next((m) => m.type === 'error')).toMatchObject({ id: 'y' });
    spy.send({
      type: 'subscribe',
      id: 'mine',
      topic: 'conversations',
      business_code: otherBusiness.unique_code,
    });
    await spy.next((m) => m.type === 'subscribed');
    await newConversation();
    expect((await spy.quietFor(400)).filter((m) => m.type === 'change')).toEqual([]);
  });
});

describe('realtime messages', () => {
  it('pushes inserts and updates of the open conversation only', async () => {
    const { conversation, customer } = await newConversation();
    const { conversation: elsewhere, customer: otherCustomer } = await newConversation();
    const c = await client();
    c.send({ type: 'subscribe', id: 'm', topic: 'messages', conversation_id: conversation.id });
    await c.next((m) => m.type === 'subscribed');

    await receiveCustomerMessage(deps(), {
      businessId: business.id,
      conversationId: elsewhere.id,
      customerId: otherCustomer.id,
      message: { message_type: 'text', content: 'not for you' },
    });
    const staff = await rt.app!.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content: 'Hello from staff' },
    });
    const sent = staff.json().result as TMessage;
    const inserted = await c.next(change('m'));
    expect(inserted).toMatchObject({ table: 'messages', event: 'INSERT', new: sent });

    await receiveCustomerMessage(deps(), {
      businessId: business.id,
      conversationId: conversation.id,
      customerId: customer.id,
      message: { message_type: 'text', content: 'unread' },
    });
    await c.next(change('m', (m) => (m.new as TMessage).content === 'unread'));
    await rt.app!.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: as(owner, business),
      payload: { is_read: true },
    });
    const read = await c.next(change('m', (m) => m.event === 'UPDATE'));
    expect(read.new).toMatchObject({ content: 'unread', is_read: true });
    expect(
      c.received.filter((m) => m.type === 'change' && (m.new as TMessage).content === 'not for you'),
    ).toEqual([]);
  });
});

describe('concurrent writes', () => {
  it('delivers every message when many commit at once, even out of seq order', async () => {
    const { conversation } = await newConversation();
    const c = await client();
    c.send({ type: 'subscribe', id: 'burst', topic: 'messages', conversation_id: conversation.id });
    await c.next((m) => m.type === 'subscribed');
    const texts = Array.from({ length: 40 }, (_, i) => `burst ${i}`);
    await Promise.all(
      texts.map((content) =>
        rt.app!.inject({
          method: 'POST',
          url: `/api/msg/conversations/${conversation.id}/messages/`,
          headers: as(owner, business),
          payload: { message_type: 'text', content },
        }),
      ),
    );
    const got = new Set<string>();
    while (got.size < texts.length) {
      const m = await c.next(change('burst'));
      got.add((m.new as TMessage).content);
    }
    expect([...got].sort()).toEqual([...texts].sort());
  });
});

describe('resume after reconnect', () => {
  it('replays the changes missed since after_seq, in order', async () => {
    const first = await client();
    first.send({ type: 'subscribe', id: 'r', topic: 'conversations', business_code: business.unique_code });
    const { seq } = await first.next((m) => m.type === 'subscribed');
    first.close();

    const a = await newConversation(business, 'Missed A');
    const b = await newConversation(business, 'Missed B');

    const again = await client();
    again.send({
      type: 'subscribe',
      id: 'r',
      topic: 'conversations',
      business_code: business.unique_code,
      after_seq: seq,
    });
    const ofMissed = (m: WsMessage) =>
      [a.conversation.id, b.conversation.id].includes((m.new as TConversation).id) && m.event === 'INSERT';
    const replayed = [await again.next(change('r', ofMissed)), await again.next(change('r', ofMissed))];
    expect(replayed.map((m) => (m.new as TConversation).id)).toEqual([a.conversation.id, b.conversation.id]);
    expect(replayed[0]!.seq as number).toBeLessThan(replayed[1]!.seq as number);
    // Live changes continue after the replay.
    const c = await newConversation(business, 'Live C');
    const live = await again.next(change('r', (m) => (m.new as TConversation).id === c.conversation.id));
    expect(live.event).toBe('INSERT');
  });

  it('asks for a refetch when the missed changes are no longer kept', async () => {
    await newConversation();
    await pruneChangeLog(rt.database.db, new Date(Date.now() + 1000));
    await newConversation();
    const c = await client();
    c.send({
      type: 'subscribe',
      id: 'old',
      topic: 'conversations',
      business_code: business.unique_code,
      after_seq: 1,
    });
    await c.next((m) => m.type === 'subscribed');
    expect(await c.next((m) => m.type === 'resync')).toEqual({ type: 'resync', id: 'old' });
  });

  it('validates subscription messages', async () => {
    const c = await client();
    c.send({
      type: 'subscribe',
      id: 'bad',
      topic: 'conversations',
      business_code: business.unique_code,
      filter: { status: 'open' },
    });
    const err = await c.next((m) => m.type === 'error');
    expect(err).toMatchObject({
      id: 'bad',
      errors: { 'filter.status': ['Select a valid choice: active, resolved, snoozed.'] },
    });
  });
});

describe.runIf(testDbKind === 'postgres')('across instances', () => {
  it('delivers a change written through one instance to a socket on another', async () => {
    const second = await createTestRuntime({ store });
    try {
      const secondUrl = await listen(second);
      const c = await client(owner, secondUrl);
      c.send({ type: 'subscribe', id: 'x', topic: 'conversations', business_code: business.unique_code });
      await c.next((m) => m.type === 'subscribed');
      const { conversation } = await newConversation(business, 'Cross Instance');
      const got = await c.next(change('x'));
      expect((got.new as TConversation).id).toBe(conversation.id);
      c.close();
    } finally {
      await second.close();
    }
  });
});
