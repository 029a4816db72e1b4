// The segment builder's behaviour rules (next-api: `{event, campaign_id?, within_days}`): received /
// opened / clicked a campaign (any, or one) within N days, replied within N days (after a given
// campaign), has an open conversation — read from the send log and the inbox, counted live, saved
// and walked. Another business's sends, events and conversations never match, even when they name
// this business's customer; its campaign is refused here (400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  SEGMENT_BEHAVIOUR_ERRORS,
  SEGMENT_RULE_ERRORS,
  type TBusiness,
  type TSegmentRules,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { walkListCustomers } from '../customer-lists.service';

let rt: TestRuntime;
let app: FastifyInstance;
const mine = { owner: null as unknown as Session, business: null as unknown as TBusiness };
const theirs = { owner: null as unknown as Session, business: null as unknown as TBusiness };
const people = { ada: 0, bob: 0, cy: 0, dee: 0, olga: 0 };
const campaigns = { x: '', y: '', z: '' };
const base = '/api/business/customer-lists/';

const q = <T extends Record<string, unknown> = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
) => rt.database.query<T>(text, params);

async function customer(b: TBusiness, name: string): Promise<number> {
  const [row] = await q<{ id: string }>(
    `insert into customers (business_id, name, email) values ($1, $2, $3) returning id`,
    [b.id, name, `${name.toLowerCase()}@example.test`],
  );
  return Number(row!.id);
}

/** A campaign of the business (its row only: the rules read its broadcasts' sends). */
async function campaign(b: TBusiness, name: string): Promise<string> {
  const [row] = await q<{ id: string }>(
    `insert into campaigns (business_id, name, channel, audience, content, schedule)
      values ($1, $2, 'email', '{}'::jsonb, '{}'::jsonb, '{"mode":"now"}'::jsonb) returning id`,
    [b.id, name],
  );
  return row!.id;
}

async function broadcast(b: TBusiness, campaignId: string | null): Promise<string> {
  const [row] = await q<{ id: string }>(
    `insert into broadcasts (business_id, channel, status, request, campaign_id)
      values ($1, 'email', 'done', '{}'::jsonb, $2) returning id`,
    [b.id, campaignId],
  );
  return row!.id;
}

/** A broadcast's send to a customer, `daysAgo`, with its events (`[type, daysAgo, machine]`). */
async function send(
  b: TBusiness,
  broadcastId: string,
  customerId: number,
  daysAgo: number,
  status: string,
  events: [string, number, boolean?][] = [],
) {
  const [row] = await q<{ id: string }>(
    `insert into sends (business_id, channel, cause, cause_id, customer_id, recipient, status, created_at)
      values ($1, 'email', 'broadcast', $2, $3, 'x@example.test', $4, now() - make_interval(days => $5))
      returning id`,
    [b.id, broadcastId, customerId, status, daysAgo],
  );
  for (const [type, ago, machine] of events)
    await q(
      `insert into send_events (business_id, channel, send_id, type, occurred_at, payload)
        values ($1, 'email', $2, $3, now() - make_interval(days => $4), $5::jsonb)`,
      [b.id, row!.id, type, ago, JSON.stringify({ machine: machine ?? false })],
    );
}

/** A conversation the customer started, with one message of theirs `daysAgo`. */
async function conversation(b: TBusiness, customerId: number, status: string, daysAgo: number) {
  const [row] = await q<{ id: string }>(
    `insert into conversations (business_id, channel, initiator_id, status, last_message_at)
      values ($1, 'titan_message', $2, $3, now() - make_interval(days => $4)) returning id`,
    [b.id, customerId, status, daysAgo],
  );
  await q(
    `insert into messages (business_id, conversation_id, content, sender_type, sender_id, created_at)
      values ($1, $2, 'hello', 'customer', $3, now() - make_interval(days => $4))`,
    [b.id, row!.id, customerId, daysAgo],
  );
}

const post = (url: string, payload: object, who = mine) =>
  app.inject({ method: 'POST', url, headers: as(who.owner, who.business), payload });

const count = async (rules: TSegmentRules, who = mine) => {
  const res = await post(`${base}segments/count/`, { rules }, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.count as number;
};
const one = (rule: object, who = mine) => count({ all: [rule] } as TSegmentRules, who);

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  mine.owner = await signUp(app, rt.mailer);
  mine.business = await createBusiness(app, mine.owner, 'Behaviour Co');
  theirs.owner = await signUp(app, rt.mailer);
  theirs.business = await createBusiness(app, theirs.owner, 'Other Co');
  const b = mine.business;
  for (const name of ['Ada', 'Bob', 'Cy', 'Dee'] as const)
    people[name.toLowerCase() as 'ada'] = await customer(b, name);
  people.olga = await customer(theirs.business, 'Olga');
  campaigns.x = await campaign(b, 'X');
  campaigns.y = await campaign(b, 'Y');
  campaigns.z = await campaign(theirs.business, 'Z');
  const bx = await broadcast(b, campaigns.x);
  const by = await broadcast(b, campaigns.y);
  const plain = await broadcast(b, null); // a list broadcast, not a campaign
  // Ada got X two days ago and opened it yesterday; Bob got X (only a machine opened it) and, 40
  // days ago, Y which he clicked; Cy got a plain broadcast and opened it; X to Dee failed.
  await send(b, bx, people.ada, 2, 'delivered', [['opened', 1]]);
  await send(b, bx, people.bob, 2, 'delivered', [['opened', 2, true]]);
  await send(b, by, people.bob, 40, 'sent', [['clicked', 40]]);
  await send(b, plain, people.cy, 1, 'delivered', [['opened', 1]]);
  await send(b, bx, people.dee, 2, 'failed');
  // Ada wrote yesterday (open), Cy 10 days ago (resolved), Bob 50 days ago (snoozed).
  await conversation(b, people.ada, 'active', 1);
  await conversation(b, people.cy, 'resolved', 10);
  await conversation(b, people.bob, 'snoozed', 50);

  // The other business: Olga does everything with Z; and its rows naming Dee (this business's
  // customer) — a send clicked and an open conversation — must never count here.
  const bz = await broadcast(theirs.business, campaigns.z);
  await send(theirs.business, bz, people.olga, 1, 'delivered', [['clicked', 1]]);
  await send(theirs.business, bz, people.dee, 1, 'delivered', [['clicked', 1]]);
  await conversation(theirs.business, people.olga, 'active', 1);
  await conversation(theirs.business, people.dee, 'active', 1);
});
afterAll(() => rt.destroy());

describe('segment behaviour rules', () => {
  it('received / opened / clicked a campaign, any or one, within N days (machines and failed sends apart)', async () => {
    expect(await one({ event: 'received', within_days: 7 })).toBe(2); // Ada, Bob (X); not Dee, not Cy
    expect(await one({ event: 'received', within_days: 60, campaign_id: campaigns.y })).toBe(1); // Bob
    expect(await one({ event: 'received', within_days: 30, campaign_id: campaigns.y })).toBe(0);
    expect(await one({ event: 'opened', within_days: 7 })).toBe(1); // Ada (Bob's was a machine)
    expect(await one({ event: 'opened', within_days: 60 })).toBe(2); // Bob's click on Y is an open
    expect(await one({ event: 'clicked', within_days: 30 })).toBe(0); // Dee's click was another business's
    expect(await one({ event: 'clicked', within_days: 60 })).toBe(1); // Bob
    expect(await one({ event: 'clicked', within_days: 60, campaign_id: campaigns.x })).toBe(0);
    // Did not open any in 7 days: Bob, Cy (a plain broadcast is no campaign), Dee.
    expect(await one({ event: 'opened', within_days: 7, not: true })).toBe(3);
  });

  it('replied within N days (after a given campaign) and has an open conversation', async () => {
    expect(await one({ event: 'replied', within_days: 7 })).toBe(1); // Ada
    expect(await one({ event: 'replied', within_days: 30 })).toBe(2); // Ada, Cy
    // After X: Ada wrote after receiving it; Bob's message was before it.
    expect(await one({ event: 'replied', within_days: 60, campaign_id: campaigns.x })).toBe(1);
    expect(await one({ event: 'replied', within_days: 60, campaign_id: campaigns.y })).toBe(0);
    // Active and snoozed are open; resolved is not; Dee's is another business's.
    expect(await one({ event: 'open_conversation' })).toBe(2);
    expect(await one({ event: 'open_conversation', within_days: 7 })).toBe(1);
    expect(await one({ event: 'open_conversation', not: true })).toBe(2); // Cy, Dee
  });

  it('combine with other rules in AND/OR groups, save as a segment and walk it', async () => {
    const rules: TSegmentRules = {
      any: [
        { event: 'clicked', within_days: 60 },
        {
          all: [
            { event: 'replied', within_days: 30 },
            { event: 'open_conversation', not: true },
          ],
        },
      ],
    };
    expect(await count(rules)).toBe(2); // Bob (clicked), Cy (replied, nothing open)
    expect(
      await count({
        all: [
          { field: 'customer.name', op: 'eq', value: 'ada' },
          { event: 'opened', within_days: 7, campaign_id: campaigns.x },
        ],
      }),
    ).toBe(1);
    const saved = await post(base, { name: 'Engaged', kind: 'segment', rules });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().result).toMatchObject({ kind: 'segment', member_count: 2, filter: { rules } });
    const walked: number[] = [];
    for await (const batch of walkListCustomers(rt.database.db, mine.business.id, saved.json().result.id))
      walked.push(...batch.map((c) => c.id));
    expect(walked).toEqual([people.bob, people.cy]);
  });

  it('never match another business’s data: its campaign is refused here, its customers are its own', async () => {
    // Another business's campaign is named back as unknown (400), as a list, label or topic is.
    const refused = async (rule: object, who = mine) => {
      const res = await post(`${base}segments/count/`, { rules: { all: [rule] } }, who);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().result.rules as string[];
    };
    for (const event of ['received', 'opened', 'clicked', 'replied'] as const)
      expect(await refused({ event, within_days: 30, campaign_id: campaigns.z })).toEqual([
        `${SEGMENT_RULE_ERRORS.unknownCampaign} (${campaigns.z})`,
      ]);
    expect(await refused({ event: 'received', within_days: 7, campaign_id: campaigns.x }, theirs)).toEqual([
      `${SEGMENT_RULE_ERRORS.unknownCampaign} (${campaigns.x})`,
    ]);
    // The other business counts Olga alone, never this business's Dee, whatever its rows name.
    expect(await one({ event: 'clicked', within_days: 7 }, theirs)).toBe(1);
    expect(await one({ event: 'open_conversation' }, theirs)).toBe(1);
  });

  it('refuse behaviour rules without their days, or a campaign on a conversation, with field messages', async () => {
    const res = await post(`${base}segments/count/`, {
      rules: {
        all: [
          { event: 'opened', campaign_id: campaigns.x },
          { event: 'open_conversation', campaign_id: campaigns.x },
          { event: 'clicked', within_days: 0 },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().result as Record<string, string[]>;
    expect(errors['rules.all.0.within_days']).toEqual([SEGMENT_BEHAVIOUR_ERRORS.days]);
    expect(errors['rules.all.1.campaign_id']).toEqual([SEGMENT_BEHAVIOUR_ERRORS.campaignOnConversation]);
    expect(errors['rules.all.2.within_days']).toEqual([SEGMENT_BEHAVIOUR_ERRORS.days]);
  });
});
