// Customer lists: static lists and segments, counted live, members through the API, walked in
// id order for sends; another business's lists and customers refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  CUSTOMER_LIST_ERRORS,
  DATE_MESSAGE,
  type TBusiness,
  type TCustomerList,
  type TDirectoryVisitor,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { scopedBusiness } from '../../../testing/inbox-scope';
import { customerLists } from '../../../db/schema';
import { walkListCustomers } from '../customer-lists.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness; customer: number };
const people = { ada: 0, bob: 0, cy: 0 };

async function visitor(
  b: TBusiness,
  name: string,
  email: string | null,
  fields: Record<string, unknown> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, ...(email ? { email } : {}), fields },
  });
  expect(res.statusCode).toBe(201);
  return res.json().result.customer.id as number;
}

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Lists Co');
  people.ada = await visitor(business, 'Ada Lovelace', 'ada@example.test', { plan: 'pro' });
  people.bob = await visitor(business, 'Bob Baker', 'bob@shop.test', { plan: 'free' });
  people.cy = await visitor(business, 'Cy Nomail', null, { plan: 'pro' });
  const otherOwner = await signUp(app, rt.mailer);
  const otherBusiness = await createBusiness(app, otherOwner, 'Other Co');
  other = {
    owner: otherOwner,
    business: otherBusiness,
    customer: await visitor(otherBusiness, 'Olga Other', 'olga@other.test', { plan: 'pro' }),
  };
});
afterAll(() => rt.destroy());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  s = owner,
  b = business,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });
const base = '/api/business/customer-lists/';

describe('customer lists', () => {
  it('creates a static list, adds and removes members, counts them and pages them', async () => {
    const res = await call('POST', base, { name: 'VIPs', description: 'Our best' });
    expect(res.statusCode).toBe(201);
    const list: TCustomerList = res.json().result;
    expect(list).toMatchObject({ name: 'VIPs', kind: 'static', filter: null, member_count: 0 });
    const added = await call('POST', `${base}${list.id}/members/`, {
      customer_ids: [people.ada, people.bob, people.ada],
    });
    expect(added.json().result).toEqual({ added: 2, removed: 0 });
    // Adding again adds nothing new.
    expect(
      (await call('POST', `${base}${list.id}/members/`, { customer_ids: [people.ada] })).json().result.added,
    ).toBe(0);
    expect((await call('GET', `${base}${list.id}/`)).json().result.member_count).toBe(2);
    const members = (await call('GET', `${base}${list.id}/members/?page_size=1`)).json().result;
    expect(members.count).toBe(2);
    expect(members.next).toBe(2);
    expect(members.results.map((v: TDirectoryVisitor) => v.name)).toEqual(['Bob Baker']);
    const removed = await call('POST', `${base}${list.id}/members/remove/`, { customer_ids: [people.bob] });
    expect(removed.json().result).toEqual({ added: 0, removed: 1 });
    expect(
      (await call('GET', base)).json().result.results.find((l: TCustomerList) => l.id === list.id)
        .member_count,
    ).toBe(1);
  });

  it('refuses customers of another business, adding none of the batch', async () => {
    const list = (await call('POST', base, { name: 'Mixed' })).json().result;
    const res = await call('POST', `${base}${list.id}/members/`, {
      customer_ids: [people.cy, other.customer],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().result.customer_ids[0]).toContain(CUSTOMER_LIST_ERRORS.unknownCustomers);
    expect((await call('GET', `${base}${list.id}/`)).json().result.member_count).toBe(0);
  });

  it('keeps a segment live: its count and members follow the directory', async () => {
    const res = await call('POST', base, {
      name: 'Pro with email',
      kind: 'segment',
      filter: { fields: { plan: 'pro' }, has_email: true },
    });
    expect(res.statusCode).toBe(201);
    const seg: TCustomerList = res.json().result;
    expect(seg.member_count).toBe(1);
    const names = async () =>
      (await call('GET', `${base}${seg.id}/members/`))
        .json()
        .result.results.map((v: TDirectoryVisitor) => v.name);
    expect(await names()).toEqual(['Ada Lovelace']);
    // Cy gains an email: now in the segment without anyone touching the list.
    await call('PUT', `/api/business/customer-directory/${people.cy}/`, { email: 'cy@example.test' });
    expect((await call('GET', `${base}${seg.id}/`)).json().result.member_count).toBe(2);
    expect(await names()).toEqual(['Cy Nomail', 'Ada Lovelace']);
    // Conditions change by PUT; members cannot be added to a segment.
    const upd = await call('PUT', `${base}${seg.id}/`, { filter: { search: 'lovelace' } });
    expect(upd.json().result).toMatchObject({ filter: { search: 'lovelace' }, member_count: 1 });
    const add = await call('POST', `${base}${seg.id}/members/`, { customer_ids: [people.bob] });
    expect(add.statusCode).toBe(400);
    expect(add.json().result.customer_ids).toEqual([CUSTOMER_LIST_ERRORS.membersOfSegment]);
    // The other business's matching customer never counts.
    const all = (
      await call('POST', base, { name: 'Everyone pro', kind: 'segment', filter: { fields: { plan: 'pro' } } })
    ).json().result;
    expect(all.member_count).toBe(2);
  });

  it('saves segments with date conditions, read strictly, and lists them', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = (await call('GET', `${base}?page_size=100`)).json().result.count;
    // A bare date "on or before" today takes in everyone added today; date-times as the web sends them.
    const byDay = await call('POST', base, {
      name: 'Added by today',
      kind: 'segment',
      filter: { created_at__gte: '2000-01-01', created_at__lte: today },
    });
    expect(byDay.statusCode, byDay.body).toBe(201);
    expect(byDay.json().result).toMatchObject({
      filter: { created_at__gte: '2000-01-01', created_at__lte: today },
      member_count: 3,
    });
    const byTime = await call('POST', base, {
      name: 'Seen long ago',
      kind: 'segment',
      filter: { last_seen_at__lte: '2001-01-01T00:00:00.000Z', created_at__gte: '2000-01-01T00:00:00+02:00' },
    });
    expect(byTime.statusCode, byTime.body).toBe(201);
    expect(byTime.json().result.member_count).toBe(0);
    const moved = await call('PUT', `${base}${byTime.json().result.id}/`, {
      filter: { created_at__lte: '2000-01-01' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().result).toMatchObject({ filter: { created_at__lte: '2000-01-01' }, member_count: 0 });
    const index = await call('GET', `${base}?page_size=100`);
    expect(index.statusCode, index.body).toBe(200);
    expect(index.json().result.count).toBe(before + 2);
    expect((await call('GET', `${base}${byDay.json().result.id}/members/`)).json().result.count).toBe(3);
    // Dates that do not exist, or a time with no zone, are refused before anything is saved.
    for (const bad of [
      '2025-02-30',
      '2025-13-01',
      '2025-01-01T24:00:00Z',
      '2025-01-01T10:00',
      'Jan 1 2025',
    ]) {
      const res = await call('POST', base, {
        name: `Bad ${bad}`,
        kind: 'segment',
        filter: { created_at__gte: bad },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().result['filter.created_at__gte'], bad).toEqual([DATE_MESSAGE]);
      const put = await call('PUT', `${base}${byDay.json().result.id}/`, {
        filter: { last_seen_at__lte: bad },
      });
      expect(put.json().result['filter.last_seen_at__lte'], bad).toEqual([DATE_MESSAGE]);
    }
    expect((await call('GET', `${base}?page_size=100`)).json().result.count).toBe(before + 2);
    expect((await call('GET', `${base}${byDay.json().result.id}/`)).json().result.filter).toEqual({
      created_at__gte: '2000-01-01',
      created_at__lte: today,
    });
  });

  it('shows a stored segment whose conditions no longer read as invalid, never failing the index', async () => {
    // Written around the API, as an older version could have saved it.
    const [row] = await rt.database.db
      .insert(customerLists)
      .values({
        businessId: business.id,
        name: 'Old segment',
        kind: 'segment',
        filter: { created_at__gte: 'Feb 30' },
      })
      .returning();
    const id = Number(row!.id);
    const index = await call('GET', `${base}?page_size=100`);
    expect(index.statusCode, index.body).toBe(200);
    expect(index.json().result.results.find((l: TCustomerList) => l.id === id)).toMatchObject({
      kind: 'segment',
      filter: null,
      filter_error: CUSTOMER_LIST_ERRORS.invalidFilter,
      member_count: 0,
    });
    expect((await call('GET', `${base}${id}/`)).json().result.filter_error).toBe(
      CUSTOMER_LIST_ERRORS.invalidFilter,
    );
    const members = await call('GET', `${base}${id}/members/`);
    expect(members.statusCode).toBe(409);
    expect(members.json().message).toBe(CUSTOMER_LIST_ERRORS.invalidFilter);
    // New conditions make it whole again.
    const fixed = await call('PUT', `${base}${id}/`, { filter: { created_at__gte: '2000-02-29' } });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().result).toMatchObject({ filter: { created_at__gte: '2000-02-29' }, member_count: 3 });
    expect(fixed.json().result.filter_error).toBeUndefined();
  });

  it('answers bad input with field messages', async () => {
    const cases: [object, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'Seg', kind: 'segment' }, 'filter'],
      [{ name: 'Seg', kind: 'segment', filter: {} }, 'filter'],
      [{ name: 'Static', filter: { search: 'a' } }, 'filter'],
      [
        { name: 'Seg', kind: 'segment', filter: { last_seen_at__gte: 'not a date' } },
        'filter.last_seen_at__gte',
      ],
      [{ name: 'Seg', kind: 'segment', filter: { unknown: 1 } }, 'filter'],
      [{ name: 'Seg', kind: 'bogus' }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', base, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().result), JSON.stringify(body)).toContain(field);
    }
    await call('POST', base, { name: 'Taken' });
    const dup = await call('POST', base, { name: 'taken' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result.name).toEqual([CUSTOMER_LIST_ERRORS.nameTaken]);
    const list = (await call('POST', base, { name: 'Another' })).json().result;
    const rename = await call('PUT', `${base}${list.id}/`, { name: 'TAKEN' });
    expect(rename.statusCode).toBe(400);
    expect((await call('POST', `${base}${list.id}/members/`, { customer_ids: [] })).statusCode).toBe(400);
  });

  it('walks a list in id order in batches, for sends', async () => {
    const list = (await call('POST', base, { name: 'Walk' })).json().result;
    await call('POST', `${base}${list.id}/members/`, { customer_ids: [people.cy, people.ada, people.bob] });
    const batches: number[][] = [];
    for await (const batch of walkListCustomers(rt.database.db, business.id, list.id, { batchSize: 2 }))
      batches.push(batch.map((c) => c.id));
    expect(batches).toEqual([[people.ada, people.bob], [people.cy]]);
    const seg = (
      await call('POST', base, { name: 'Walk seg', kind: 'segment', filter: { fields: { plan: 'pro' } } })
    ).json().result;
    const segIds: number[] = [];
    for await (const batch of walkListCustomers(rt.database.db, business.id, seg.id, { batchSize: 1 }))
      segIds.push(...batch.map((c) => c.id));
    expect(segIds).toEqual([people.ada, people.cy]);
  });

  it('deletes a list; another business and agents cannot touch it', async () => {
    const list = (await call('POST', base, { name: 'Doomed' })).json().result;
    for (const [method, url, body] of [
      ['GET', `${base}${list.id}/`],
      ['PUT', `${base}${list.id}/`, { name: 'Mine now' }],
      ['DELETE', `${base}${list.id}/`],
      ['GET', `${base}${list.id}/members/`],
      ['POST', `${base}${list.id}/members/`, { customer_ids: [other.customer] }],
    ] as const) {
      const res = await call(method, url, body as object | undefined, other.owner, other.business);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await call('GET', base, undefined, other.owner, other.business))
        .json()
        .result.results.some((l: TCustomerList) => l.id === list.id),
    ).toBe(false);
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await call('GET', `${base}${list.id}/`, undefined, agent, business)).statusCode).toBe(200);
    expect((await call('DELETE', `${base}${list.id}/`, undefined, agent, business)).statusCode).toBe(403);
    expect((await call('DELETE', `${base}${list.id}/`)).statusCode).toBe(200);
    expect((await call('GET', `${base}${list.id}/`)).statusCode).toBe(404);
  });
});

describe("agents' list members", () => {
  it('shows an agent-role member only the members their directory shows, in static lists and segments alike', async () => {
    const { boss, shop, agent, visitor } = await scopedBusiness(app, rt.mailer, 'Scoped Lists Co');
    const mine = await visitor('Scope In support', ['support']);
    const pooled = await visitor('Scope Unassigned', [null]);
    const theirs = await visitor('Scope Only sales', ['sales']);
    const silent = await visitor('Scope No conversation', []);
    const all = [mine, pooled, theirs, silent];
    const stat = (await call('POST', base, { name: 'Everyone' }, boss, shop)).json().result as TCustomerList;
    await call('POST', `${base}${stat.id}/members/`, { customer_ids: all }, boss, shop);
    const seg = (
      await call('POST', base, { name: 'Scoped', kind: 'segment', filter: { search: 'Scope' } }, boss, shop)
    ).json().result as TCustomerList;

    for (const list of [stat, seg]) {
      const members = async (who: Session, query = '?page_size=100') =>
        (await call('GET', `${base}${list.id}/members/${query}`, undefined, who, shop)).json().result as {
          count: number;
          next: number | null;
          results: TDirectoryVisitor[];
        };
      const seen = await members(agent);
      expect(seen.results.map((v) => v.id).sort(), list.kind).toEqual([mine, pooled].sort());
      // Counted and paged as seen: nothing hints at the others.
      expect(seen.count).toBe(2);
      const first = await members(agent, '?page_size=1');
      expect(first.next).toBe(2);
      expect((await members(agent, '?page_size=1&page=2')).next).toBe(null);
      const everyone = await members(boss);
      expect(everyone.count).toBe(4);
      expect(everyone.results.map((v) => v.id).sort()).toEqual([...all].sort());
      // Another business's list: 404 to this agent; this list: 404 to the other business.
      expect(
        (await call('GET', `${base}${list.id}/members/`, undefined, other.owner, other.business)).statusCode,
      ).toBe(404);
    }
    const foreign = (await call('POST', base, { name: 'Theirs' }, other.owner, other.business)).json().result;
    await call(
      'POST',
      `${base}${foreign.id}/members/`,
      { customer_ids: [other.customer] },
      other.owner,
      other.business,
    );
    expect((await call('GET', `${base}${foreign.id}/members/`, undefined, agent, shop)).statusCode).toBe(404);
  });
});
