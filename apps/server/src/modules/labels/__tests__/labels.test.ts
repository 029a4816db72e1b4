// Labels (issue 29, next-api.md "Team inbox"): a business's own labels, on conversations (PUT and
// bulk), on customers (the directory), the `label=` filters, the activity lines and the realtime
// feed, and the boundaries: another business's label is 404 naming the field with nothing written,
// a duplicate name is 400, agents use labels on what they can see and do not manage them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LABEL_ERRORS, ZConversation, ZDirectoryVisitor, ZEnvelope, ZLabel, ZPage } from '@titan/contracts';
import type { TConversation, TLabel, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { authenticated, type WsClient } from '../../../testing/ws-client';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;
let url: string;
let inSupport: number, inSales: number, noGroup: number;
let vera: number;
let theirs: { label: TLabel; conversation: number };
const clients: WsClient[] = [];

const conversationsOf = async (customerId: number) => {
  const rows = await rt.database.query<{ id: string }>(
    `select id from conversations where initiator_id = $1 order by id`,
    [customerId],
  );
  return rows.map((r) => Number(r.id));
};

const call = (who: Session, method: string, path: string, payload?: object, shop = s.shop) =>
  app.inject({ method: method as 'GET', url: path, headers: as(who, shop), ...(payload ? { payload } : {}) });

const createLabel = async (name: string, color = '#3b82f6', who = s.boss, shop = s.shop) => {
  const res = await call(who, 'POST', '/api/msg/labels/', { name, color }, shop);
  expect(res.statusCode, res.body).toBe(201);
  return ZEnvelope(ZLabel.strict()).parse(res.json()).result;
};
const conversation = async (id: number, who = s.boss) => {
  const res = await call(who, 'GET', `/api/msg/conversations/${id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return ZEnvelope(ZConversation.strict()).parse(res.json()).result;
};
const list = async (query: string, who = s.boss) => {
  const res = await call(who, 'GET', `/api/msg/conversations/?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const page = ZEnvelope(ZPage(ZConversation.strict())).parse(res.json()).result;
  return { count: page.count, ids: page.results.map((c) => c.id).sort((a, b) => a - b), rows: page.results };
};
const activity = async (id: number) => {
  const res = await call(s.boss, 'GET', `/api/msg/conversations/${id}/messages/`);
  return (res.json().result as TMessage[]).filter(
    (m) => m.message_type === 'activity' && m.meta_data.action === 'labelled',
  );
};
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
  s = await scopedBusiness(app, rt.mailer, 'Label Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Label Co');
  vera = await s.visitor('Vera', ['support', 'sales', null]);
  [inSupport, inSales, noGroup] = (await conversationsOf(vera)) as [number, number, number];
  const olga = await other.visitor('Olga', [null]);
  theirs = {
    label: await createLabel('Billing', '#ef4444', other.boss, other.shop),
    conversation: (await conversationsOf(olga))[0]!,
  };
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.destroy();
});

describe('managing labels', () => {
  it('creates, lists by name, renames, recolours and removes a label', async () => {
    const vip = await createLabel('VIP', '#22C55E');
    expect(vip).toMatchObject({ name: 'VIP', color: '#22c55e' });
    await createLabel('Billing', '#ef4444'); // another business's name is free here
    const listed = await call(s.boss, 'GET', '/api/msg/labels/');
    expect(listed.statusCode).toBe(200);
    expect((listed.json().result as TLabel[]).map((l) => l.name)).toEqual(['Billing', 'VIP']);
    const renamed = await call(s.boss, 'PUT', `/api/msg/labels/${vip.id}/`, {
      name: 'Gold',
      color: '#eab308',
    });
    expect(renamed.json().result).toMatchObject({ id: vip.id, name: 'Gold', color: '#eab308' });
    const gone = await call(s.boss, 'DELETE', `/api/msg/labels/${vip.id}/`);
    expect(gone.statusCode).toBe(200);
    expect((await call(s.boss, 'GET', '/api/msg/labels/')).json().result.map((l: TLabel) => l.name)).toEqual([
      'Billing',
    ]);
  });

  it('refuses a duplicate name (any case) and a bad colour with field messages', async () => {
    const dup = await call(s.boss, 'POST', '/api/msg/labels/', { name: 'billing', color: '#000000' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result).toEqual({ name: [LABEL_ERRORS.nameTaken] });
    const spam = await createLabel('Spam');
    const renamed = await call(s.boss, 'PUT', `/api/msg/labels/${spam.id}/`, { name: 'BILLING' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().result).toEqual({ name: [LABEL_ERRORS.nameTaken] });
    const colour = await call(s.boss, 'POST', '/api/msg/labels/', { name: 'Red', color: 'red' });
    expect(colour.statusCode).toBe(400);
    expect(colour.json().result).toEqual({ color: [LABEL_ERRORS.badColor] });
    const unknown = await call(s.boss, 'GET', '/api/msg/labels/?x=1');
    expect(unknown.statusCode).toBe(400);
  });

  it("answers 404 for another business's label, and leaves it as it was", async () => {
    expect(
      (await call(s.boss, 'PUT', `/api/msg/labels/${theirs.label.id}/`, { name: 'Mine' })).statusCode,
    ).toBe(404);
    expect((await call(s.boss, 'DELETE', `/api/msg/labels/${theirs.label.id}/`)).statusCode).toBe(404);
    const still = await call(other.boss, 'GET', '/api/msg/labels/', undefined, other.shop);
    expect(still.json().result).toEqual([theirs.label]);
  });

  it('lets agents read the labels but not manage them', async () => {
    expect((await call(s.agent, 'GET', '/api/msg/labels/')).statusCode).toBe(200);
    expect(
      (await call(s.agent, 'POST', '/api/msg/labels/', { name: 'Agent', color: '#000000' })).statusCode,
    ).toBe(403);
  });
});

describe('labels on conversations', () => {
  let urgent: TLabel, refund: TLabel;
  beforeAll(async () => {
    urgent = await createLabel('Urgent', '#f97316');
    refund = await createLabel('Refund', '#8b5cf6');
  });

  it('sets the labels of one conversation, answers them by name and leaves one activity line per change', async () => {
    const res = await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, {
      label_ids: [urgent.id, refund.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZEnvelope(ZConversation.strict()).parse(res.json()).result;
    expect(body.labels).toEqual([
      { id: refund.id, name: 'Refund', color: '#8b5cf6' },
      { id: urgent.id, name: 'Urgent', color: '#f97316' },
    ]);
    // The same set again changes nothing and says nothing.
    await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, { label_ids: [refund.id, urgent.id] });
    await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, { label_ids: [urgent.id] });
    const lines = await activity(noGroup);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.meta_data).toMatchObject({
      action: 'labelled',
      actor: { id: s.boss.user.pk },
      added: [{ id: refund.id }, { id: urgent.id }],
      removed: [],
    });
    expect(lines[0]!.content).toContain('labelled this conversation Refund, Urgent');
    expect(lines[1]!.meta_data).toMatchObject({ added: [], removed: [{ id: refund.id, name: 'Refund' }] });
    expect(lines[1]!.content).toContain('removed the label Refund');
    expect((await conversation(noGroup)).labels.map((l) => l.id)).toEqual([urgent.id]);
  });

  it('filters the list by label, repeatable (every one of them), and counts what it shows', async () => {
    await call(s.boss, 'PUT', `/api/msg/conversations/${inSales}/`, { label_ids: [urgent.id, refund.id] });
    const one = await list(`label=${urgent.id}`);
    expect(one.ids).toEqual(sorted([inSales, noGroup]));
    expect(one.count).toBe(2);
    expect(one.rows.find((r) => r.id === inSales)!.labels.map((l) => l.name)).toEqual(['Refund', 'Urgent']);
    const both = await list(`label=${urgent.id}&label=${refund.id}`);
    expect(both).toMatchObject({ ids: [inSales], count: 1 });
    // Combined with the other filters, and with a label of another business: no rows, not an error.
    expect((await list(`label=${urgent.id}&assigned_chat_group=none`)).ids).toEqual([noGroup]);
    expect((await list(`label=${theirs.label.id}`)).count).toBe(0);
    const bad = await call(s.boss, 'GET', '/api/msg/conversations/?label=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toHaveProperty('label');
  });

  it("refuses another business's label with 404 naming label_ids, writing nothing", async () => {
    const before = await conversation(noGroup);
    const res = await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, {
      status: 'resolved',
      label_ids: [refund.id, theirs.label.id],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().result).toEqual({ label_ids: [LABEL_ERRORS.noSuchLabel] });
    expect(await conversation(noGroup)).toEqual(before);
    expect(await activity(noGroup)).toHaveLength(2);
    // Nor can another business label this business's conversation.
    const foreign = await call(
      other.boss,
      'PUT',
      `/api/msg/conversations/${noGroup}/`,
      { label_ids: [theirs.label.id] },
      other.shop,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('adds labels in bulk (keeping those they carry), all or none', async () => {
    const res = await call(s.boss, 'POST', '/api/msg/conversations/bulk/', {
      ids: [inSupport, inSales],
      label_ids: [refund.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.updated).toEqual(sorted([inSupport, inSales]));
    expect((await conversation(inSupport)).labels.map((l) => l.id)).toEqual([refund.id]);
    expect((await conversation(inSales)).labels.map((l) => l.id)).toEqual([refund.id, urgent.id]);
    // inSales already had it: only inSupport has a new line.
    expect(await activity(inSupport)).toHaveLength(1);
    expect(await activity(inSales)).toHaveLength(1);

    const foreignLabel = await call(s.boss, 'POST', '/api/msg/conversations/bulk/', {
      ids: [inSupport, noGroup],
      status: 'resolved',
      label_ids: [urgent.id, theirs.label.id],
    });
    expect(foreignLabel.statusCode).toBe(404);
    expect(foreignLabel.json().result).toEqual({ label_ids: [LABEL_ERRORS.noSuchLabel] });
    expect((await conversation(inSupport)).labels.map((l) => l.id)).toEqual([refund.id]);
    expect((await conversation(inSupport)).status).toBe('active');
    const foreignConversation = await call(s.boss, 'POST', '/api/msg/conversations/bulk/', {
      ids: [inSupport, theirs.conversation],
      label_ids: [urgent.id],
    });
    expect(foreignConversation.statusCode).toBe(404);
    expect(foreignConversation.json().result).toHaveProperty('ids');
    expect((await conversation(inSupport)).labels.map((l) => l.id)).toEqual([refund.id]);
  });

  it('lets an agent label the conversations they can see, and no others', async () => {
    const own = await call(s.agent, 'PUT', `/api/msg/conversations/${inSupport}/`, {
      label_ids: [refund.id, urgent.id],
    });
    expect(own.statusCode, own.body).toBe(200);
    expect((await activity(inSupport)).at(-1)!.meta_data.actor).toMatchObject({ id: s.agent.user.pk });
    const hidden = await call(s.agent, 'PUT', `/api/msg/conversations/${inSales}/`, { label_ids: [] });
    expect(hidden.statusCode).toBe(404);
    expect((await conversation(inSales)).labels).toHaveLength(2);
    const bulk = await call(s.agent, 'POST', '/api/msg/conversations/bulk/', {
      ids: [inSupport, inSales],
      label_ids: [urgent.id],
    });
    expect(bulk.statusCode).toBe(404);
    // The agent's filtered list holds only what they see.
    expect((await list(`label=${urgent.id}`, s.agent)).ids).toEqual(sorted([inSupport, noGroup]));
  });

  it('leaves every conversation when a label is removed', async () => {
    const temp = await createLabel('Temporary');
    await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, { label_ids: [urgent.id, temp.id] });
    expect((await call(s.boss, 'DELETE', `/api/msg/labels/${temp.id}/`)).statusCode).toBe(200);
    expect((await conversation(noGroup)).labels.map((l) => l.id)).toEqual([urgent.id]);
    const filtered = await list(`label=${temp.id}`);
    expect(filtered.count).toBe(0);
  });

  it('tells staff on the conversations topic, filtered by label', async () => {
    const ws = await authenticated(url, s.boss.access);
    clients.push(ws);
    ws.send({
      type: 'subscribe',
      id: 'refunds',
      topic: 'conversations',
      business_code: s.shop.unique_code,
      filter: { label: [refund.id] },
    });
    await ws.next((m) => m.type === 'subscribed');
    await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, { label_ids: [refund.id] });
    const joined = await ws.next((m) => m.type === 'change' && m.sub === 'refunds');
    expect(joined).toMatchObject({ new: { id: noGroup, labels: [{ id: refund.id }] }, matches: true });
    await call(s.boss, 'PUT', `/api/msg/conversations/${noGroup}/`, { label_ids: [] });
    const left = await ws.next((m) => m.type === 'change' && m.sub === 'refunds');
    expect(left).toMatchObject({ new: { id: noGroup, labels: [] }, matches: false });
    expect((left.new as TConversation).labels).toEqual([]);
  });
});

describe('labels on customers', () => {
  it("sets a customer's labels, shows them in the directory and filters by them", async () => {
    const vip = await createLabel('Customer VIP', '#ec4899');
    const res = await call(s.boss, 'PUT', `/api/business/customer-directory/${vera}/`, {
      label_ids: [vip.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZEnvelope(ZDirectoryVisitor.strict()).parse(res.json()).result.labels).toEqual([
      { id: vip.id, name: 'Customer VIP', color: '#ec4899' },
    ]);
    const ann = await s.visitor('Ann', [null]);
    const page = await call(s.boss, 'GET', `/api/business/customer-directory/?label=${vip.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().result.results.map((c: { id: number }) => c.id)).toEqual([vera]);
    expect(page.json().result.count).toBe(1);
    const all = await call(s.boss, 'GET', '/api/business/customer-directory/');
    const annRow = all.json().result.results.find((c: { id: number }) => c.id === ann);
    expect(annRow.labels).toEqual([]);
    // An agent reads the labels of the customers they can see, and filters by them.
    const agentPage = await call(s.agent, 'GET', `/api/business/customer-directory/?label=${vip.id}`);
    expect(agentPage.json().result.results.map((c: { id: number }) => c.id)).toEqual([vera]);
  });

  it("refuses another business's label with 404 naming label_ids, writing nothing", async () => {
    const before = (await call(s.boss, 'GET', `/api/business/customer-directory/${vera}/`)).json().result;
    const res = await call(s.boss, 'PUT', `/api/business/customer-directory/${vera}/`, {
      name: 'Renamed',
      label_ids: [theirs.label.id],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().result).toEqual({ label_ids: [LABEL_ERRORS.noSuchLabel] });
    const after = (await call(s.boss, 'GET', `/api/business/customer-directory/${vera}/`)).json().result;
    expect(after).toEqual(before);
  });
});
