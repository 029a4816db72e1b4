// Open sockets end with the access behind them: logout, password reset, removal from the
// business, a deleted or signed-out visitor — on this instance, on another, or while the change
// feed was not delivering.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TConversation, TMessage } from '@titan/contracts';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../../testing/test-runtime';
import {
  addMember,
  as,
  createBusiness,
  keyFromOutbox,
  signUp,
  type Session,
} from '../../../testing/identity';
import { authenticated, WsClient, type WsMessage } from '../../../testing/ws-client';
import { startConversation } from '../../../modules/conversations/conversations.service';
import { REALTIME_ERRORS } from '../../../realtime-callers';
import { insertCustomer } from '../../../modules/directory/directory.repository';

let store: TestStore;
let rt: TestRuntime;
let app: FastifyInstance;
let url: string;
const clients: WsClient[] = [];

async function listen(runtime: TestRuntime): Promise<string> {
  await runtime.app!.listen({ port: 0, host: '127.0.0.1' });
  const address = runtime.app!.server.address() as { port: number };
  return `ws://127.0.0.1:${address.port}/api/realtime/`;
}

beforeAll(async () => {
  store = await createTestStore();
  rt = await createTestRuntime({ store });
  app = rt.app!;
  url = await listen(rt);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.close();
  await store.destroy();
});

async function client(token: string, target = url): Promise<WsClient> {
  const c = await authenticated(target, token);
  clients.push(c);
  return c;
}

async function subscribed(c: WsClient, message: Record<string, unknown> & { id: string }): Promise<void> {
  c.send({ type: 'subscribe', ...message });
  await c.next((m) => m.type === 'subscribed' && m.id === message.id);
}

const watchInbox = (c: WsClient, business: TBusiness, id = 'inbox') =>
  subscribed(c, { id, topic: 'conversations', business_code: business.unique_code });

/** The close code, or a failure if the server keeps the socket open. */
async function closedWithin(c: WsClient, ms = 5_000): Promise<number> {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms).unref(),
  );
  return (await Promise.race([c.closed, timeout])).code;
}

async function newConversation(runtime: TestRuntime, business: TBusiness, name = 'Revocation Customer') {
  const customer = await insertCustomer(runtime.database.db, { businessId: business.id, name });
  return startConversation(runtime.database.db, {
    businessId: business.id,
    channel: 'titan_message',
    initiatorId: customer.id,
    title: name,
  });
}

const changeOf = (conversationId: number) => (m: WsMessage) =>
  m.type === 'change' && (m.new as TConversation).id === conversationId;
const changes = (c: WsClient) => c.received.filter((m) => m.type === 'change');

/** Proves the socket delivers before the revocation, so its silence after means something. */
async function expectDelivery(runtime: TestRuntime, c: WsClient, business: TBusiness): Promise<void> {
  const conversation = await newConversation(runtime, business, 'Before');
  await c.next(changeOf(conversation.id));
}

/** After the close: a new conversation reaches nobody on that socket. */
async function expectSilence(runtime: TestRuntime, c: WsClient, business: TBusiness): Promise<void> {
  const before = changes(c).length;
  const after = await newConversation(runtime, business, 'After');
  await new Promise((r) => setTimeout(r, 300));
  expect(changes(c).slice(before).filter(changeOf(after.id))).toEqual([]);
}

async function membershipId(runtime: TestRuntime, business: TBusiness, email: string): Promise<number> {
  const [row] = await runtime.database.query<{ id: string }>(
    `select m.id from memberships m join users u on u.id = m.user_id
      where m.business_id = $1 and u.email = $2`,
    [business.id, email],
  );
  return Number(row!.id);
}

const post = (target: FastifyInstance, path: string, payload: object) =>
  target.inject({ method: 'POST', url: path, payload, remoteAddress: '198.51.100.9' });

describe('staff sockets end with their access', () => {
  it('closes the socket of a session that logs out, and sends nothing more', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Logout Co');
    // Another session of the same user keeps its socket.
    const login = await post(app, '/api/auth/login/', {
      email: owner.email,
      password: 'correct horse battery staple',
    });
    const other = login.json().result as Session;
    const c = await client(owner.access);
    const stays = await client(other.access);
    await watchInbox(c, business);
    await watchInbox(stays, business);
    await expectDelivery(rt, c, business);

    expect((await post(app, '/api/auth/logout/', { refresh: owner.refresh })).statusCode).toBe(200);
    expect(await closedWithin(c)).toBe(4003);
    expect(c.received).toContainEqual({ type: 'error', message: REALTIME_ERRORS.sessionEnded });
    await expectSilence(rt, c, business);
    await expectDelivery(rt, stays, business);
  });

  it('closes every socket of a user whose password is reset', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Reset Co');
    const c = await client(owner.access);
    await watchInbox(c, business);
    await expectDelivery(rt, c, business);

    await post(app, '/api/auth/password/forgot/', { email: owner.email });
    const key = await keyFromOutbox(rt.mailer, owner.email, '/forgot-password/');
    const reset = await post(app, '/api/auth/password/reset/', {
      email: owner.email,
      key,
      password: 'a brand new passphrase',
    });
    expect(reset.statusCode).toBe(200);
    expect(await closedWithin(c)).toBe(4003);
    await expectSilence(rt, c, business);
  });

  it('closes the session whose rotated refresh token is presented again', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Reuse Co');
    const pair = (await post(app, '/api/auth/refresh/', { refresh: owner.refresh })).json().result as Session;
    const c = await client(pair.access);
    await watchInbox(c, business);
    expect((await post(app, '/api/auth/refresh/', { refresh: owner.refresh })).statusCode).toBe(401);
    expect(await closedWithin(c)).toBe(4003);
  });

  it('drops the subscriptions of a member removed from the business, and closes', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Removal Co');
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const c = await client(agent.access);
    await watchInbox(c, business, 'team');
    await expectDelivery(rt, c, business);

    const id = await membershipId(rt, business, agent.email);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/business/users/${id}/`,
      headers: as(owner, business),
    });
    expect(removed.statusCode).toBe(200);
    expect(await closedWithin(c)).toBe(4003);
    expect(c.received).toContainEqual({ type: 'error', id: 'team', message: REALTIME_ERRORS.denied });
    await expectSilence(rt, c, business);

    // Reconnecting helps nothing: the session is fine, the subscription is refused.
    const again = await client(agent.access);
    again.send({
      type: 'subscribe',
      id: 'team',
      topic: 'conversations',
      business_code: business.unique_code,
    });
    expect(await again.next((m) => m.type === 'error')).toMatchObject({
      id: 'team',
      message: REALTIME_ERRORS.denied,
    });
  });

  it("narrows an agent's open subscription to the chat groups they are still in", async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Groups Co');
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const group = (
      await app.inject({
        method: 'POST',
        url: '/api/msg/chat-groups/',
        headers: as(owner, business),
        payload: { name: 'Returns', slug: 'returns' },
      })
    ).json().result as { id: number };
    const inGroup = async (name: string) => {
      const customer = await insertCustomer(rt.database.db, { businessId: business.id, name });
      return startConversation(rt.database.db, {
        businessId: business.id,
        channel: 'titan_message',
        initiatorId: customer.id,
        chatGroupId: group.id,
        title: name,
      });
    };
    const members = `/api/msg/chat-groups/${group.id}/users/`;
    const added = await app.inject({
      method: 'POST',
      url: members,
      headers: as(owner, business),
      payload: { user_id: agent.user.pk },
    });
    expect(added.statusCode).toBe(201);
    const c = await client(agent.access);
    await watchInbox(c, business, 'groups');
    const seen = await inGroup('In the group');
    await c.next(changeOf(seen.id));

    const removed = await app.inject({
      method: 'DELETE',
      url: `${members}${agent.user.pk}/`,
      headers: as(owner, business),
    });
    expect(removed.statusCode).toBe(200);
    // The rest of the inbox still arrives; the group's conversations no longer do.
    await expectDelivery(rt, c, business);
    const before = changes(c).length;
    const hidden = await inGroup('After removal');
    const unassigned = await newConversation(rt, business, 'Unassigned');
    await c.next(changeOf(unassigned.id));
    expect(changes(c).slice(before).filter(changeOf(hidden.id))).toEqual([]);
  });

  it('keeps a member whose subscriptions elsewhere remain, dropping only the lost business', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Lost Co');
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const own = await createBusiness(app, agent, 'Own Co');
    const c = await client(agent.access);
    await watchInbox(c, business, 'lost');
    await watchInbox(c, own, 'own');

    const id = await membershipId(rt, business, agent.email);
    await app.inject({ method: 'DELETE', url: `/api/business/users/${id}/`, headers: as(owner, business) });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({
      id: 'lost',
      message: REALTIME_ERRORS.denied,
    });
    await expectSilence(rt, c, business);
    const mine = await newConversation(rt, own, 'Still mine');
    expect(await c.next(changeOf(mine.id))).toMatchObject({ sub: 'own' });
  });
});

describe('visitor sockets end with their token', () => {
  async function visitorChat(business: TBusiness) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: business.unique_code, name: 'Vera Visitor' },
      remoteAddress: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });
    expect(created.statusCode).toBe(201);
    const { token, customer } = created.json().result as { token: string; customer: { id: number } };
    const started = await app.inject({
      method: 'POST',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
      payload: {},
    });
    expect(started.statusCode).toBe(201);
    const conversation = started.json().result as TConversation;
    const c = await client(token);
    await subscribed(c, { id: 'chat', topic: 'messages', conversation_id: conversation.id });
    return { token, customerId: customer.id, conversation, c };
  }

  const reply = (owner: Session, business: TBusiness, conversationId: number, content: string) =>
    app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversationId}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content },
    });
  const publicList = (token: string) =>
    app
      .inject({
        method: 'GET',
        url: '/api/public/conversations/',
        headers: { authorization: `Visitor ${token}` },
      })
      .then((r) => r.statusCode);
  const isReply = (content: string) => (m: WsMessage) =>
    m.type === 'change' && (m.new as TMessage).content === content;

  let owner: Session;
  let business: TBusiness;
  beforeAll(async () => {
    owner = await signUp(app, rt.mailer);
    business = await createBusiness(app, owner, 'Visitor Co');
  });

  it('closes the socket of a visitor deleted from the directory; the token stops working', async () => {
    const { token, customerId, conversation, c } = await visitorChat(business);
    await reply(owner, business, conversation.id, 'Hello Vera');
    await c.next(isReply('Hello Vera'));
    expect(await publicList(token)).toBe(200);

    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/business/customer-directory/${customerId}/`,
      headers: as(owner, business),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await closedWithin(c)).toBe(4003);
    expect(c.received).toContainEqual({ type: 'error', message: REALTIME_ERRORS.visitorSessionEnded });
    await reply(owner, business, conversation.id, 'Are you there?');
    await new Promise((r) => setTimeout(r, 300));
    expect(c.received.filter(isReply('Are you there?'))).toEqual([]);
    expect(await publicList(token)).toBe(401);
    const retry = await WsClient.open(url);
    clients.push(retry);
    retry.send({ type: 'auth', token });
    expect(await closedWithin(retry)).toBe(4003);
  });

  it("ends a visitor's sessions on staff request: sockets close, the token is refused, the record stays", async () => {
    const { token, customerId, conversation, c } = await visitorChat(business);
    const bystander = await visitorChat(business);
    expect(await publicList(token)).toBe(200);

    const ended = await app.inject({
      method: 'POST',
      url: `/api/business/customer-directory/${customerId}/end-session/`,
      headers: as(owner, business),
    });
    expect(ended.statusCode).toBe(200);
    expect(await closedWithin(c)).toBe(4003);
    expect(await publicList(token)).toBe(401);
    const record = await app.inject({
      method: 'GET',
      url: `/api/business/customer-directory/${customerId}/`,
      headers: as(owner, business),
    });
    expect(record.statusCode).toBe(200);

    // Other visitors carry on.
    expect(await publicList(bystander.token)).toBe(200);
    await reply(owner, business, bystander.conversation.id, 'Still here');
    await bystander.c.next(isReply('Still here'));
    expect(
      c.received.filter(
        (m) => m.type === 'change' && (m.new as TMessage).conversation_id === conversation.id,
      ),
    ).toEqual([]);
  });

  it('lets only staff who may write the directory end a session', async () => {
    const { customerId, c } = await visitorChat(business);
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const refused = await app.inject({
      method: 'POST',
      url: `/api/business/customer-directory/${customerId}/end-session/`,
      headers: as(agent, business),
    });
    expect(refused.statusCode).toBe(403);
    const stranger = await signUp(app, rt.mailer);
    const elsewhere = await createBusiness(app, stranger, 'Elsewhere');
    const notFound = await app.inject({
      method: 'POST',
      url: `/api/business/customer-directory/${customerId}/end-session/`,
      headers: as(stranger, elsewhere),
    });
    expect(notFound.statusCode).toBe(404);
    expect((await c.quietFor(200)).filter((m) => m.type === 'error')).toEqual([]);
  });
});

// With the change feed silenced, only this instance's own writes are heard (as in auth-cache.test).
describe('with the change feed silenced', () => {
  let quiet: TestRuntime;
  let quietUrl: string;
  beforeAll(async () => {
    quiet = await createTestRuntime();
    quietUrl = await listen(quiet);
    await quiet.feed.stop();
  });
  afterAll(() => quiet.destroy());

  it("refuses a subscribe once the session was revoked behind the hub's back, and closes", async () => {
    const owner = await signUp(quiet.app!, quiet.mailer);
    const business = await createBusiness(quiet.app!, owner, 'Quiet Co');
    const c = await client(owner.access, quietUrl);
    await watchInbox(c, business, 'first');
    await quiet.database.query(
      `update sessions set revoked_at = now() where user_id = (select id from users where email = $1)`,
      [owner.email],
    );
    c.send({ type: 'subscribe', id: 'second', topic: 'conversations', business_code: business.unique_code });
    expect(await c.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      id: 'second',
      message: REALTIME_ERRORS.sessionEnded,
    });
    expect(await closedWithin(c)).toBe(4003);
    expect(c.received.filter((m) => m.type === 'subscribed')).toEqual([]);
  });

  it('refuses a subscribe to a business the member was removed from behind its back', async () => {
    const owner = await signUp(quiet.app!, quiet.mailer);
    const business = await createBusiness(quiet.app!, owner, 'Quiet Removal');
    const agent = await addMember(quiet.app!, quiet.mailer, owner, business, 'agent');
    const c = await client(agent.access, quietUrl);
    await watchInbox(c, business, 'first');
    await quiet.database.query(`delete from memberships where id = $1`, [
      await membershipId(quiet, business, agent.email),
    ]);
    c.send({ type: 'subscribe', id: 'second', topic: 'conversations', business_code: business.unique_code });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({
      id: 'second',
      message: REALTIME_ERRORS.denied,
    });
  });

  it("hears this instance's own logout without the feed", async () => {
    const owner = await signUp(quiet.app!, quiet.mailer);
    const c = await client(owner.access, quietUrl);
    expect((await post(quiet.app!, '/api/auth/logout/', { refresh: owner.refresh })).statusCode).toBe(200);
    expect(await closedWithin(c)).toBe(4003);
  });
});

describe.runIf(testDbKind === 'postgres')('across instances', () => {
  it('closes a socket on one instance when its session logs out through another', async () => {
    const second = await createTestRuntime({ store });
    try {
      const secondUrl = await listen(second);
      const owner = await signUp(app, rt.mailer);
      const business = await createBusiness(app, owner, 'Cross Co');
      const c = await client(owner.access, secondUrl);
      await watchInbox(c, business);
      await expectDelivery(rt, c, business);
      expect((await post(app, '/api/auth/logout/', { refresh: owner.refresh })).statusCode).toBe(200);
      expect(await closedWithin(c)).toBe(4003);
      await expectSilence(rt, c, business);
    } finally {
      await second.close();
    }
  });

  it('looks every socket up again when the feed may have missed a revocation', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Dropped Feed Co');
    const c = await client(owner.access);
    await watchInbox(c, business);
    // Drop the feed's LISTEN connection and revoke while it is down: that NOTIFY is lost.
    await rt.database.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`,
    );
    await rt.database.query(
      `update sessions set revoked_at = now() where user_id = (select id from users where email = $1)`,
      [owner.email],
    );
    expect(await closedWithin(c, 10_000)).toBe(4003);
  });
});
