// Titan's facts that journeys hear, end to end through the API that makes each happen: a customer's
// conversation opened (created, or reopened by the customer writing or by staff), a label put on a
// customer or their conversation, a campaign's message and an AI agent's delivery sent (the send
// spine's acceptance). Each is stored only where a journey listens, and another business's fact
// starts nothing here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TJourney } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { claim, recordAccepted } from '../../sends/sends.service';
import { drainJourneys } from '../journeys.engine';
import type { JourneyDeps } from '../journeys.deps';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

const deps = (): JourneyDeps => ({ ...rt.services.journeys, wake: () => undefined });

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, b = business, s = owner) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

/** A live journey of `b` that starts on `event` and exits. */
async function listen(event: string, b = business, s = owner): Promise<TJourney> {
  const res = await api(
    'POST',
    '/api/journeys/',
    {
      name: `On ${event}`,
      reentry: 'always',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event } },
          { id: 'done', type: 'exit', config: {} },
        ],
        edges: [{ from: 'start', to: 'done' }],
      },
    },
    b,
    s,
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().result.id as number;
  const published = await api('POST', `/api/journeys/${id}/publish/`, undefined, b, s);
  expect(published.statusCode, published.body).toBe(200);
  return published.json().result as TJourney;
}

/** The events of `name` stored for `b`, oldest first. */
const eventsOf = (b: TBusiness, name: string) =>
  rt.database
    .query<{ customer_id: string; properties: Record<string, unknown> }>(
      `select customer_id, properties from customer_events where business_id = $1 and name = $2 order by id`,
      [b.id, name],
    )
    .then((rows) => rows.map((r) => ({ customerId: Number(r.customer_id), properties: r.properties })));

/** A visitor of `b` who starts a conversation on the widget: their customer id, token and conversation. */
async function visitor(b: TBusiness, name: string, email: string) {
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, group_slug: 'front-desk', name, email },
  });
  expect(started.statusCode, started.body).toBe(201);
  const { customer, token } = started.json().result;
  const conversation = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: { group_slug: 'front-desk', title: 'A question' },
  });
  expect(conversation.statusCode, conversation.body).toBe(201);
  return {
    customerId: customer.id as number,
    token: token as string,
    conversationId: conversation.json().result.id as number,
  };
}

async function customer(b: TBusiness, name: string, email: string): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, email, email_status) values ($1, $2, $3, 'subscribed') returning id`,
    [b.id, name, email],
  );
  return Number(row!.id);
}

/** A send of `cause`/`causeId` to the customer, queued, then taken by its provider (the spine's acceptance). */
async function sendAccepted(b: TBusiness, customerId: number, cause: string, causeId: string) {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into sends (business_id, channel, cause, cause_id, customer_id, recipient, status)
      values ($1, 'email', $2, $3, $4, 'someone@example.test', 'queued') returning id`,
    [b.id, cause, causeId, customerId],
  );
  const claimed = await claim(rt.database.db, row!.id);
  expect(claimed).not.toBeNull();
  await rt.database.db.transaction((tx) =>
    recordAccepted(tx, claimed!, { ok: true, providerMessageId: `pm-${row!.id}`, response: {} }),
  );
  return row!.id;
}

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Facts Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Facts') };
  for (const [b, s] of [
    [business, owner],
    [other.business, otherOwner],
  ] as const) {
    const group = await api(
      'POST',
      '/api/msg/chat-groups/',
      { name: 'Front desk', slug: 'front-desk' },
      b,
      s,
    );
    expect(group.statusCode, group.body).toBe(201);
  }
});
afterAll(async () => {
  await rt?.destroy();
});

describe('conversation.opened', () => {
  it('is told when a customer opens a conversation, writes to a resolved one, and when staff reopen one', async () => {
    const unheard = await visitor(business, 'Early', 'early@example.test');
    expect(await eventsOf(business, 'conversation.opened')).toEqual([]);

    const journey = await listen('conversation.opened');
    const rosa = await visitor(business, 'Rosa', 'rosa@example.test');
    const resolve = (id: number, status: 'resolved' | 'active') =>
      api('PUT', `/api/msg/conversations/${id}/`, { status });
    expect((await resolve(rosa.conversationId, 'resolved')).statusCode).toBe(200);
    const wrote = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${rosa.conversationId}/messages/`,
      headers: { authorization: `Visitor ${rosa.token}` },
      payload: { message_type: 'text', content: 'Me again' },
    });
    expect(wrote.statusCode, wrote.body).toBe(201);
    // Writing to an open conversation opens nothing.
    const again = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${rosa.conversationId}/messages/`,
      headers: { authorization: `Visitor ${rosa.token}` },
      payload: { message_type: 'text', content: 'Still me' },
    });
    expect(again.statusCode, again.body).toBe(201);
    expect((await resolve(rosa.conversationId, 'resolved')).statusCode).toBe(200);
    expect((await resolve(rosa.conversationId, 'active')).statusCode).toBe(200);
    // Another business's conversation is no event here.
    await listen('conversation.opened', other.business, other.owner);
    const elsewhere = await visitor(other.business, 'Olga', 'olga@example.test');

    const told = await eventsOf(business, 'conversation.opened');
    expect(told.map((e) => [e.customerId, e.properties.conversation_id, e.properties.reopened])).toEqual([
      [rosa.customerId, rosa.conversationId, false],
      [rosa.customerId, rosa.conversationId, true],
      [rosa.customerId, rosa.conversationId, true],
    ]);
    expect(told.map((e) => e.customerId)).not.toContain(unheard.customerId);
    expect((await eventsOf(other.business, 'conversation.opened')).map((e) => e.customerId)).toEqual([
      elsewhere.customerId,
    ]);
    await drainJourneys(deps());
    const stats = await api('GET', `/api/journeys/${journey.id}/stats/`);
    expect(stats.json().result.nodes.start.entered).toBe(3);
  });
});

describe('label.added', () => {
  it('is told when a label is put on a customer or on their conversation, not when one is taken off', async () => {
    const label = await api('POST', '/api/msg/labels/', { name: 'VIP', color: '#aa3300' });
    expect(label.statusCode, label.body).toBe(201);
    const labelId = label.json().result.id as number;
    await listen('label.added');
    const vera = await visitor(business, 'Vera', 'vera@example.test');
    const onCustomer = await api('PUT', `/api/business/customer-directory/${vera.customerId}/`, {
      label_ids: [labelId],
    });
    expect(onCustomer.statusCode, onCustomer.body).toBe(200);
    const off = await api('PUT', `/api/business/customer-directory/${vera.customerId}/`, { label_ids: [] });
    expect(off.statusCode, off.body).toBe(200);
    const onConversation = await api('PUT', `/api/msg/conversations/${vera.conversationId}/`, {
      label_ids: [labelId],
    });
    expect(onConversation.statusCode, onConversation.body).toBe(200);
    // The same label again adds nothing.
    await api('PUT', `/api/msg/conversations/${vera.conversationId}/`, { label_ids: [labelId] });
    // Another business labelling its customer tells this business nothing.
    const otherLabel = await api(
      'POST',
      '/api/msg/labels/',
      { name: 'VIP', color: '#aa3300' },
      other.business,
      other.owner,
    );
    const olga = await customer(other.business, 'Olga', 'olga2@example.test');
    const elsewhere = await api(
      'PUT',
      `/api/business/customer-directory/${olga}/`,
      { label_ids: [otherLabel.json().result.id] },
      other.business,
      other.owner,
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);

    expect(await eventsOf(business, 'label.added')).toEqual([
      { customerId: vera.customerId, properties: { label_id: labelId, label_name: 'VIP', on: 'customer' } },
      {
        customerId: vera.customerId,
        properties: {
          label_id: labelId,
          label_name: 'VIP',
          on: 'conversation',
          conversation_id: vera.conversationId,
        },
      },
    ]);
  });
});

describe('campaign.received and agent.delivery_sent', () => {
  it("are told once when a campaign's or an agent's send is taken by its provider, in its own business only", async () => {
    for (const event of ['campaign.received', 'agent.delivery_sent']) {
      await listen(event);
      await listen(event, other.business, other.owner);
    }
    const carl = await customer(business, 'Carl', 'carl@example.test');
    const broadcastOf = async (b: TBusiness, campaignId: string | null) => {
      const [row] = await rt.database.query<{ id: string }>(
        `insert into broadcasts (business_id, channel, status, request, campaign_id)
          values ($1, 'email', 'running', '{}', $2) returning id`,
        [b.id, campaignId],
      );
      return row!.id;
    };
    const campaignId = crypto.randomUUID();
    const sent = await sendAccepted(business, carl, 'broadcast', await broadcastOf(business, campaignId));
    // A broadcast of no campaign (an API batch) is no campaign received.
    await sendAccepted(business, carl, 'broadcast', await broadcastOf(business, null));

    const [agent] = await rt.database.query<{ id: string }>(
      `insert into agents (business_id, name) values ($1, 'Win-back') returning id`,
      [business.id],
    );
    const [run] = await rt.database.query<{ id: string }>(
      `insert into agent_runs (agent_id, business_id, channel, slot, trigger, config_version, send_mode)
        values ($1, $2, 'email', now(), 'manual', 1, 'auto') returning id`,
      [agent!.id, business.id],
    );
    const delivered = await sendAccepted(business, carl, 'agent', run!.id);
    // An API send (cause agent, no run) is no agent's delivery.
    await sendAccepted(business, carl, 'agent', crypto.randomUUID());

    // Another business's campaign and agent runs tell this business nothing, and a run of this
    // business named by another's send is not theirs.
    const olga = await customer(other.business, 'Olga', 'olga3@example.test');
    await sendAccepted(other.business, olga, 'broadcast', await broadcastOf(other.business, campaignId));
    await sendAccepted(other.business, olga, 'agent', run!.id);

    // A later status of the same send tells nothing again.
    await rt.database.query(`update sends set status = 'queued' where id = $1`, [sent]);
    const reclaimed = await claim(rt.database.db, sent);
    await rt.database.db.transaction((tx) =>
      recordAccepted(tx, reclaimed!, { ok: true, providerMessageId: `pm-again`, response: {} }),
    );

    expect(await eventsOf(business, 'campaign.received')).toEqual([
      {
        customerId: carl,
        properties: expect.objectContaining({ campaign_id: campaignId, send_id: sent, channel: 'email' }),
      },
    ]);
    expect(await eventsOf(business, 'agent.delivery_sent')).toEqual([
      {
        customerId: carl,
        properties: expect.objectContaining({
          agent_id: Number(agent!.id),
          run_id: run!.id,
          send_id: delivered,
        }),
      },
    ]);
    // The other business's own campaign is its own customer's event; this business's run is not theirs.
    expect((await eventsOf(other.business, 'campaign.received')).map((e) => e.customerId)).toEqual([olga]);
    expect(await eventsOf(other.business, 'agent.delivery_sent')).toEqual([]);
  });
});
