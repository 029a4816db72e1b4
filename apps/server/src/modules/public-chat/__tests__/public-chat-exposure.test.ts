// What the public chat must not expose: staff identities on messages, other channels'
// conversations of a merged customer, and chats to pages whose origin is opaque ("null").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TConversation, TPublicMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { authenticated } from '../../../testing/ws-client';
import { identityHash, PUBLIC_CHAT_ERRORS } from '../public-chat.service';
import { VisitorTokens } from '../visitor-tokens';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'http://titan.test' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer, { firstName: 'Grace' });
  business = await createBusiness(app, owner, 'Exposure Co');
});
afterAll(() => rt.destroy());

const visitorHeaders = (token: string) => ({ authorization: `Visitor ${token}` });

async function visitor(payload: object = {}, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    headers,
    payload: { business_code: business.unique_code, ...payload },
    remoteAddress: `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
}

async function session(payload: object = {}) {
  const res = await visitor(payload);
  expect(res.statusCode).toBe(201);
  return res.json().result as { customer: { id: number }; token: string };
}

async function startChat(token: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: visitorHeaders(token),
    payload: {},
  });
  expect(res.statusCode).toBe(201);
  return res.json().result as TConversation;
}

async function staffReply(conversationId: number, content: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/msg/conversations/${conversationId}/messages/`,
    headers: as(owner, business),
    payload: { message_type: 'text', content },
  });
  expect(res.statusCode).toBe(201);
}

/** A WhatsApp contact with one WhatsApp conversation and message, as inbound delivery makes them. */
async function whatsappContact(waId: string) {
  const [customer] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, external_id, name, phone) values ($1, $2, 'Wanda', $3) returning id`,
    [business.id, `wa:${waId}`, `+${waId}`],
  );
  const [conversation] = await rt.database.query<{ id: string }>(
    `insert into conversations (business_id, channel, initiator_id, title, last_message_at)
     values ($1, 'whatsapp', $2, 'WhatsApp', now()) returning id`,
    [business.id, customer!.id],
  );
  await rt.database.query(
    `insert into wa_messages (id, business_id, conversation_id, content, sender_type, sender_id, timestamp, meta_data)
     values ($1, $2, $3, 'my private WhatsApp message', 'customer', $4, extract(epoch from now())::bigint, '{}')`,
    [`wamid.${waId}`, business.id, conversation!.id, customer!.id],
  );
  return { customerId: Number(customer!.id), conversationId: Number(conversation!.id) };
}

describe('message senders seen by visitors', () => {
  it('carry a display name and avatar only, never a staff email, role or id', async () => {
    const { token } = await session({ name: 'Vic' });
    const conversation = await startChat(token);
    await staffReply(conversation.id, 'Hello from Grace');
    const res = await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: visitorHeaders(token),
    });
    expect(res.statusCode).toBe(200);
    const [reply] = res.json().result as TPublicMessage[];
    expect(reply).toMatchObject({ sender_type: 'staff', content: 'Hello from Grace' });
    expect(reply!.sender).toEqual({ name: 'Grace Lovelace', avatar_url: null });
    expect(reply).not.toHaveProperty('sender_id');
    expect(res.body).not.toContain(owner.email);
    expect(res.body).not.toContain('"role"');
    // Staff still see who wrote it.
    const staff = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
    });
    expect(staff.json().result[0].sender).toMatchObject({ email: owner.email, role: 'owner' });
  });

  it('leave out the email a nameless staff member is labelled with', async () => {
    const { token } = await session();
    const conversation = await startChat(token);
    await rt.database.query(`update users set first_name = '', last_name = '' where email = $1`, [
      owner.email,
    ]);
    try {
      await staffReply(conversation.id, 'Anonymous reply');
      const res = await app.inject({
        method: 'GET',
        url: `/api/public/conversations/${conversation.id}/messages/`,
        headers: visitorHeaders(token),
      });
      expect(res.json().result[0].sender).toEqual({ name: null, avatar_url: null });
      expect(res.body).not.toContain(owner.email);
    } finally {
      await rt.database.query(
        `update users set first_name = 'Grace', last_name = 'Lovelace' where email = $1`,
        [owner.email],
      );
    }
  });

  it('carry the public shape over the realtime feed too', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
    const { token } = await session();
    const conversation = await startChat(token);
    const ws = await authenticated(url, token);
    try {
      ws.send({ type: 'subscribe', id: 'own', topic: 'messages', conversation_id: conversation.id });
      await ws.next((m) => m.type === 'subscribed');
      await staffReply(conversation.id, 'Live from Grace');
      const change = await ws.next((m) => m.type === 'change' && m.sub === 'own');
      expect(change.new).toMatchObject({ content: 'Live from Grace', sender_type: 'staff' });
      expect((change.new as TPublicMessage).sender).toEqual({ name: 'Grace Lovelace', avatar_url: null });
      expect(change.new).not.toHaveProperty('sender_id');
      expect(JSON.stringify(change)).not.toContain(owner.email);
    } finally {
      ws.close();
    }
  });
});

describe('widget identities and WhatsApp contacts', () => {
  let secret: string;
  beforeAll(async () => {
    const settings = await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { identity_verification: true },
    });
    secret = settings.json().result.identity_secret as string;
  });

  it('never merge: a verified user_id "wa:<phone>" is a customer of its own', async () => {
    const contact = await whatsappContact('15550001111');
    const userId = 'wa:15550001111';
    const verified = await session({ user_id: userId, user_hash: identityHash(secret, userId) });
    expect(verified.customer.id).not.toBe(contact.customerId);
    const list = await app.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: visitorHeaders(verified.token),
    });
    expect(list.json().result).toEqual([]);
    const read = await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${contact.conversationId}/messages/`,
      headers: visitorHeaders(verified.token),
    });
    expect(read.statusCode).toBe(404);
    // The WhatsApp contact itself is untouched.
    const [row] = await rt.database.query<{ external_id: string; name: string }>(
      'select external_id, name from customers where id = $1',
      [contact.customerId],
    );
    expect(row).toEqual({ external_id: 'wa:15550001111', name: 'Wanda' });
    const [mine] = await rt.database.query<{ external_id: string }>(
      'select external_id from customers where id = $1',
      [verified.customer.id],
    );
    expect(mine!.external_id).toBe('widget:wa:15550001111');
  });

  it("show a visitor only the public chat's conversations, even for a customer with WhatsApp ones", async () => {
    // A token naming a WhatsApp contact (as one merged before the fix still would).
    const contact = await whatsappContact('15550002222');
    const token = await new VisitorTokens(rt.config.APP_SECRET).sign(contact.customerId, business.id, 0);
    const own = await startChat(token);
    const list = await app.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: visitorHeaders(token),
    });
    expect(list.json().result.map((c: TConversation) => c.id)).toEqual([own.id]);
    for (const method of ['GET', 'POST'] as const) {
      const res = await app.inject({
        method,
        url: `/api/public/conversations/${contact.conversationId}/messages/`,
        headers: visitorHeaders(token),
        ...(method === 'POST' ? { payload: { message_type: 'text', content: 'hi' } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.body).not.toContain('my private WhatsApp message');
    }
    await app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
    const ws = await authenticated(url, token);
    try {
      ws.send({ type: 'subscribe', id: 'wa', topic: 'messages', conversation_id: contact.conversationId });
      expect(await ws.next((m) => m.id === 'wa')).toMatchObject({ type: 'error', id: 'wa' });
    } finally {
      ws.close();
    }
  });

  it('still bring a verified visitor back to their earlier chats', async () => {
    const userId = 'site-user-7';
    const first = await session({ user_id: userId, user_hash: identityHash(secret, userId) });
    const conversation = await startChat(first.token);
    const again = await session({ user_id: userId, user_hash: identityHash(secret, userId) });
    expect(again.customer.id).toBe(first.customer.id);
    const list = await app.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: visitorHeaders(again.token),
    });
    expect(list.json().result.map((c: TConversation) => c.id)).toEqual([conversation.id]);
  });
});

describe('Origin: null', () => {
  it('is a foreign origin where the business lists allowed origins, not a missing one', async () => {
    const { token } = await session();
    const conversation = await startChat(token);
    await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { allowed_origins: ['https://shop.example'] },
    });
    try {
      const created = await visitor({}, { origin: 'null' });
      expect(created.statusCode).toBe(403);
      expect(created.json().message).toBe(PUBLIC_CHAT_ERRORS.originRefused);
      const info = await app.inject({
        method: 'GET',
        url: `/api/public/business/${business.unique_code}/`,
        headers: { origin: 'null' },
      });
      expect(info.statusCode).toBe(403);
      const read = await app.inject({
        method: 'GET',
        url: `/api/public/conversations/${conversation.id}/messages/`,
        headers: { ...visitorHeaders(token), origin: 'null' },
      });
      expect(read.statusCode).toBe(403);
      // Without an Origin header (same-origin GETs, server-side callers) and from a listed site: allowed.
      expect((await visitor()).statusCode).toBe(201);
      expect((await visitor({}, { origin: 'https://shop.example' })).statusCode).toBe(201);
    } finally {
      await app.inject({
        method: 'PUT',
        url: '/api/msg/widget-settings/',
        headers: as(owner, business),
        payload: { allowed_origins: [] },
      });
    }
    // With no list, any page may embed the chat, an opaque one included.
    expect((await visitor({}, { origin: 'null' })).statusCode).toBe(201);
  });
});
