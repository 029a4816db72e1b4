// Presence, typing and auto-assignment (issue 29, next-api.md "Team inbox"): PUT /api/users/presence/
// and the team list, a chat group's `assignment` (bad input, another business, agent scope), the
// engine (round robin, least busy, capacity, waiting in Unassigned until someone comes online or
// frees capacity, once per opening, the activity line), the `presence` topic and typing signals
// (both ways on the own channel, between staff; never to another business or an agent outside the
// conversation's group).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ZEnvelope, ZMember, ZChatGroupSettings } from '@titan/contracts';
import type { TConversation, TMessage, TPublicMessage } from '@titan/contracts';
import { z } from 'zod';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { authenticated, type WsClient } from '../../../testing/ws-client';
import { expirePresence } from '..';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;
let admin: Session;
let groups: Record<string, number>;
let url: string;
const clients: WsClient[] = [];

const presence = (who: Session, status: string) =>
  app.inject({ method: 'PUT', url: '/api/users/presence/', headers: as(who), payload: { status } });
const putGroup = (who: Session, id: number, payload: object, shop = s.shop) =>
  app.inject({ method: 'PUT', url: `/api/msg/chat-groups/${id}/`, headers: as(who, shop), payload });
const putConversation = (who: Session, id: number, payload: object, shop = s.shop) =>
  app.inject({ method: 'PUT', url: `/api/msg/conversations/${id}/`, headers: as(who, shop), payload });
const conversation = async (id: number) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/conversations/${id}/`,
    headers: as(s.boss, s.shop),
  });
  return res.json().result as TConversation;
};
const timeline = async (id: number) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/conversations/${id}/messages/`,
    headers: as(s.boss, s.shop),
  });
  return res.json().result as TMessage[];
};

/** A new visitor of the scoped business with one conversation in the group (slug); its token and id. */
async function visitorIn(slug: string | null, shop = s.shop) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: shop.unique_code, name: `Visitor ${slug}` },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: slug ? { group_slug: slug } : {},
  });
  expect(started.statusCode, started.body).toBe(201);
  return { token, id: (started.json().result as TConversation).id };
}

/** The engine runs on the feed: waits until it is done with what it heard. */
async function settled(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 60));
    await rt.assigner.idle();
  }
}

const assigneeOf = async (id: number) => (await conversation(id)).assignee?.id ?? null;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
  s = await scopedBusiness(app, rt.mailer, 'Presence Co');
  other = await scopedBusiness(app, rt.mailer, 'Elsewhere Co');
  admin = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
  const g = await app.inject({ method: 'GET', url: '/api/msg/chat-groups/', headers: as(s.boss, s.shop) });
  groups = Object.fromEntries((g.json().result as { id: number; slug: string }[]).map((r) => [r.slug, r.id]));
  // The admin joins "support" beside the agent.
  const joined = await app.inject({
    method: 'POST',
    url: `/api/msg/chat-groups/${groups.support}/users/`,
    headers: as(s.boss, s.shop),
    payload: { user_id: admin.user.pk },
  });
  expect(joined.statusCode, joined.body).toBe(201);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.destroy();
});

describe('presence', () => {
  it('is set by hand, shown in the team list, and refused as bad input', async () => {
    const res = await presence(s.agent, 'away');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ user_id: s.agent.user.pk, status: 'away' });
    const team = await app.inject({
      method: 'GET',
      url: '/api/business/users/',
      headers: as(s.boss, s.shop),
    });
    const members = ZEnvelope(z.array(ZMember.strict())).parse(team.json()).result;
    expect(members.find((m) => m.user.pk === s.agent.user.pk)?.presence).toBe('away');
    expect(members.find((m) => m.user.pk === admin.user.pk)?.presence).toBe('offline');

    const bad = await presence(s.agent, 'busy');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toHaveProperty('status');
    const extra = await app.inject({
      method: 'PUT',
      url: '/api/users/presence/',
      headers: as(s.agent),
      payload: { status: 'online', user_id: admin.user.pk },
    });
    expect(extra.statusCode).toBe(400);
    const anonymous = await app.inject({
      method: 'PUT',
      url: '/api/users/presence/',
      payload: { status: 'online' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('turns offline once nobody saw the member for the grace period', async () => {
    await presence(admin, 'online');
    await new Promise((r) => setTimeout(r, 20));
    expect(await expirePresence(rt.services.db, 0)).toContain(admin.user.pk);
    const team = await app.inject({
      method: 'GET',
      url: '/api/business/users/',
      headers: as(s.boss, s.shop),
    });
    const members = team.json().result as { user: { pk: number }; presence: string }[];
    expect(members.find((m) => m.user.pk === admin.user.pk)?.presence).toBe('offline');
  });

  it('is on the presence topic of the member’s businesses only, for staff', async () => {
    const mine = await authenticated(url, s.boss.access);
    const theirs = await authenticated(url, other.boss.access);
    clients.push(mine, theirs);
    mine.send({ type: 'subscribe', id: 'p', topic: 'presence', business_code: s.shop.unique_code });
    theirs.send({ type: 'subscribe', id: 'p', topic: 'presence', business_code: other.shop.unique_code });
    await mine.next((m) => m.type === 'subscribed');
    await theirs.next((m) => m.type === 'subscribed');
    // Asking for a business one is not a member of is refused.
    theirs.send({ type: 'subscribe', id: 'x', topic: 'presence', business_code: s.shop.unique_code });
    expect((await theirs.next((m) => m.id === 'x')).type).toBe('error');

    await presence(s.agent, 'online');
    const change = await mine.next((m) => m.type === 'change' && m.sub === 'p');
    expect(change).toMatchObject({
      table: 'user_presence',
      new: { user_id: s.agent.user.pk, status: 'online' },
    });
    expect((await theirs.quietFor(400)).filter((m) => m.type === 'change')).toEqual([]);

    const { token } = await visitorIn(null);
    const visitor = await authenticated(url, token);
    clients.push(visitor);
    visitor.send({ type: 'subscribe', id: 'p', topic: 'presence', business_code: s.shop.unique_code });
    expect((await visitor.next((m) => m.id === 'p')).type).toBe('error');
    await presence(s.agent, 'offline');
  });
});

describe('presence and realtime connections', () => {
  it('stays while a connection is open (any instance refreshes it), and goes offline after the grace', async () => {
    const short = await createTestRuntime({ env: { PRESENCE_GRACE_SECONDS: '5' } });
    try {
      const a = short.app!;
      await a.listen({ port: 0, host: '127.0.0.1' });
      const shortUrl = `ws://127.0.0.1:${(a.server.address() as { port: number }).port}/api/realtime/`;
      const b = await scopedBusiness(a, short.mailer, 'Grace Co');
      const set = await a.inject({
        method: 'PUT',
        url: '/api/users/presence/',
        headers: as(b.agent),
        payload: { status: 'online' },
      });
      expect(set.statusCode).toBe(200);
      const watcher = await authenticated(shortUrl, b.boss.access);
      const ws = await authenticated(shortUrl, b.agent.access);
      clients.push(watcher, ws);
      watcher.send({ type: 'subscribe', id: 'p', topic: 'presence', business_code: b.shop.unique_code });
      await watcher.next((m) => m.type === 'subscribed');
      await new Promise((r) => setTimeout(r, 6_500));
      const status = async () =>
        (
          (await a.inject({ method: 'GET', url: '/api/business/users/', headers: as(b.boss, b.shop) })).json()
            .result as { user: { pk: number }; presence: string }[]
        ).find((m) => m.user.pk === b.agent.user.pk)?.presence;
      expect(await status()).toBe('online');
      ws.close();
      const offline = await watcher.next(
        (m) => m.type === 'change' && (m.new as { status: string }).status === 'offline',
        12_000,
      );
      expect(offline.new).toMatchObject({ user_id: b.agent.user.pk });
      expect(await status()).toBe('offline');
    } finally {
      await short.destroy();
    }
  });
});

describe('auto-assignment settings', () => {
  it('are part of the chat group, validated, and its own business’s only', async () => {
    const res = await putGroup(s.boss, groups.sales!, { assignment: { mode: 'least_busy', capacity: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZEnvelope(ZChatGroupSettings.strict()).parse(res.json()).result.assignment).toEqual({
      mode: 'least_busy',
      capacity: 3,
    });
    const listed = await app.inject({
      method: 'GET',
      url: '/api/msg/chat-groups/',
      headers: as(s.boss, s.shop),
    });
    const rows = listed.json().result as { id: number; assignment: object }[];
    expect(rows.find((r) => r.id === groups.sales)?.assignment).toEqual({ mode: 'least_busy', capacity: 3 });
    expect(rows.find((r) => r.id === groups.support)?.assignment).toEqual({ mode: 'off', capacity: 10 });

    const zero = await putGroup(s.boss, groups.sales!, { assignment: { mode: 'round_robin', capacity: 0 } });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().result).toHaveProperty(['assignment.capacity']);
    const mode = await putGroup(s.boss, groups.sales!, { assignment: { mode: 'random', capacity: 2 } });
    expect(mode.statusCode).toBe(400);
    expect(mode.json().result).toHaveProperty(['assignment.mode']);

    // Another business's group is not found; an agent may not change settings.
    const elsewhere = await putGroup(
      other.boss,
      groups.sales!,
      { assignment: { mode: 'off', capacity: 1 } },
      other.shop,
    );
    expect(elsewhere.statusCode).toBe(404);
    const agent = await putGroup(s.agent, groups.support!, {
      assignment: { mode: 'round_robin', capacity: 1 },
    });
    expect(agent.statusCode).toBe(403);
    await putGroup(s.boss, groups.sales!, { assignment: { mode: 'off', capacity: 3 } });
  });

  it('assigning a member of another business by hand is 404 naming the field', async () => {
    const { id } = await visitorIn(null);
    const res = await putConversation(s.boss, id, { assignee_id: other.boss.user.pk });
    expect(res.statusCode).toBe(404);
    expect(res.json().result).toHaveProperty('assignee_id');
    expect(await assigneeOf(id)).toBeNull();
  });
});

describe('the engine', () => {
  it('round robin among online members under capacity; the rest wait, oldest first', async () => {
    await putGroup(s.boss, groups.support!, { assignment: { mode: 'round_robin', capacity: 1 } });
    await presence(s.agent, 'online');
    await presence(admin, 'online');
    const a = await visitorIn('support');
    await settled();
    const b = await visitorIn('support');
    await settled();
    const c = await visitorIn('support');
    await settled();
    const d = await visitorIn('support');
    await settled();
    const first = await assigneeOf(a.id);
    const second = await assigneeOf(b.id);
    expect(new Set([first, second])).toEqual(new Set([s.agent.user.pk, admin.user.pk]));
    // Both are at capacity: c and d wait in Unassigned.
    expect(await assigneeOf(c.id)).toBeNull();
    expect(await assigneeOf(d.id)).toBeNull();
    const unassigned = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/?assignee=none&assigned_chat_group=${groups.support}`,
      headers: as(s.boss, s.shop),
    });
    expect((unassigned.json().result.results as TConversation[]).map((r) => r.id)).toEqual(
      expect.arrayContaining([c.id, d.id]),
    );

    // The activity line names the member, like a person's assignment, and never reaches the visitor.
    const line = (await timeline(a.id)).find((m) => m.message_type === 'activity');
    expect(line).toMatchObject({
      content: expect.stringMatching(/^Auto-assignment assigned this conversation to /),
      meta_data: { action: 'assigned', actor: null, assignee: { id: first }, auto: 'round_robin' },
    });
    const publicMessages = await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${a.id}/messages/`,
      headers: { authorization: `Visitor ${a.token}` },
    });
    expect((publicMessages.json().result as TPublicMessage[]).map((m) => m.message_type)).not.toContain(
      'activity',
    );

    // Freeing capacity hands out the oldest waiting one (c before d).
    await putConversation(s.boss, a.id, { status: 'resolved' });
    await settled();
    expect(await assigneeOf(c.id)).toBe(first);
    expect(await assigneeOf(d.id)).toBeNull();
  });

  it('waits while nobody is online, and assigns when someone comes online', async () => {
    await presence(s.agent, 'away');
    await presence(admin, 'offline');
    await putGroup(s.boss, groups.support!, { assignment: { mode: 'least_busy', capacity: 5 } });
    const e = await visitorIn('support');
    await settled();
    expect(await assigneeOf(e.id)).toBeNull();
    await presence(admin, 'online');
    await settled();
    expect(await assigneeOf(e.id)).toBe(admin.user.pk);
  });

  it('assigns once per opening: unassigning by hand does not queue it again; reopening does', async () => {
    const f = await visitorIn('support');
    await settled();
    expect(await assigneeOf(f.id)).toBe(admin.user.pk);
    await putConversation(s.boss, f.id, { assignee_id: null });
    await settled();
    expect(await assigneeOf(f.id)).toBeNull();
    await putConversation(s.boss, f.id, { status: 'resolved' });
    await putConversation(s.boss, f.id, { status: 'active' });
    await settled();
    expect(await assigneeOf(f.id)).toBe(admin.user.pk);
  });

  it('never assigns in groups with assignment off, nor conversations in no group', async () => {
    const g = await visitorIn('sales');
    const h = await visitorIn(null);
    await settled();
    expect(await assigneeOf(g.id)).toBeNull();
    expect(await assigneeOf(h.id)).toBeNull();
    await presence(admin, 'offline');
    await putGroup(s.boss, groups.support!, { assignment: { mode: 'off', capacity: 5 } });
  });
});

describe('typing', () => {
  it('goes both ways on the own channel and between staff, within the conversation’s audience', async () => {
    const { token, id } = await visitorIn('support');
    const sales = await visitorIn('sales');
    const visitor = await authenticated(url, token);
    const boss = await authenticated(url, s.boss.access);
    const adminWs = await authenticated(url, admin.access);
    const agent = await authenticated(url, s.agent.access);
    const stranger = await authenticated(url, other.boss.access);
    clients.push(visitor, boss, adminWs, agent, stranger);
    for (const ws of [visitor, boss, adminWs, agent]) {
      ws.send({ type: 'subscribe', id: 'm', topic: 'messages', conversation_id: id });
      await ws.next((m) => m.type === 'subscribed');
    }
    // The agent also watches a sales conversation: refused (not their group).
    agent.send({ type: 'subscribe', id: 's', topic: 'messages', conversation_id: sales.id });
    expect((await agent.next((m) => m.id === 's')).type).toBe('error');
    stranger.send({ type: 'subscribe', id: 'm', topic: 'messages', conversation_id: id });
    expect((await stranger.next((m) => m.id === 'm')).type).toBe('error');

    visitor.send({ type: 'typing', conversation_id: id });
    for (const ws of [boss, adminWs, agent]) {
      const typing = await ws.next((m) => m.type === 'typing');
      expect(typing).toMatchObject({
        sub: 'm',
        conversation_id: id,
        who: { type: 'customer', name: 'Visitor support' },
      });
    }
    expect((await visitor.quietFor(300)).filter((m) => m.type === 'typing')).toEqual([]);

    boss.send({ type: 'typing', conversation_id: id });
    const seen = await visitor.next((m) => m.type === 'typing');
    expect(seen.who).toEqual({ type: 'staff', name: expect.any(String) });
    expect(JSON.stringify(seen)).not.toContain(s.boss.email);
    expect(await adminWs.next((m) => m.type === 'typing')).toMatchObject({
      who: { type: 'staff', id: s.boss.user.pk },
    });

    // Typing where one may not look is refused and reaches nobody.
    agent.send({ type: 'typing', conversation_id: sales.id });
    expect((await agent.next((m) => m.type === 'error')).message).toMatch(/access/);
    stranger.send({ type: 'typing', conversation_id: id });
    expect((await stranger.next((m) => m.type === 'error')).message).toMatch(/access/);
    const quiet = await Promise.all([visitor, boss, adminWs].map((ws) => ws.quietFor(400)));
    expect(quiet.flat().filter((m) => m.type === 'typing')).toEqual([]);
  });
});
