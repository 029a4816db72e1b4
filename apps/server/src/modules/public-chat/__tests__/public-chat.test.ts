import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { TBusiness, TChatGroup, TConversation, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { authenticated } from '../../../testing/ws-client';
import { checkVisitorForm, identityHash, PUBLIC_CHAT_ERRORS } from '../public-chat.service';
import { CHAT_GROUP_ERRORS } from '../../chat-groups/chat-groups.service';
import { optOut } from '../../consent/consent.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let support: TChatGroup;
let sales: TChatGroup;

const PUBLIC_URL = 'http://titan.test';

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Widget Co');
  const make = async (payload: object) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/msg/chat-groups/',
        headers: as(owner, business),
        payload,
      })
    ).json().result as TChatGroup;
  support = await make({
    name: 'Support',
    slug: 'support',
    greeting: 'Hi! How can we help?',
    visitor_form: [
      { name: 'email', label: 'Email', type: 'email', required: true },
      { name: 'order', label: 'Order number', type: 'text', required: false },
    ],
  });
  sales = await make({ name: 'Sales', slug: 'sales' });
});
afterAll(() => rt.destroy());

const visitorHeaders = (token: string, origin?: string) => ({
  authorization: `Visitor ${token}`,
  ...(origin ? { origin } : {}),
});

async function visitor(payload: object = {}, origin?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    headers: origin ? { origin } : {},
    payload: { business_code: business.unique_code, ...payload },
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  return res;
}

async function visitorToken(payload: object = {}) {
  const res = await visitor(payload);
  expect(res.statusCode).toBe(201);
  return res.json().result as { customer: { id: number }; token: string };
}

async function startChat(token: string, payload: object = {}, extra: Partial<InjectOptions> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: visitorHeaders(token),
    payload,
    ...extra,
  });
}

describe('chat groups', () => {
  it('creates groups with a slug unique per business, and validates', async () => {
    expect(support).toMatchObject({
      name: 'Support',
      slug: 'support',
      color: '#111827',
      launcher_position: 'right',
    });
    const dup = await app.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(owner, business),
      payload: { name: 'Again', slug: 'support' },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result).toEqual({ slug: [CHAT_GROUP_ERRORS.slugTaken] });
    const bad = await app.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(owner, business),
      payload: { name: '', slug: 'Bad Slug!', color: 'red', allowed_origins: ['https://ok.example/path'] },
    });
    expect(Object.keys(bad.json().result).sort()).toEqual(['allowed_origins.0', 'color', 'name', 'slug']);

    const other = await signUp(app, rt.mailer);
    const otherBusiness = await createBusiness(app, other, 'Other');
    const same = await app.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(other, otherBusiness),
      payload: { name: 'Support', slug: 'support' },
    });
    expect(same.statusCode).toBe(201);
    // Tenants: the other business cannot read, change or delete this one's group.
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await app.inject({
        method,
        url: `/api/msg/chat-groups/${support.id}/`,
        headers: as(other, otherBusiness),
        ...(method === 'PUT' ? { payload: { name: 'pwned' } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
  });

  it('updates, lists and deletes groups, and manages their staff', async () => {
    const temp = (
      await app.inject({
        method: 'POST',
        url: '/api/msg/chat-groups/',
        headers: as(owner, business),
        payload: { name: 'Temp', slug: 'temp' },
      })
    ).json().result as TChatGroup;
    const upd = await app.inject({
      method: 'PUT',
      url: `/api/msg/chat-groups/${temp.id}/`,
      headers: as(owner, business),
      payload: { greeting: 'Hello', color: '#1f6feb' },
    });
    expect(upd.json().result).toMatchObject({ greeting: 'Hello', color: '#1f6feb', slug: 'temp' });
    const added = await app.inject({
      method: 'POST',
      url: `/api/msg/chat-groups/${temp.id}/users/`,
      headers: as(owner, business),
      payload: { user_id: owner.user.pk },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().result).toMatchObject({
      user: { pk: owner.user.pk, email: owner.email },
      role: 'owner',
    });
    const one = await app.inject({
      method: 'GET',
      url: `/api/msg/chat-groups/${temp.id}/users/${owner.user.pk}/`,
      headers: as(owner, business),
    });
    expect(one.statusCode).toBe(200);
    const stranger = await signUp(app, rt.mailer);
    const refused = await app.inject({
      method: 'POST',
      url: `/api/msg/chat-groups/${temp.id}/users/`,
      headers: as(owner, business),
      payload: { user_id: stranger.user.pk },
    });
    expect(refused.json().result).toEqual({ user_id: [CHAT_GROUP_ERRORS.notMember] });
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/api/msg/chat-groups/${temp.id}/users/${owner.user.pk}/`,
          headers: as(owner, business),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/api/msg/chat-groups/${temp.id}/users/`,
          headers: as(owner, business),
        })
      ).json().result,
    ).toEqual([]);
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/api/msg/chat-groups/${temp.id}/`,
          headers: as(owner, business),
        })
      ).statusCode,
    ).toBe(200);
    const names = (
      await app.inject({ method: 'GET', url: '/api/msg/chat-groups/', headers: as(owner, business) })
    )
      .json()
      .result.map((g: TChatGroup) => g.slug);
    expect(names).toEqual(['sales', 'support']);
  });
});

describe('public chat', () => {
  it('answers business and group info, and 404 for unknown ones', async () => {
    const info = await app.inject({
      method: 'GET',
      url: `/api/public/chat-groups/${business.unique_code}/support/`,
    });
    expect(info.json().result).toMatchObject({
      business: { name: 'Widget Co', logo_url: null },
      group: {
        name: 'Support',
        slug: 'support',
        greeting: 'Hi! How can we help?',
        visitor_form: [{ name: 'email', required: true }, { name: 'order' }],
      },
      identity_verification: false,
    });
    expect(
      (await app.inject({ method: 'GET', url: `/api/public/business/${business.unique_code}/` })).json()
        .result.group,
    ).toBeNull();
    const missing = await app.inject({
      method: 'GET',
      url: `/api/public/chat-groups/${business.unique_code}/nope/`,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(PUBLIC_CHAT_ERRORS.unavailable);
  });

  it('checks each visitor-form answer against its type', () => {
    const form = [
      { name: 'email', type: 'email', required: true },
      { name: 'age', type: 'number', required: false },
      { name: 'plan', type: 'select', required: true, options: ['free', 'pro'] },
      { name: 'terms', type: 'checkbox', required: true },
      { name: 'phone', type: 'phone', required: false },
    ];
    expect(
      checkVisitorForm(form, { email: 'nope', age: 'old', plan: 'gold', terms: 'yes', phone: 'call me' }),
    ).toEqual({
      email: ['Enter a valid email address.'],
      age: ['A valid number is required.'],
      plan: ['Select one of the offered choices.'],
      terms: ['Must be true or false.'],
      phone: ['Enter a valid phone number.'],
    });
    expect(checkVisitorForm(form, { email: 'a@b.co', plan: 'pro', terms: true })).toEqual({});
    expect(checkVisitorForm(form, {})).toEqual({
      email: [PUBLIC_CHAT_ERRORS.required],
      plan: [PUBLIC_CHAT_ERRORS.required],
      terms: [PUBLIC_CHAT_ERRORS.required],
    });
  });

  it("enforces the group's visitor form", async () => {
    const res = await visitor({ group_slug: 'support', name: 'Vi' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ email: [PUBLIC_CHAT_ERRORS.required] });
    const ok = await visitor({
      group_slug: 'support',
      name: 'Vi',
      email: 'vi@example.test',
      fields: { order: 'A-1' },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('gives a new visitor at an address the business stopped mailing that consent, without telling them', async () => {
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'left-widget@example.test',
      reason: 'unsubscribed',
    });
    const res = await visitor({ name: 'Lee', email: 'Left-Widget@example.test' });
    expect(res.statusCode).toBe(201);
    expect(JSON.stringify(res.json())).not.toMatch(/unsubscribed/);
    const listed = await app.inject({
      method: 'GET',
      url: '/api/business/customer-directory/?search=left-widget',
      headers: as(owner, business),
    });
    expect(listed.json().result.results).toEqual([
      expect.objectContaining({ email: 'left-widget@example.test', email_status: 'unsubscribed' }),
    ]);
  });

  it('lets a visitor start a conversation in a group and write; staff see it unread and reply; the visitor reads the reply', async () => {
    const { token, customer } = await visitorToken({
      group_slug: 'support',
      name: 'Vera',
      email: 'vera@example.test',
    });
    const started = await startChat(token, { group_slug: 'support' });
    expect(started.statusCode).toBe(201);
    const conversation = started.json().result as TConversation;
    expect(conversation).toMatchObject({
      channel: 'titan_message',
      initiator: { id: customer.id, name: 'Vera', email: 'vera@example.test' },
      assigned_chat_group: { id: support.id, slug: 'support' },
      title: 'Chat with Support',
    });
    const sent = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: visitorHeaders(token),
      payload: { message_type: 'text', content: 'My order is late' },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().result).toMatchObject({
      sender_type: 'customer',
      sender: { name: 'Vera', avatar_url: null },
    });

    const staffView = (
      await app.inject({
        method: 'GET',
        url: `/api/msg/conversations/${conversation.id}/`,
        headers: as(owner, business),
      })
    ).json().result;
    expect(staffView).toMatchObject({ is_read: false, business_replied: false });
    await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content: 'Sorry! Checking now.' },
    });
    const mine = (
      await app.inject({
        method: 'GET',
        url: `/api/public/conversations/${conversation.id}/messages/`,
        headers: visitorHeaders(token),
      })
    ).json().result as TMessage[];
    expect(mine.map((m) => [m.sender_type, m.content])).toEqual([
      ['customer', 'My order is late'],
      ['staff', 'Sorry! Checking now.'],
    ]);
    const list = (
      await app.inject({ method: 'GET', url: '/api/public/conversations/', headers: visitorHeaders(token) })
    ).json().result;
    expect(list.map((c: TConversation) => c.id)).toEqual([conversation.id]);
  });

  it("never lets a visitor reach another visitor's conversation", async () => {
    const a = await visitorToken({ name: 'A' });
    const b = await visitorToken({ name: 'B' });
    const conversation = (await startChat(a.token)).json().result as TConversation;
    const url = `/api/public/conversations/${conversation.id}/messages/`;
    expect((await app.inject({ method: 'GET', url, headers: visitorHeaders(b.token) })).statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'POST',
          url,
          headers: visitorHeaders(b.token),
          payload: { message_type: 'text', content: 'hi' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/public/conversations/',
          headers: visitorHeaders(b.token),
        })
      ).json().result,
    ).toEqual([]);
    // A forged or missing token is refused.
    expect(
      (await app.inject({ method: 'GET', url, headers: { authorization: 'Visitor forged' } })).statusCode,
    ).toBe(401);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // A staff access token is not a visitor token.
    expect(
      (await app.inject({ method: 'GET', url, headers: { authorization: `Visitor ${owner.access}` } }))
        .statusCode,
    ).toBe(401);
  });

  it('reaches earlier conversations only through a verified identity', async () => {
    const settings = await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { identity_verification: true },
    });
    const secret = settings.json().result.identity_secret as string;
    expect(secret.length).toBeGreaterThanOrEqual(40);
    const [sealed] = await rt.database.query<{ widget_identity_secret: string }>(
      'select widget_identity_secret from businesses where id = $1',
      [business.id],
    );
    expect(sealed!.widget_identity_secret).not.toContain(secret);

    const first = await visitorToken({
      user_id: 'site-user-42',
      user_hash: identityHash(secret, 'site-user-42'),
      name: 'Ida',
    });
    const conversation = (await startChat(first.token)).json().result as TConversation;
    const again = await visitorToken({
      user_id: 'site-user-42',
      user_hash: identityHash(secret, 'site-user-42'),
    });
    expect(again.customer.id).toBe(first.customer.id);
    const list = (
      await app.inject({
        method: 'GET',
        url: '/api/public/conversations/',
        headers: visitorHeaders(again.token),
      })
    ).json().result;
    expect(list.map((c: TConversation) => c.id)).toEqual([conversation.id]);

    const forged = await visitor({
      user_id: 'site-user-42',
      user_hash: identityHash('wrong secret', 'site-user-42'),
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toBe(PUBLIC_CHAT_ERRORS.identityFailed);
    // Without the hash a visitor is a new, separate person.
    const anonymous = await visitorToken({ name: 'Ida' });
    expect(anonymous.customer.id).not.toBe(first.customer.id);
    await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { identity_verification: false },
    });
  });

  it('refuses origins the business or group has not allowed, and always allows its own pages', async () => {
    await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { allowed_origins: ['https://shop.example'] },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/msg/chat-groups/${sales.id}/`,
      headers: as(owner, business),
      payload: { allowed_origins: ['https://sales.example'] },
    });
    expect((await visitor({}, 'https://shop.example')).statusCode).toBe(201);
    const evil = await visitor({}, 'https://evil.example');
    expect(evil.statusCode).toBe(403);
    expect(evil.json().message).toBe(PUBLIC_CHAT_ERRORS.originRefused);
    expect((await visitor({}, PUBLIC_URL)).statusCode).toBe(201);
    expect((await visitor({ group_slug: 'sales' }, 'https://sales.example')).statusCode).toBe(201);
    expect(
      (await visitor({ group_slug: 'support', email: 'x@example.test' }, 'https://sales.example')).statusCode,
    ).toBe(403);
    await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { allowed_origins: [] },
    });
  });

  it('limits conversations per visitor with a clear message', async () => {
    const { token } = await visitorToken();
    for (let i = 0; i < 10; i++) expect((await startChat(token)).statusCode).toBe(201);
    const limited = await startChat(token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(PUBLIC_CHAT_ERRORS.tooManyConversations);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it("takes visitor uploads into the conversation's folder and sends them as file messages", async () => {
    const { token } = await visitorToken();
    const conversation = (await startChat(token)).json().result as TConversation;
    const boundary = 'visitorboundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="conversation_id"\r\n\r\n${conversation.id}\r\n`,
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\n\r\nhello staff\r\n`,
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const up = await app.inject({
      method: 'POST',
      url: '/api/public/upload/',
      headers: { ...visitorHeaders(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(up.statusCode).toBe(201);
    const key = up.json().result.key as string;
    expect(key.startsWith(`public/public_chat_media/${business.id}/${conversation.id}/`)).toBe(true);
    const sent = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: visitorHeaders(token),
      payload: { message_type: 'file', content: key },
    });
    expect(sent.json().result.meta_data).toMatchObject({ file_name: 'note.txt', mime_type: 'text/plain' });
    // Another conversation's file cannot be re-sent.
    const other = (await startChat(token)).json().result as TConversation;
    const reuse = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${other.id}/messages/`,
      headers: visitorHeaders(token),
      payload: { message_type: 'file', content: key },
    });
    expect(reuse.json().result).toEqual({ content: [PUBLIC_CHAT_ERRORS.fileNotYours] });
  });
});

describe('group visibility for agents', () => {
  it('shows agents the conversations of their groups and unassigned ones, nowhere else', async () => {
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    await app.inject({
      method: 'POST',
      url: `/api/msg/chat-groups/${sales.id}/users/`,
      headers: as(owner, business),
      payload: { user_id: agent.user.pk },
    });

    const v = await visitorToken({ group_slug: 'support', email: 'g@example.test' });
    const inSupport = (await startChat(v.token, { group_slug: 'support' })).json().result as TConversation;
    const inSales = (await startChat(v.token, { group_slug: 'sales' })).json().result as TConversation;
    const unassigned = (await startChat(v.token)).json().result as TConversation;

    const ids = (
      await app.inject({
        method: 'GET',
        url: '/api/msg/conversations/?page_size=100',
        headers: as(agent, business),
      })
    )
      .json()
      .result.results.map((c: TConversation) => c.id);
    expect(ids).toContain(inSales.id);
    expect(ids).toContain(unassigned.id);
    expect(ids).not.toContain(inSupport.id);
    for (const url of [
      `/api/msg/conversations/${inSupport.id}/`,
      `/api/msg/conversations/${inSupport.id}/messages/`,
    ]) {
      expect((await app.inject({ method: 'GET', url, headers: as(agent, business) })).statusCode, url).toBe(
        404,
      );
    }
    const post = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${inSupport.id}/messages/`,
      headers: as(agent, business),
      payload: { message_type: 'text', content: 'x' },
    });
    expect(post.statusCode).toBe(404);
    // The owner sees all three.
    const all = (
      await app.inject({
        method: 'GET',
        url: '/api/msg/conversations/?page_size=100',
        headers: as(owner, business),
      })
    )
      .json()
      .result.results.map((c: TConversation) => c.id);
    expect(all).toEqual(expect.arrayContaining([inSupport.id, inSales.id, unassigned.id]));
  });
});

describe('realtime for visitors', () => {
  it("pushes staff replies to the visitor's own conversation and refuses others", async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
    const mine = await visitorToken();
    const theirs = await visitorToken();
    const conversation = (await startChat(mine.token)).json().result as TConversation;
    const foreign = (await startChat(theirs.token)).json().result as TConversation;
    const ws = await authenticated(url, mine.token);
    ws.send({ type: 'subscribe', id: 'own', topic: 'messages', conversation_id: conversation.id });
    await ws.next((m) => m.type === 'subscribed');
    ws.send({ type: 'subscribe', id: 'foreign', topic: 'messages', conversation_id: foreign.id });
    expect(await ws.next((m) => m.type === 'error')).toMatchObject({ id: 'foreign' });
    await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content: 'Live reply' },
    });
    const got = await ws.next((m) => m.type === 'change' && m.sub === 'own');
    expect((got.new as TMessage).content).toBe('Live reply');
    ws.close();
  });
});
