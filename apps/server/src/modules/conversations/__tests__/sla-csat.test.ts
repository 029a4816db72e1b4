// SLA and CSAT (issue 29, next-api.md "Team inbox"): a group's targets and survey switch (bad input,
// another business); each conversation's deadlines and breach in the list and alone; the SLA watch
// writes one breach line per target and deadline, which notifies the assignee (or the owners when
// nobody holds it); resolving asks the visitor for a rating, answered by token; the visitor never
// sees the team's targets; the dashboard's first response, resolution and CSAT per member and group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type {
  TConversation,
  TMessage,
  TNotificationPage,
  TPublicMessage,
  TChatGroupSettings,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { alertSlaBreaches } from '..';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;
let groups: Record<string, number>;

const call = (who: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, shop = s.shop) =>
  app.inject({ method, url, headers: as(who, shop), ...(payload ? { payload } : {}) });
const conversation = async (id: number) =>
  (await call(s.boss, 'GET', `/api/msg/conversations/${id}/`)).json().result as TConversation;
const listed = async (id: number) => {
  const res = await call(s.boss, 'GET', '/api/msg/conversations/?page_size=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().result.results as TConversation[]).find((c) => c.id === id)!;
};
const timeline = async (id: number) =>
  (await call(s.boss, 'GET', `/api/msg/conversations/${id}/messages/`)).json().result as TMessage[];

async function visitorIn(slug: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: s.shop.unique_code, name: `Visitor ${slug}` },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: { group_slug: slug },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = (started.json().result as TConversation).id;
  const wrote = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${id}/messages/`,
    headers: { authorization: `Visitor ${token}` },
    payload: { message_type: 'text', content: 'Help please' },
  });
  expect(wrote.statusCode, wrote.body).toBe(201);
  return { token, id };
}
const visitorSees = async (v: { token: string; id: number }) =>
  (
    await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${v.id}/messages/`,
      headers: { authorization: `Visitor ${v.token}` },
    })
  ).json().result as TPublicMessage[];

async function until<T>(what: string, get: () => Promise<T>, done: (v: T) => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
/** Moves a conversation's clocks back (its SLA counts from when it was opened). */
const openedAgo = (id: number, minutes: number) =>
  rt.database.query(`update conversations set created_at = now() - make_interval(mins => $2) where id = $1`, [
    id,
    minutes,
  ]);

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  s = await scopedBusiness(app, rt.mailer, 'Targets Co');
  other = await scopedBusiness(app, rt.mailer, 'Elsewhere Co');
  const g = await call(s.boss, 'GET', '/api/msg/chat-groups/');
  groups = Object.fromEntries((g.json().result as { id: number; slug: string }[]).map((r) => [r.slug, r.id]));
});
afterAll(async () => {
  await rt.destroy();
});

describe('a group’s SLA and CSAT settings', () => {
  it('are saved, refused as bad input with the field named, and not another business’s to change', async () => {
    const res = await call(s.boss, 'PUT', `/api/msg/chat-groups/${groups.support}/`, {
      sla: { first_response_minutes: 30, resolution_minutes: 120 },
      csat: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result as TChatGroupSettings).toMatchObject({
      sla: { first_response_minutes: 30, resolution_minutes: 120 },
      csat: true,
    });
    const bad = await call(s.boss, 'PUT', `/api/msg/chat-groups/${groups.support}/`, {
      sla: { first_response_minutes: 0, resolution_minutes: 'soon' },
      csat: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result)).toEqual(
      expect.arrayContaining(['sla.first_response_minutes', 'sla.resolution_minutes', 'csat']),
    );
    const foreign = await call(
      other.boss,
      'PUT',
      `/api/msg/chat-groups/${groups.support}/`,
      { csat: false },
      other.shop,
    );
    expect(foreign.statusCode).toBe(404);
    // Both targets empty: no SLA.
    const none = await call(s.boss, 'PUT', `/api/msg/chat-groups/${groups.sales}/`, {
      sla: { first_response_minutes: null, resolution_minutes: null },
    });
    expect((none.json().result as TChatGroupSettings).sla).toBeNull();
  });
});

describe('SLA clocks', () => {
  it('show the deadlines while pending, the breach once missed, alike in the list and alone', async () => {
    const v = await visitorIn('support');
    const fresh = await conversation(v.id);
    const created = Date.parse(fresh.created_at);
    expect(Date.parse(fresh.sla.first_response_due_at!)).toBe(created + 30 * 60_000);
    expect(Date.parse(fresh.sla.resolution_due_at!)).toBe(created + 120 * 60_000);
    expect(fresh.sla.breached).toBe(false);
    expect((await listed(v.id)).sla).toEqual(fresh.sla);

    await openedAgo(v.id, 45);
    const late = await conversation(v.id);
    expect(late.sla.breached).toBe(true);
    expect((await listed(v.id)).sla).toEqual(late.sla);

    // The first answer stops the first-response clock; the breach stays on record.
    const reply = await call(s.boss, 'POST', `/api/msg/conversations/${v.id}/messages/`, {
      message_type: 'text',
      content: 'On it',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const answered = await conversation(v.id);
    expect(answered.sla).toMatchObject({ first_response_due_at: null, breached: true });
    expect(answered.sla.resolution_due_at).not.toBeNull();
    // A group without targets: no deadlines.
    const plain = await visitorIn('sales');
    expect((await conversation(plain.id)).sla).toEqual({
      first_response_due_at: null,
      resolution_due_at: null,
      breached: false,
    });
    // The visitor never sees the team's targets.
    const mine = await app.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${v.token}` },
    });
    expect((mine.json().result as TConversation[])[0]!.sla).toEqual({
      first_response_due_at: null,
      resolution_due_at: null,
      breached: false,
    });
  });

  it('a breach writes one line per target and deadline and notifies the assignee, or the owners', async () => {
    const held = await visitorIn('support');
    const assign = await call(s.boss, 'PUT', `/api/msg/conversations/${held.id}/`, {
      assignee_id: s.agent.user.pk,
    });
    expect(assign.statusCode, assign.body).toBe(200);
    const loose = await visitorIn('support');
    await openedAgo(held.id, 40);
    await openedAgo(loose.id, 130);
    expect(await alertSlaBreaches(rt.services.db, new Date())).toBeGreaterThanOrEqual(3);
    expect(await alertSlaBreaches(rt.services.db, new Date())).toBe(0);
    const lines = (id: number) =>
      timeline(id).then((ms) =>
        ms.filter((m) => m.meta_data.action === 'sla_breached').map((m) => m.meta_data.target),
      );
    expect(await lines(held.id)).toEqual(['first_response']);
    expect((await lines(loose.id)).sort()).toEqual(['first_response', 'resolution']);

    const agentBell = await until(
      'the agent hears of the breach',
      async () => (await call(s.agent, 'GET', '/api/notifications/')).json().result as TNotificationPage,
      (p) => p.results.some((n) => n.type === 'sla_breach' && n.conversation_id === held.id),
    );
    expect(agentBell.results.filter((n) => n.type === 'sla_breach').map((n) => n.conversation_id)).toEqual([
      held.id,
    ]);
    const ownerBell = await until(
      'the owner hears of the unassigned breaches',
      async () => (await call(s.boss, 'GET', '/api/notifications/')).json().result as TNotificationPage,
      (p) => p.results.filter((n) => n.type === 'sla_breach' && n.conversation_id === loose.id).length === 2,
    );
    expect(ownerBell.results.find((n) => n.conversation_id === loose.id)?.title).toMatch(/target was missed/);
    expect(ownerBell.results.some((n) => n.conversation_id === held.id && n.type === 'sla_breach')).toBe(
      false,
    );
    // Another business hears nothing.
    const theirs = (await call(other.boss, 'GET', '/api/notifications/', undefined, other.shop)).json()
      .result as TNotificationPage;
    expect(theirs.results).toEqual([]);
  });
});

describe('CSAT', () => {
  it('asks the visitor once per resolve and keeps the rating given by token', async () => {
    const v = await visitorIn('support');
    const resolved = await call(s.boss, 'PUT', `/api/msg/conversations/${v.id}/`, { status: 'resolved' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    await rt.away.idle();
    const asked = await until(
      'the survey reaches the visitor',
      () => visitorSees(v),
      (ms) => ms.some((m) => m.meta_data.csat),
    );
    const surveys = asked.filter((m) => m.meta_data.csat);
    expect(surveys).toHaveLength(1);
    expect(surveys[0]).toMatchObject({
      sender_type: 'system',
      content: 'How would you rate this conversation?',
    });
    const token = (surveys[0]!.meta_data.csat as { token: string }).token;

    const bad = await app.inject({
      method: 'POST',
      url: `/api/public/csat/${token}/`,
      payload: { rating: 6 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toHaveProperty('rating');
    const unknown = await app.inject({
      method: 'POST',
      url: `/api/public/csat/${'x'.repeat(32)}/`,
      payload: { rating: 5 },
    });
    expect(unknown.statusCode).toBe(404);
    const rated = await app.inject({
      method: 'POST',
      url: `/api/public/csat/${token}/`,
      payload: { rating: 4, comment: 'Quick and kind' },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    expect(rated.json().result).toMatchObject({
      business: 'Targets Co',
      rating: 4,
      comment: 'Quick and kind',
    });
    const read = await app.inject({ method: 'GET', url: `/api/public/csat/${token}/` });
    expect(read.json().result).toMatchObject({ rating: 4 });

    // Reopened by the customer and resolved again: asked again, once.
    await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${v.id}/messages/`,
      headers: { authorization: `Visitor ${v.token}` },
      payload: { message_type: 'text', content: 'One more thing' },
    });
    await call(s.boss, 'PUT', `/api/msg/conversations/${v.id}/`, { status: 'resolved' });
    await until(
      'the second survey',
      () => visitorSees(v),
      (ms) => ms.filter((m) => m.meta_data.csat).length === 2,
    );
    await new Promise((r) => setTimeout(r, 200));
    await rt.away.idle();
    expect((await visitorSees(v)).filter((m) => m.meta_data.csat)).toHaveLength(2);
  });

  it('is not asked where the group does not ask', async () => {
    const v = await visitorIn('sales');
    await call(s.boss, 'PUT', `/api/msg/conversations/${v.id}/`, { status: 'resolved' });
    await new Promise((r) => setTimeout(r, 300));
    await rt.away.idle();
    expect((await visitorSees(v)).filter((m) => m.meta_data.csat)).toEqual([]);
  });
});

describe('the dashboard’s service levels', () => {
  it('answers first response, resolution and CSAT per member and per group; another business sees none of it', async () => {
    const v = await visitorIn('support');
    await call(s.boss, 'PUT', `/api/msg/conversations/${v.id}/`, { assignee_id: s.agent.user.pk });
    await call(s.agent, 'POST', `/api/msg/conversations/${v.id}/messages/`, {
      message_type: 'text',
      content: 'Hi',
    });
    await call(s.agent, 'PUT', `/api/msg/conversations/${v.id}/`, { status: 'resolved' });
    const asked = await until(
      'the survey',
      () => visitorSees(v),
      (ms) => ms.some((m) => m.meta_data.csat),
    );
    const token = (asked.find((m) => m.meta_data.csat)!.meta_data.csat as { token: string }).token;
    await app.inject({ method: 'POST', url: `/api/public/csat/${token}/`, payload: { rating: 5 } });

    const res = await call(s.boss, 'GET', '/api/metrics/engage/');
    expect(res.statusCode, res.body).toBe(200);
    const team = res.json().result.team as {
      members: {
        user_id: number;
        name: string;
        conversations: number;
        first_response_seconds: number | null;
        resolution_seconds: number | null;
        csat_average: number | null;
        csat_responses: number;
      }[];
      groups: { chat_group_id: number; name: string; csat_average: number | null; csat_responses: number }[];
    };
    const agent = team.members.find((m) => m.user_id === s.agent.user.pk)!;
    expect(agent).toMatchObject({ csat_average: 5, csat_responses: 1 });
    expect(agent.conversations).toBeGreaterThanOrEqual(2);
    expect(agent.first_response_seconds).not.toBeNull();
    expect(agent.resolution_seconds).not.toBeNull();
    // The group: this rating and the 4 of the CSAT test.
    expect(team.groups.find((g) => g.chat_group_id === groups.support)).toMatchObject({
      name: 'support',
      csat_average: 4.5,
      csat_responses: 2,
    });
    const theirs = await call(other.boss, 'GET', '/api/metrics/engage/', undefined, other.shop);
    expect(theirs.json().result.team).toEqual({ members: [], groups: [] });
  });
});
