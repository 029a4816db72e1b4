// Snooze (issue 29): PUT …/{id}/ with snoozed_until sets status snoozed (never listed by
// ?status=active); it returns to active at that time (the wake-up job, once even when two run at
// once) or when the customer writes, each with an activity line; a visitor never sees a snooze.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { TConversation, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { wakeSnoozedConversations } from '../snooze';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;

async function visitorConversation(b: ScopedBusiness) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.shop.unique_code, name: 'Sleepy' },
  });
  const { token } = res.json().result as { token: string };
  const auth = { authorization: `Visitor ${token}` };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: auth,
    payload: {},
  });
  return { auth, conversation: started.json().result as TConversation };
}

const put = (id: number, payload: object, b = s) =>
  app.inject({ method: 'PUT', url: `/api/msg/conversations/${id}/`, headers: as(b.boss, b.shop), payload });
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
const listIds = async (query: string) =>
  (
    (
      await app.inject({
        method: 'GET',
        url: `/api/msg/conversations/?${query}`,
        headers: as(s.boss, s.shop),
      })
    ).json().result.results as TConversation[]
  ).map((c) => c.id);
const activity = async (id: number) =>
  (
    (
      await app.inject({
        method: 'GET',
        url: `/api/msg/conversations/${id}/messages/`,
        headers: as(s.boss, s.shop),
      })
    ).json().result as TMessage[]
  )
    .filter((m) => m.message_type === 'activity')
    .map((m) => (m.meta_data as { action: string }).action);
/** Moves a snooze's end into the past, as time passing would. */
const expire = (id: number) =>
  rt.database.db.execute(
    sql`update conversations set snoozed_until = now() - interval '1 minute' where id = ${id}`,
  );

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  s = await scopedBusiness(app, rt.mailer, 'Snooze Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Snooze Co');
});
afterAll(async () => {
  await rt.destroy();
});

describe('snooze', () => {
  it('snoozes until a time: status snoozed, kept out of ?status=active, an activity line', async () => {
    const { conversation } = await visitorConversation(s);
    const until = inAnHour();
    const res = await put(conversation.id, { snoozed_until: until });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      status: 'snoozed',
      snoozed_until: new Date(until).toISOString(),
    });
    expect(await listIds('status=active')).not.toContain(conversation.id);
    expect(await listIds('status=snoozed')).toContain(conversation.id);
    expect(await activity(conversation.id)).toContain('snoozed');
  });

  it('wakes at its time, once, even with two wake-ups at once', async () => {
    const { conversation } = await visitorConversation(s);
    await put(conversation.id, { snoozed_until: inAnHour() });
    await expire(conversation.id);
    const db = rt.database.db;
    const [a, b] = await Promise.all([
      wakeSnoozedConversations(db, new Date()),
      wakeSnoozedConversations(db, new Date()),
    ]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const after = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: as(s.boss, s.shop),
    });
    expect(after.json().result).toMatchObject({ status: 'active', snoozed_until: null });
    expect((await activity(conversation.id)).filter((x) => x === 'snooze_ended')).toHaveLength(1);
  });

  it('wakes when the customer writes; the visitor never sees the snooze', async () => {
    const { auth, conversation } = await visitorConversation(s);
    await put(conversation.id, { snoozed_until: inAnHour() });
    const seen = await app.inject({ method: 'GET', url: '/api/public/conversations/', headers: auth });
    const mine = (seen.json().result as TConversation[]).find((c) => c.id === conversation.id);
    expect(mine).toMatchObject({ status: 'active', snoozed_until: null });
    await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: auth,
      payload: { content: 'Are you there?' },
    });
    expect(await listIds('status=active')).toContain(conversation.id);
  });

  it('ends a snooze by status or by snoozed_until null', async () => {
    const { conversation } = await visitorConversation(s);
    await put(conversation.id, { snoozed_until: inAnHour() });
    const woke = await put(conversation.id, { snoozed_until: null });
    expect(woke.json().result).toMatchObject({ status: 'active', snoozed_until: null });
    await put(conversation.id, { snoozed_until: inAnHour() });
    const resolved = await put(conversation.id, { status: 'resolved' });
    expect(resolved.json().result).toMatchObject({ status: 'resolved', snoozed_until: null });
  });

  it('refuses bad input with 400 naming the field, and other businesses with 404', async () => {
    const { conversation } = await visitorConversation(s);
    for (const [payload, field] of [
      [{ snoozed_until: 'tomorrow' }, 'snoozed_until'],
      [{ snoozed_until: new Date(Date.now() - 60_000).toISOString() }, 'snoozed_until'],
      [{ status: 'snoozed' }, 'snoozed_until'],
      [{ status: 'active', snoozed_until: inAnHour() }, 'status'],
    ] as const) {
      const res = await put(conversation.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(field);
    }
    const bulk = await app.inject({
      method: 'POST',
      url: '/api/msg/conversations/bulk/',
      headers: as(s.boss, s.shop),
      payload: { ids: [conversation.id], status: 'snoozed' },
    });
    expect(bulk.statusCode).toBe(400);
    const foreign = await put(conversation.id, { snoozed_until: inAnHour() }, other);
    expect(foreign.statusCode).toBe(404);
  });
});
