// The segment builder's rules (next-api "Campaigns and consent"): AND/OR groups over customer
// fields, consent, static lists, labels, topics and dates, counted live and saved as a segment that
// campaigns send to (consent still enforced); another business's customers are never counted and
// its lists, labels and topics are refused by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  SEGMENT_RULE_ERRORS,
  type TBusiness,
  type TCustomerList,
  type TSegmentRules,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { walkListCustomers } from '../customer-lists.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
const people = { ada: 0, bob: 0, cy: 0 };
const ids = { vip: 0, lead: 0, offers: 0 };
const theirs = {
  owner: null as unknown as Session,
  business: null as unknown as TBusiness,
  list: 0,
  label: 0,
  topic: 0,
};

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  s = owner,
  b = business,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });
const base = '/api/business/customer-lists/';

async function visitor(b: TBusiness, name: string, email: string | null, fields: Record<string, unknown>) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, ...(email ? { email } : {}), fields },
  });
  expect(res.statusCode).toBe(201);
  return res.json().result.customer.id as number;
}

/** Sets up, in a business, a static list, a label and a topic; answers their ids. */
async function furnish(s: Session, b: TBusiness, members: number[], labelled: number[], leftTopic: number[]) {
  const list = (await call('POST', base, { name: 'VIP' }, s, b)).json().result.id as number;
  if (members.length > 0)
    expect((await call('POST', `${base}${list}/members/`, { customer_ids: members }, s, b)).statusCode).toBe(
      200,
    );
  const label = (await call('POST', '/api/msg/labels/', { name: 'Lead', color: '#336699' }, s, b)).json()
    .result.id as number;
  for (const c of labelled)
    expect(
      (await call('PUT', `/api/business/customer-directory/${c}/`, { label_ids: [label] }, s, b)).statusCode,
    ).toBe(200);
  const topic = (await call('POST', '/api/consent/topics/', { name: 'Offers', description: '' }, s, b)).json()
    .result.id as number;
  for (const c of leftTopic)
    await rt.database.query(
      'insert into consent_topic_optouts (business_id, topic_id, customer_id) values ($1, $2, $3)',
      [b.id, topic, c],
    );
  return { list, label, topic };
}

const count = async (rules: TSegmentRules, s = owner, b = business) => {
  const res = await call('POST', `${base}segments/count/`, { rules }, s, b);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.count as number;
};

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Rules Co');
  people.ada = await visitor(business, 'Ada Lovelace', 'ada@example.test', { plan: 'pro', spend: '120' });
  people.bob = await visitor(business, 'Bob Baker', 'bob@shop.test', { plan: 'free', spend: 30 });
  people.cy = await visitor(business, 'Cy Nomail', null, { plan: 'pro', spend: '15' });
  // Only Bob said yes to email.
  await call('PUT', `/api/business/customer-directory/${people.bob}/`, { email_status: 'subscribed' });
  const mine = await furnish(owner, business, [people.ada, people.bob], [people.bob, people.cy], [people.cy]);
  Object.assign(ids, { vip: mine.list, lead: mine.label, offers: mine.topic });

  // Another business whose customer matches every rule, in its own list, label and topic.
  theirs.owner = await signUp(app, rt.mailer);
  theirs.business = await createBusiness(app, theirs.owner, 'Other Co');
  const olga = await visitor(theirs.business, 'Olga Other', 'olga@other.test', { plan: 'pro', spend: '999' });
  Object.assign(theirs, await furnish(theirs.owner, theirs.business, [olga], [olga], []));
});
afterAll(() => rt.destroy());

describe('segment builder rules', () => {
  it('count customer fields, numbers as numbers, text, emptiness and dates — the business’s customers only', async () => {
    expect(await count({ all: [{ field: 'customer.fields.plan', op: 'eq', value: 'pro' }] })).toBe(2);
    // "120" > 20 as numbers (as text it would not be), whether stored as text or number.
    expect(await count({ all: [{ field: 'customer.fields.spend', op: 'gt', value: 20 }] })).toBe(2);
    expect(await count({ all: [{ field: 'customer.fields.spend', op: 'lte', value: '15' }] })).toBe(1);
    expect(await count({ all: [{ field: 'customer.email', op: 'contains', value: 'SHOP' }] })).toBe(1);
    expect(await count({ all: [{ field: 'customer.email', op: 'not_exists' }] })).toBe(1);
    expect(await count({ all: [{ field: 'customer.email_status', op: 'eq', value: 'subscribed' }] })).toBe(1);
    expect(await count({ all: [{ field: 'customer.created_at', op: 'within_days', value: 1 }] })).toBe(3);
    expect(await count({ all: [{ field: 'customer.created_at', op: 'not_within_days', value: 30 }] })).toBe(
      0,
    );
    expect(await count({ all: [{ field: 'customer.created_at', op: 'lt', value: '2001-01-01' }] })).toBe(0);
    // The other business counts its own only.
    expect(
      await count(
        { all: [{ field: 'customer.fields.plan', op: 'eq', value: 'pro' }] },
        theirs.owner,
        theirs.business,
      ),
    ).toBe(1);
  });

  it('count lists, labels and topics, in AND/OR groups nested', async () => {
    expect(await count({ all: [{ field: 'list', op: 'in', value: ids.vip }] })).toBe(2);
    expect(await count({ all: [{ field: 'list', op: 'not_in', value: ids.vip }] })).toBe(1);
    expect(await count({ all: [{ field: 'label', op: 'in', value: ids.lead }] })).toBe(2);
    // Everyone is in a topic until they leave it: Cy left Offers.
    expect(await count({ all: [{ field: 'topic', op: 'in', value: ids.offers }] })).toBe(2);
    expect(await count({ all: [{ field: 'topic', op: 'not_in', value: ids.offers }] })).toBe(1);
    // VIP and labelled: Bob. VIP, or labelled without an email: Ada, Bob, Cy.
    expect(
      await count({
        all: [
          { field: 'list', op: 'in', value: ids.vip },
          { field: 'label', op: 'in', value: ids.lead },
        ],
      }),
    ).toBe(1);
    expect(
      await count({
        any: [
          { field: 'list', op: 'in', value: ids.vip },
          {
            all: [
              { field: 'label', op: 'in', value: ids.lead },
              { field: 'customer.email', op: 'not_exists' },
            ],
          },
        ],
      }),
    ).toBe(3);
  });

  it('refuse another business’s lists, labels and topics, and bad rules, with field messages', async () => {
    const foreign = await call('POST', `${base}segments/count/`, {
      rules: {
        any: [
          { field: 'list', op: 'in', value: theirs.list },
          { field: 'label', op: 'in', value: theirs.label },
          { field: 'topic', op: 'not_in', value: theirs.topic },
        ],
      },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().result.rules).toEqual([
      `${SEGMENT_RULE_ERRORS.unknownList} (${theirs.list})`,
      `${SEGMENT_RULE_ERRORS.unknownLabel} (${theirs.label})`,
      `${SEGMENT_RULE_ERRORS.unknownTopic} (${theirs.topic})`,
    ]);
    const saved = await call('POST', base, {
      name: 'Theirs',
      kind: 'segment',
      rules: { all: [{ field: 'list', op: 'in', value: theirs.list }] },
    });
    expect(saved.statusCode).toBe(400);
    const bad = await call('POST', `${base}segments/count/`, {
      rules: {
        all: [
          { field: 'list', op: 'eq', value: 1 },
          { field: 'customer.created_at', op: 'gt', value: 'yesterday' },
          { field: 'customer.password', op: 'eq', value: 'x' },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    const errors = bad.json().result as Record<string, string[]>;
    expect(errors['rules.all.0.op']).toEqual([SEGMENT_RULE_ERRORS.membershipOp]);
    expect(errors['rules.all.1.value']).toEqual([SEGMENT_RULE_ERRORS.dateValue]);
    expect(errors['rules.all.2.field']).toEqual([SEGMENT_RULE_ERRORS.field]);
    // Another business's segment is 404 to this one.
    const other = await call(
      'POST',
      base,
      {
        name: 'Pros',
        kind: 'segment',
        rules: { all: [{ field: 'customer.fields.plan', op: 'eq', value: 'pro' }] },
      },
      theirs.owner,
      theirs.business,
    );
    expect(other.statusCode).toBe(201);
    expect((await call('GET', `${base}${other.json().result.id}/`)).statusCode).toBe(404);
  });

  it('save as a segment that counts, walks and feeds a campaign, which still sends only with consent', async () => {
    const rules: TSegmentRules = {
      any: [
        { field: 'list', op: 'in', value: ids.vip },
        { field: 'customer.fields.plan', op: 'eq', value: 'pro' },
      ],
    };
    const res = await call('POST', base, { name: 'VIP or pro', kind: 'segment', rules });
    expect(res.statusCode, res.body).toBe(201);
    const segment: TCustomerList = res.json().result;
    expect(segment).toMatchObject({ kind: 'segment', member_count: 3, filter: { rules } });
    const walked: number[] = [];
    for await (const batch of walkListCustomers(rt.database.db, business.id, segment.id, { batchSize: 2 }))
      walked.push(...batch.map((c) => c.id));
    expect(walked).toEqual([people.ada, people.bob, people.cy]);

    // Rules alone change the segment.
    const narrowed = await call('PUT', `${base}${segment.id}/`, {
      rules: { all: [{ field: 'label', op: 'in', value: ids.lead }] },
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json().result.member_count).toBe(2);

    // A campaign to it: Bob (subscribed) is reachable; Cy has no address; Ada gave no consent.
    const audience = await call('POST', '/api/campaigns/audience/count/', {
      channel: 'email',
      audience: { segment_ids: [segment.id] },
    });
    expect(audience.statusCode, audience.body).toBe(200);
    expect(audience.json().result).toMatchObject({ total: 2, reachable: 1, no_address: 1 });
    // Another business cannot aim a campaign at it.
    const theirsAudience = await call(
      'POST',
      '/api/campaigns/audience/count/',
      { channel: 'email', audience: { segment_ids: [segment.id] } },
      theirs.owner,
      theirs.business,
    );
    expect(theirsAudience.statusCode).toBe(400);
  });
});
