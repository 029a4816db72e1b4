// The directory at scale: search by fragments (rare, common, phone-like, short), the CSV export (content,
// consent, the injection guard, lists and segments, many rows), a visitor's conversations and sends,
// and another business refused on each of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  DIRECTORY_COUNT_CAP,
  DIRECTORY_EXPORT_COLUMNS,
  type TBusiness,
  type TDirectoryVisitor,
} from '@titan/contracts';
import { parseCsv } from '../../../testing/csv';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: Session;
let otherBusiness: TBusiness;
let alice: number;
let mallory: number;
let aliceConversation: number;

const BASE = '/api/business/customer-directory/';

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Scale Co');
  other = await signUp(app, rt.mailer);
  otherBusiness = await createBusiness(app, other, 'Elsewhere Ltd');

  const visitor = async (b: TBusiness, payload: Record<string, unknown>) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: b.unique_code, ...payload },
    });
    expect(res.statusCode).toBe(201);
    return res.json().result as { customer: { id: number }; token: string };
  };
  const a = await visitor(business, {
    name: 'Alice Archer',
    email: 'alice@example.test',
    fields: { plan: 'pro', note: 'likes "quotes", commas' },
  });
  alice = a.customer.id;
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${a.token}` },
    payload: {},
  });
  aliceConversation = started.json().result.id;
  mallory = (await visitor(business, { name: '=HYPERLINK("http://evil.test","x")', email: 'm@evil.test' }))
    .customer.id;
  await visitor(otherBusiness, { name: 'Zed Elsewhere', email: 'zed@elsewhere.test' });
  const consent = await app.inject({
    method: 'PUT',
    url: `${BASE}${alice}/`,
    headers: as(owner, business),
    payload: { phone: '+14155550123', email_status: 'subscribed', sms_status: 'unsubscribed' },
  });
  expect(consent.statusCode).toBe(200);
});
afterAll(() => rt.destroy());

async function businessIdOf(b: TBusiness): Promise<number> {
  const rows = await rt.database.query<{ id: string }>('select id from businesses where unique_code = $1', [
    b.unique_code,
  ]);
  return Number(rows[0]!.id);
}

const get = (url: string, s: Session = owner, b: TBusiness = business) =>
  app.inject({ method: 'GET', url, headers: as(s, b) });

const byColumn = (rows: string[][]) =>
  rows.slice(1).map((r) => Object.fromEntries(DIRECTORY_EXPORT_COLUMNS.map((c, i) => [c, r[i]])));

describe('directory CSV export', () => {
  it('streams every visitor with consent, fields as JSON, and formulas defused, as a named attachment', async () => {
    const res = await get(`${BASE}download/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="visitors-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([...DIRECTORY_EXPORT_COLUMNS]);
    const records = byColumn(rows);
    expect(records.map((r) => r.id)).toEqual([String(alice), String(mallory)]);
    const a = records[0]!;
    expect(a).toMatchObject({
      name: 'Alice Archer',
      email: 'alice@example.test',
      // A leading + would start a formula in a spreadsheet: the cell is kept as text.
      phone: "'+14155550123",
      email_status: 'subscribed',
      sms_status: 'unsubscribed',
      whatsapp_status: 'unknown',
      last_seen_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(JSON.parse(a.fields!)).toEqual({ plan: 'pro', note: 'likes "quotes", commas' });
    expect(records[1]!.name).toBe(`'=HYPERLINK("http://evil.test","x")`);
    expect(records[1]!.fields).toBe('');
    // Never another business's visitors.
    expect(res.body).not.toContain('Elsewhere');
  });

  it('exports a search, a static list and a segment; a list of another business is 404', async () => {
    const searched = byColumn(parseCsv((await get(`${BASE}download/?search=evil`)).body));
    expect(searched.map((r) => r.id)).toEqual([String(mallory)]);

    const list = await app.inject({
      method: 'POST',
      url: '/api/business/customer-lists/',
      headers: as(owner, business),
      payload: { name: 'Spring Launch ✿', kind: 'static' },
    });
    const listId = list.json().result.id;
    await app.inject({
      method: 'POST',
      url: `/api/business/customer-lists/${listId}/members/`,
      headers: as(owner, business),
      payload: { customer_ids: [mallory] },
    });
    const fromList = await get(`${BASE}download/?list_id=${listId}`);
    expect(fromList.headers['content-disposition']).toMatch(
      /filename="visitors-spring-launch-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(byColumn(parseCsv(fromList.body)).map((r) => r.id)).toEqual([String(mallory)]);

    const segment = await app.inject({
      method: 'POST',
      url: '/api/business/customer-lists/',
      headers: as(owner, business),
      payload: { name: 'Subscribed', kind: 'segment', filter: { email_status: 'subscribed' } },
    });
    const fromSegment = byColumn(
      parseCsv((await get(`${BASE}download/?list_id=${segment.json().result.id}`)).body),
    );
    expect(fromSegment.map((r) => r.id)).toEqual([String(alice)]);

    expect((await get(`${BASE}download/?list_id=${listId}`, other, otherBusiness)).statusCode).toBe(404);
    const bad = await get(`${BASE}download/?list_id=abc`);
    expect(bad.statusCode).toBe(400);
  });

  it('is for owners and admins: agents and API keys are refused', async () => {
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await get(`${BASE}download/`, agent)).statusCode).toBe(403);
    const admin = await addMember(app, rt.mailer, owner, business, 'admin');
    expect((await get(`${BASE}download/`, admin)).statusCode).toBe(200);
  });

  it('streams thousands of rows in id order, each once', async () => {
    const shop = await createBusiness(app, owner, 'Many Rows Co');
    const shopId = await businessIdOf(shop);
    await rt.database.query(
      `insert into customers (business_id, name, email, created_at)
       select $1, 'Reader ' || g, 'reader' || g || '@many.test', now() - g * interval '1 minute'
       from generate_series(1, 4500) g`,
      [shopId],
    );
    const res = await get(`${BASE}download/`, owner, shop);
    const records = byColumn(parseCsv(res.body));
    expect(records).toHaveLength(4500);
    const ids = records.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(records.map((r) => r.email)).size).toBe(4500);
  });
});

describe('directory search at scale', () => {
  let shop: TBusiness;
  const names = (page: { results: TDirectoryVisitor[] }) => page.results.map((v) => v.name);
  /** The g of each "Person <g> …" found. */
  const numbers = (page: { results: TDirectoryVisitor[] }) =>
    page.results.map((v) => Number(v.name!.split(' ')[1]));
  const search = async (q: string, extra = '') =>
    (await get(`${BASE}?search=${encodeURIComponent(q)}${extra}`, owner, shop)).json().result;

  beforeAll(async () => {
    shop = await createBusiness(app, owner, 'Twelve Thousand Co');
    const id = await businessIdOf(shop);
    // 12,000 customers, newest = highest g. "oldtimer": 5 among the oldest; "densefrag": every
    // 8th (1,500); "midfrag": every other one of the oldest 2,200 (1,100).
    await rt.database.query(
      `insert into customers (business_id, name, email, phone, created_at)
       select $1,
         'Person ' || g || case when g <= 5 then ' oldtimer' else '' end
           || case when g % 8 = 0 then ' densefrag' else '' end
           || case when g <= 2200 and g % 2 = 0 then ' midfrag' else '' end,
         'p' || g || '@scale.test', '+1415' || lpad(g::text, 7, '0'),
         timestamptz '2026-01-01' + g * interval '1 minute'
       from generate_series(1, 12000) g`,
      [id],
    );
  });

  it('finds name, email and phone fragments, case-insensitively, counting exactly', async () => {
    expect(numbers(await search('OLDTIMER'))).toEqual([5, 4, 3, 2, 1]);
    expect(await search('oldtimer')).toMatchObject({ count: 5, count_capped: false, next: null });
    expect(names(await search('p11999@scale'))).toEqual(['Person 11999']);
    // The phone as people type it finds the digits as stored.
    expect(names(await search('0011 998'))).toEqual(['Person 11998']);
    expect(names(await search('4150011997'))).toEqual(['Person 11997']);
    expect(await search('nobody-here')).toMatchObject({ count: 0, count_capped: false, results: [] });
  });

  it('caps the count of a common fragment and still pages on, newest first', async () => {
    const dense = await search('densefrag', '&page_size=5');
    expect(dense).toMatchObject({ count: DIRECTORY_COUNT_CAP, count_capped: true, next: 2 });
    expect(names(dense)).toEqual([12000, 11992, 11984, 11976, 11968].map((g) => `Person ${g} densefrag`));

    // 1,100 matches: deep pages follow on.
    const mid1 = await search('midfrag', '&page_size=20');
    expect(mid1).toMatchObject({ count: DIRECTORY_COUNT_CAP, count_capped: true, next: 2, previous: null });
    expect(numbers(mid1)[0]).toBe(2200);
    const mid6 = await search('midfrag', '&page_size=20&page=6');
    expect(mid6).toMatchObject({ count_capped: true, next: 7, previous: 5 });
    // Page 6 holds matches 101–120: g = 2200 - 2 * 100 … 2200 - 2 * 119.
    expect(numbers(mid6)).toEqual(Array.from({ length: 20 }, (_, i) => 2000 - 2 * i));
  });

  it('a one- or two-character fragment works too', async () => {
    expect(await search('p5@')).toMatchObject({ count: 1 });
    const short = await search('9', '&page_size=3');
    expect(short).toMatchObject({ count: DIRECTORY_COUNT_CAP, count_capped: true, next: 2 });
  });

  it('caps the count without a search too, and pages to the last row', async () => {
    expect(await search('', '&page_size=1')).toMatchObject({
      count: DIRECTORY_COUNT_CAP,
      count_capped: true,
      next: 2,
    });
    const last = await search('', '&page_size=100&page=120');
    expect(numbers(last).at(-1)).toBe(1);
    expect(last).toMatchObject({ next: null, previous: 119 });
  });
});

describe("a visitor's conversations and sends", () => {
  it('lists the conversations they started and the messages sent to them, newest first', async () => {
    const conversations = (await get(`${BASE}${alice}/conversations/`)).json().result;
    expect(conversations).toMatchObject({ count: 1, next: null });
    expect(conversations.results[0]).toMatchObject({
      id: aliceConversation,
      channel: 'titan_message',
      status: 'active',
    });

    const businessId = await businessIdOf(business);
    await rt.database.query(
      `insert into sends (business_id, channel, cause, customer_id, recipient, subject, status, created_at)
       values ($1, 'email', 'broadcast', $2, 'alice@example.test', 'Spring is here', 'opened', now() - interval '2 hours'),
              ($1, 'sms', 'broadcast', $2, '+14155550123', null, 'delivered', now() - interval '1 hour'),
              ($1, 'whatsapp', 'template_send', $2, '14155550123', null, 'failed', now()),
              ($1, 'email', 'broadcast', $3, 'm@evil.test', 'Not Alice''s', 'sent', now())`,
      [businessId, alice, mallory],
    );
    const sends = (await get(`${BASE}${alice}/sends/`)).json().result;
    expect(sends.count).toBe(3);
    expect(sends.results.map((s: { channel: string; status: string }) => [s.channel, s.status])).toEqual([
      ['whatsapp', 'error'],
      ['sms', 'delivered'],
      ['email', 'opened'],
    ]);
    expect(sends.results[2]).toMatchObject({ subject: 'Spring is here', to: 'alice@example.test' });
    const emails = (await get(`${BASE}${alice}/sends/?channel=email&page_size=1`)).json().result;
    expect(emails).toMatchObject({ count: 1, next: null });
    expect((await get(`${BASE}${alice}/sends/?channel=fax`)).statusCode).toBe(400);
  });

  it('refuses another business on every route', async () => {
    for (const path of [`${alice}/`, `${alice}/conversations/`, `${alice}/sends/`]) {
      expect((await get(`${BASE}${path}`, other, otherBusiness)).statusCode, path).toBe(404);
    }
    const theirs = await get(`${BASE}download/`, other, otherBusiness);
    expect(theirs.statusCode).toBe(200);
    const rows = byColumn(parseCsv(theirs.body));
    expect(rows.map((r) => r.name)).toEqual(['Zed Elsewhere']);
    const searched = (await get(`${BASE}?search=alice`, other, otherBusiness)).json().result;
    expect(searched.count).toBe(0);
  });
});

describe("an agent's view of a visitor's activity", () => {
  it('shows an agent only the conversations and sends their inbox shows', async () => {
    const boss = await signUp(app, rt.mailer);
    const shop = await createBusiness(app, boss, 'Agent Scope Co');
    const group = async (slug: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/msg/chat-groups/',
          headers: as(boss, shop),
          payload: { name: slug, slug },
        })
      ).json().result.id as number;
    const support = await group('support');
    await group('sales');
    const agent = await addMember(app, rt.mailer, boss, shop, 'agent');
    await app.inject({
      method: 'POST',
      url: `/api/msg/chat-groups/${support}/users/`,
      headers: as(boss, shop),
      payload: { user_id: agent.user.pk },
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: shop.unique_code, name: 'Two Desks', email: 'two@desks.test' },
    });
    const { customer, token } = created.json().result;
    const conversationIds: number[] = [];
    for (const slug of ['support', 'sales']) {
      const started = await app.inject({
        method: 'POST',
        url: '/api/public/conversations/',
        headers: { authorization: `Visitor ${token}` },
        payload: { group_slug: slug },
      });
      conversationIds.push(started.json().result.id);
    }
    await rt.database.query(
      `insert into sends (business_id, channel, cause, customer_id, conversation_id, recipient, status)
       values ($1, 'titan_message', 'staff_reply', $2, $3, $5, 'sent'),
              ($1, 'titan_message', 'staff_reply', $2, $4, $5, 'sent'),
              ($1, 'email', 'broadcast', $2, null, 'two@desks.test', 'sent')`,
      [await businessIdOf(shop), customer.id, conversationIds[0], conversationIds[1], String(customer.id)],
    );

    const asBoss = (await get(`${BASE}${customer.id}/conversations/`, boss, shop)).json().result;
    expect(asBoss.count).toBe(2);
    const asAgent = (await get(`${BASE}${customer.id}/conversations/`, agent, shop)).json().result;
    expect(asAgent.results.map((c: { id: number }) => c.id)).toEqual([conversationIds[0]]);
    expect((await get(`${BASE}${customer.id}/sends/`, boss, shop)).json().result.count).toBe(3);
    // A send outside the agent's conversations (another group's, or to a bare address) is not theirs.
    const agentSends = (await get(`${BASE}${customer.id}/sends/`, agent, shop)).json().result;
    expect(agentSends.results.map((s: { conversation_id: number | null }) => s.conversation_id)).toEqual([
      conversationIds[0],
    ]);
  });
});
