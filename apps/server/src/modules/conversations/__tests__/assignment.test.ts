// The team inbox's assignee (issue 29, next-api.md "Team inbox"): assign, reassign, unassign one
// conversation or many, the views and their counts, the activity lines, the realtime feed, and the
// boundaries: another business's member is 404 naming the field, an agent sees only their groups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ZConversation, ZEnvelope, ZPage } from '@titan/contracts';
import type { TConversation, TConversationCounts, TMessage, TPublicMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { authenticated, type WsClient } from '../../../testing/ws-client';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
/** An admin of the scoped business. */
let admin: Session;
/** A second business, with its own owner. */
let other: ScopedBusiness;
let groups: Record<string, number>;
/** Conversations of the scoped business: in "support", in "sales", in no group. */
let inSupport: number, inSales: number, noGroup: number;
let url: string;
const clients: WsClient[] = [];

const conversationOf = async (customerId: number) => {
  const rows = await rt.database.query<{ id: string }>(
    `select id from conversations where initiator_id = $1 order by id`,
    [customerId],
  );
  return rows.map((r) => Number(r.id));
};

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
  s = await scopedBusiness(app, rt.mailer, 'Assign Co');
  other = await scopedBusiness(app, rt.mailer, 'Elsewhere Co');
  admin = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
  const g = await app.inject({ method: 'GET', url: '/api/msg/chat-groups/', headers: as(s.boss, s.shop) });
  const list = g.json().result;
  const rows = (Array.isArray(list) ? list : list.results) as { id: number; slug: string }[];
  groups = Object.fromEntries(rows.map((r) => [r.slug, r.id]));
  const visitor = await s.visitor('Vera', ['support', 'sales', null]);
  [inSupport, inSales, noGroup] = (await conversationOf(visitor)) as [number, number, number];
  await other.visitor('Olga', [null]);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.destroy();
});

const put = (who: Session, id: number, payload: object, shop = s.shop) =>
  app.inject({ method: 'PUT', url: `/api/msg/conversations/${id}/`, headers: as(who, shop), payload });
const bulk = (who: Session, payload: object, shop = s.shop) =>
  app.inject({ method: 'POST', url: '/api/msg/conversations/bulk/', headers: as(who, shop), payload });
const list = async (who: Session, query: string, shop = s.shop) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/conversations/?${query}`,
    headers: as(who, shop),
  });
  expect(res.statusCode, res.body).toBe(200);
  const page = ZEnvelope(ZPage(ZConversation.strict())).parse(res.json()).result;
  return { count: page.count, ids: page.results.map((c) => c.id).sort((a, b) => a - b), rows: page.results };
};
const counts = async (who: Session, query = '', shop = s.shop) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/conversations/counts/?${query}`,
    headers: as(who, shop),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TConversationCounts;
};
const timeline = async (id: number, who: Session = s.boss) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/conversations/${id}/messages/`,
    headers: as(who, s.shop),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TMessage[];
};
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('assigning one conversation', () => {
  it('assigns, reassigns and unassigns, answering the assignee and leaving activity lines by whom', async () => {
    const assigned = await put(s.boss, noGroup, { assignee_id: admin.user.pk });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const c = ZConversation.strict().parse(assigned.json().result);
    expect(c.assignee).toEqual({ id: admin.user.pk, name: 'Ada Lovelace', avatar_url: null });
    // The list answers the row exactly as the conversation itself.
    const row = (await list(s.boss, `assignee=${admin.user.pk}`)).rows.find((r) => r.id === noGroup);
    expect(row).toEqual(c);

    expect((await put(admin, noGroup, { assignee_id: s.boss.user.pk })).json().result.assignee.id).toBe(
      s.boss.user.pk,
    );
    const unassigned = await put(admin, noGroup, { assignee_id: null });
    expect(unassigned.json().result.assignee).toBeNull();

    const activity = (await timeline(noGroup)).filter((m) => m.message_type === 'activity');
    expect(activity.map((m) => m.meta_data.action)).toEqual(['assigned', 'assigned', 'unassigned']);
    expect(activity[0]).toMatchObject({
      sender_type: 'system',
      sender_id: s.boss.user.pk,
      meta_data: { actor: { id: s.boss.user.pk }, assignee: { id: admin.user.pk } },
    });
    expect(activity[2]!.meta_data.actor).toMatchObject({ id: admin.user.pk });
    expect(activity[2]!.content).toContain('unassigned');
  });

  it('records a status change as an activity line, and nothing for a change that changes nothing', async () => {
    const before = (await timeline(inSales)).length;
    expect((await put(s.boss, inSales, { status: 'resolved' })).statusCode).toBe(200);
    expect((await put(s.boss, inSales, { status: 'resolved' })).statusCode).toBe(200);
    const after = await timeline(inSales);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      message_type: 'activity',
      meta_data: { action: 'status_changed', status: 'resolved', previous_status: 'active' },
    });
    await put(s.boss, inSales, { status: 'active' });
  });

  it("refuses another business's member with 404 naming assignee_id, and writes nothing", async () => {
    const before = await timeline(inSupport);
    for (const stranger of [other.boss.user.pk, other.agent.user.pk, 987654321]) {
      const res = await put(s.boss, inSupport, { assignee_id: stranger, status: 'resolved' });
      expect(res.statusCode).toBe(404);
      expect(res.json().result).toEqual({ assignee_id: ['No member of this business has this id.'] });
    }
    const c = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${inSupport}/`,
      headers: as(s.boss, s.shop),
    });
    expect(c.json().result).toMatchObject({ assignee: null, status: 'active' });
    expect(await timeline(inSupport)).toHaveLength(before.length);
    // A conversation of another business is 404 as before.
    expect(
      (await put(s.boss, (await list(other.boss, '', other.shop)).ids[0]!, { assignee_id: null })).statusCode,
    ).toBe(404);
  });

  it('never widens what an agent may read: an agent cannot be given a group they are not in', async () => {
    const refused = await put(s.boss, inSales, { assignee_id: s.agent.user.pk });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().result.assignee_id[0]).toMatch(/cannot see this conversation/);
    // Their own group is fine, and the agent may assign what they see (to themselves).
    expect((await put(s.agent, inSupport, { assignee_id: s.agent.user.pk })).statusCode).toBe(200);
    // What they cannot see stays 404 to them, assigned or not.
    expect((await put(s.agent, inSales, { assignee_id: s.agent.user.pk })).statusCode).toBe(404);
    await put(s.boss, inSupport, { assignee_id: null });
  });

  it('refuses a bad assignee_id with a field message', async () => {
    const res = await put(s.boss, inSupport, { assignee_id: 'me' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toHaveProperty('assignee_id');
  });

  it('unassigns the conversations of a member who leaves the business', async () => {
    const leaver = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
    await put(s.boss, inSales, { assignee_id: leaver.user.pk });
    const [membership] = await rt.database.query<{ id: string }>(
      `select id from memberships where business_id = $1 and user_id = $2`,
      [s.shop.id, leaver.user.pk],
    );
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/business/users/${membership!.id}/`,
      headers: as(s.boss, s.shop),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const c = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${inSales}/`,
      headers: as(s.boss, s.shop),
    });
    expect(c.json().result.assignee).toBeNull();
  });
});

describe('bulk changes', () => {
  it('assigns and resolves many at once, all or none', async () => {
    const ok = await bulk(s.boss, { ids: [inSupport, inSales], assignee_id: admin.user.pk });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().result).toEqual({ updated: sorted([inSupport, inSales]) });
    expect((await list(s.boss, `assignee=${admin.user.pk}`)).ids).toEqual(sorted([inSupport, inSales]));

    // One id of another business: 404 naming ids, nothing written.
    const foreign = (await list(other.boss, '', other.shop)).ids[0]!;
    const mixed = await bulk(s.boss, { ids: [inSupport, foreign], assignee_id: null, status: 'resolved' });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().result).toHaveProperty('ids');
    expect((await list(s.boss, `assignee=${admin.user.pk}&status=active`)).ids).toEqual(
      sorted([inSupport, inSales]),
    );
    // A stranger as assignee: 404 naming assignee_id.
    const stranger = await bulk(s.boss, { ids: [inSupport], assignee_id: other.boss.user.pk });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().result).toHaveProperty('assignee_id');
    // An agent's bulk reaches only what they see: a conversation of another group is 404.
    expect((await bulk(s.agent, { ids: [inSupport, inSales], status: 'resolved' })).statusCode).toBe(404);
    expect((await bulk(s.agent, { ids: [inSupport], status: 'resolved' })).statusCode).toBe(200);

    const unassign = await bulk(s.boss, { ids: [inSupport, inSales], assignee_id: null, status: 'active' });
    expect(unassign.statusCode).toBe(200);
    expect((await timeline(inSales)).at(-1)!.meta_data.action).toBe('unassigned');
  });

  it('refuses an empty selection and a change of nothing', async () => {
    expect((await bulk(s.boss, { ids: [], status: 'resolved' })).json().result).toHaveProperty('ids');
    expect((await bulk(s.boss, { ids: [inSupport] })).json().result).toHaveProperty('non_field_errors');
  });
});

describe('views and counts', () => {
  it('filters Mine, Unassigned, by assignee and by group, and counts each view within the scope', async () => {
    await bulk(s.boss, { ids: [inSupport], assignee_id: s.agent.user.pk });
    await bulk(s.boss, { ids: [inSales], assignee_id: s.boss.user.pk });

    expect((await list(s.boss, 'assignee=me')).ids).toEqual([inSales]);
    expect((await list(s.agent, 'assignee=me')).ids).toEqual([inSupport]);
    expect((await list(s.boss, 'assignee=none')).ids).toEqual([noGroup]);
    expect((await list(s.boss, `assignee=${s.agent.user.pk}`)).count).toBe(1);
    expect((await list(s.boss, `assigned_chat_group=${groups.sales}`)).ids).toEqual([inSales]);
    expect((await list(s.boss, 'assigned_chat_group=none')).ids).toEqual([noGroup]);
    // The agent's scope holds: someone else's conversation in a group they are not in is not theirs to see.
    expect((await list(s.agent, `assignee=${s.boss.user.pk}`)).ids).toEqual([]);

    const boss = await counts(s.boss);
    expect(boss).toMatchObject({ all: 3, mine: 1, unassigned: 1 });
    expect(sorted(boss.assignees.map((a) => a.id))).toEqual(sorted([s.agent.user.pk, s.boss.user.pk]));
    expect(boss.groups).toEqual(
      expect.arrayContaining([
        { id: groups.support, count: 1 },
        { id: groups.sales, count: 1 },
        { id: null, count: 1 },
      ]),
    );
    const agent = await counts(s.agent);
    expect(agent).toMatchObject({ all: 2, mine: 1, unassigned: 1 });
    expect(agent.groups.map((g) => g.id)).not.toContain(groups.sales);
    expect((await counts(s.boss, 'status=resolved')).all).toBe(0);
    // Another business counts its own.
    expect(await counts(other.boss, '', other.shop)).toMatchObject({ all: 1, unassigned: 1, mine: 0 });
  });

  it('refuses a bad filter with the field named', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/msg/conversations/?assignee=someone',
      headers: as(s.boss, s.shop),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toHaveProperty('assignee');
  });
});

describe('realtime', () => {
  it('tells staff of an assignment on the conversations topic, filtered by assignee=me', async () => {
    const ws = await authenticated(url, s.agent.access);
    clients.push(ws);
    ws.send({
      type: 'subscribe',
      id: 'mine',
      topic: 'conversations',
      business_code: s.shop.unique_code,
      filter: { assignee: 'me' },
    });
    await ws.next((m) => m.type === 'subscribed');
    await put(s.boss, inSupport, { assignee_id: null });
    const left = await ws.next((m) => m.type === 'change' && m.sub === 'mine');
    expect(left).toMatchObject({ new: { id: inSupport, assignee: null }, matches: false });
    await put(s.boss, inSupport, { assignee_id: s.agent.user.pk });
    const joined = await ws.next((m) => m.type === 'change' && m.sub === 'mine');
    expect(joined).toMatchObject({
      new: { id: inSupport, assignee: { id: s.agent.user.pk } },
      matches: true,
    });
    // A conversation outside the agent's groups is never sent, even when assigned to someone.
    await put(s.boss, inSales, { assignee_id: admin.user.pk });
    const quiet = await ws.quietFor(500);
    expect(quiet.filter((m) => m.type === 'change' && (m.new as TConversation).id === inSales)).toEqual([]);
  });

  it('never shows a visitor who owns the conversation, nor the activity lines', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: s.shop.unique_code, name: 'Vic' },
    });
    const { token } = res.json().result as { token: string };
    const started = await app.inject({
      method: 'POST',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
      payload: {},
    });
    const conversation = started.json().result as TConversation;
    const ws = await authenticated(url, token);
    clients.push(ws);
    ws.send({ type: 'subscribe', id: 'mine', topic: 'conversations', business_code: s.shop.unique_code });
    ws.send({ type: 'subscribe', id: 'msgs', topic: 'messages', conversation_id: conversation.id });
    await ws.next((m) => m.type === 'subscribed' && m.id === 'mine');
    await ws.next((m) => m.type === 'subscribed' && m.id === 'msgs');
    await put(s.boss, conversation.id, { assignee_id: admin.user.pk, status: 'resolved' });
    const change = await ws.next((m) => m.type === 'change' && m.sub === 'mine');
    expect(change.new).toMatchObject({ id: conversation.id, status: 'resolved', assignee: null });
    const quiet = await ws.quietFor(500);
    expect(quiet.filter((m) => m.sub === 'msgs')).toEqual([]);
    expect(JSON.stringify([change, ...quiet])).not.toContain(admin.email);

    const mine = await app.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
    });
    expect(JSON.stringify(mine.json())).not.toContain('Ada Lovelace');
    const messages = await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: { authorization: `Visitor ${token}` },
    });
    expect(messages.statusCode).toBe(200);
    expect((messages.json().result as TPublicMessage[]).map((m) => m.message_type)).not.toContain('activity');
    // Staff see the activity lines.
    expect((await timeline(conversation.id)).map((m) => m.message_type)).toContain('activity');
  });
});
