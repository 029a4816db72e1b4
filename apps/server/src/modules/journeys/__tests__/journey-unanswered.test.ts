// "Conversation unanswered for N hours" with a clock the test moves: Titan's scan tells journeys
// once per waiting stretch (however many scans run at once), a staff reply ends a follow-up's wait
// so nothing is sent, and a customer nobody answers gets the follow-up once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EVENT_ERRORS, type TBusiness, type TJourney, type TJourneyCustomerPath } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { dkimKey, verifiedDomains } from '../../email/__tests__/email-helpers';
import { setSendingIdentityLookupForTests } from '../../email/sending-identity';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys, scanUnanswered } from '../journeys.engine';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
// Titan's own clock: conversations are written at the database's time, so the test's starts there.
let now = new Date();
const key = dkimKey();
const HOUR = 3600;

function deps(over: Partial<JourneyDeps> = {}): JourneyDeps {
  return { ...rt.services.journeys, clock: () => now, wake: () => undefined, ...over };
}
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

const api = (method: 'GET' | 'POST', url: string, payload?: unknown, b = business, s = owner) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

async function path(id: number, customerId: number): Promise<TJourneyCustomerPath> {
  const res = await api('GET', `/api/journeys/${id}/customers/${customerId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyCustomerPath;
}

/** A visitor who writes on the widget; answers their customer and conversation ids. */
async function visitorWrites(
  name: string,
  b = business,
): Promise<{ customer: number; conversation: number; token: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: {
      business_code: b.unique_code,
      group_slug: 'front-desk',
      name,
      email: `${name.toLowerCase()}@example.test`,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { customer, token } = res.json().result;
  const headers = { authorization: `Visitor ${token}` };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers,
    payload: { group_slug: 'front-desk', title: 'Where is my order?' },
  });
  expect(started.statusCode, started.body).toBe(201);
  const conversation = started.json().result.id as number;
  await say(token, conversation, 'Hello, anyone there?');
  return { customer: customer.id as number, conversation, token: token as string };
}

async function say(token: string, conversation: number, content: string) {
  const said = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${conversation}/messages/`,
    headers: { authorization: `Visitor ${token}` },
    payload: { message_type: 'text', content },
  });
  expect(said.statusCode, said.body).toBe(201);
}

/** The customer wrote `hours` ago: their conversation's messages and wait moved back in time. */
async function wroteAgo(conversation: number, hours: number) {
  const shift = `${hours * 3600} seconds`;
  await rt.database.query(
    `update conversations set awaiting_reply_since = awaiting_reply_since - $2::interval,
       last_message_at = last_message_at - $2::interval where id = $1`,
    [conversation, shift],
  );
  await rt.database.query(
    `update messages set created_at = created_at - $2::interval where conversation_id = $1`,
    [conversation, shift],
  );
}

async function staffReplies(conversation: number, b = business, s = owner) {
  const res = await api(
    'POST',
    `/api/msg/conversations/${conversation}/messages/`,
    { message_type: 'text', content: 'Sorry, looking now!' },
    b,
    s,
  );
  expect(res.statusCode, res.body).toBe(201);
}

const unansweredEvents = (conversation: number) =>
  rt.database.query<{ name: string; customer_id: string; properties: Record<string, unknown> }>(
    `select name, customer_id, properties from customer_events
      where name like 'conversation.unanswered.%' and (properties->>'conversation_id')::bigint = $1`,
    [conversation],
  );

const sendsOf = (journeyId: number) =>
  rt.database.query<{ customer_id: string; subject: string; status: string }>(
    `select customer_id, subject, status from sends where cause = 'journey' and cause_id = $1 order by id`,
    [String(journeyId)],
  );

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Unanswered Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Unanswered') };
  verifiedDomains([{ businessId: business.id, domain: 'acme.test', pem: key.pem }]);
  for (const [b, s] of [
    [business, owner],
    [other.business, other.owner],
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
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
});

describe('a conversation unanswered for 4 hours', () => {
  it('follows up a customer nobody answered, once; a staff reply stops the follow-up', async () => {
    const template = await api('POST', '/api/template/', {
      name: 'Sorry for the wait',
      subject: 'We have not forgotten you',
      format: 'html',
      content: '<p>A person will answer you shortly.</p>',
    });
    expect(template.statusCode, template.body).toBe(201);
    const res = await api('POST', '/api/journeys/', {
      name: 'Unanswered follow-up',
      reentry: 'after_exit',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'conversation.unanswered.4h' } },
          {
            id: 'grace',
            type: 'wait',
            config: { kind: 'until_event', event: 'conversation.replied', timeout_seconds: 2 * HOUR },
          },
          {
            id: 'follow-up',
            type: 'send',
            config: {
              channel: 'email',
              template_id: template.json().result.id,
              from: 'Acme <help@acme.test>',
              consent: 'legitimate_interest',
            },
          },
          { id: 'answered', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'grace' },
          { from: 'grace', to: 'answered', label: 'event' },
          { from: 'grace', to: 'follow-up', label: 'timeout' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const journey = res.json().result as TJourney;
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);

    now = new Date();
    const ann = await visitorWrites('Ann'); // answered within the hour
    const bob = await visitorWrites('Bob'); // answered after 4 hours, before the follow-up
    const cat = await visitorWrites('Cat'); // never answered
    const elsewhere = await visitorWrites('Eve', other.business); // another business's customer
    await wroteAgo(ann.conversation, 3);
    for (const c of [bob, cat, elsewhere]) await wroteAgo(c.conversation, 4 + 1 / 60);

    // Two runtimes scanning at once (different minutes, so neither skips): one event each.
    const stored = await Promise.all([
      scanUnanswered(deps()),
      scanUnanswered(deps({ clock: () => new Date(now.getTime() + 60_000) })),
    ]);
    expect(stored[0] + stored[1]).toBe(2);
    await drainJourneys(deps());
    expect((await unansweredEvents(bob.conversation)).map((e) => [e.name, Number(e.customer_id)])).toEqual([
      ['conversation.unanswered.4h', bob.customer],
    ]);
    expect(await unansweredEvents(ann.conversation)).toEqual([]);
    // No journey of the other business listens: its conversation is not even scanned.
    expect(await unansweredEvents(elsewhere.conversation)).toEqual([]);
    expect((await path(journey.id, bob.customer)).runs[0]!.steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['grace', 'waiting'],
    ]);

    // Staff answer Ann and Bob; Cat writes again, still unanswered (the same wait, no new event).
    await staffReplies(ann.conversation);
    await staffReplies(bob.conversation);
    await say(cat.token, cat.conversation, 'Hello??');
    later(HOUR + 60);
    await drainJourneys(deps());
    expect(await unansweredEvents(ann.conversation)).toEqual([]);
    expect(await unansweredEvents(cat.conversation)).toHaveLength(1);
    const bobPath = (await path(journey.id, bob.customer)).runs[0]!;
    expect(bobPath.steps.map((s) => [s.node_id, s.status, s.outcome])).toEqual([
      ['start', 'passed', null],
      ['grace', 'passed', 'event'],
      ['answered', 'exited', null],
    ]);
    expect(bobPath.status).toBe('exited');

    later(HOUR);
    await drainJourneys(deps());
    later(60);
    await drainJourneys(deps());
    const sent = await sendsOf(journey.id);
    expect(sent.map((s) => [Number(s.customer_id), s.subject, s.status])).toEqual([
      [cat.customer, 'We have not forgotten you', 'queued'],
    ]);
    expect(
      (await path(journey.id, cat.customer)).runs[0]!.steps.map((s) => [s.node_id, s.status, s.outcome]),
    ).toEqual([
      ['start', 'passed', null],
      ['grace', 'passed', 'timeout'],
      ['follow-up', 'passed', null],
    ]);
    expect((await path(journey.id, ann.customer)).runs).toEqual([]);

    // Answered, then waiting again: a new stretch, told again once it reaches 4 hours.
    await staffReplies(cat.conversation);
    await say(cat.token, cat.conversation, 'One more question');
    now = new Date(Date.now() + 3 * HOUR * 1000);
    await drainJourneys(deps());
    expect(await unansweredEvents(cat.conversation)).toHaveLength(1); // the old stretch only: 4 h not reached
    later(HOUR + 120);
    await drainJourneys(deps());
    expect(await unansweredEvents(cat.conversation)).toHaveLength(2);
  });

  it('refuses an unanswered event without its hours, and a posted event under that name', async () => {
    const res = await api('POST', '/api/journeys/', {
      name: 'Bad hours',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'conversation.unanswered.soon' } },
        ],
        edges: [],
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().result['graph.nodes.0.config.event']).toEqual([EVENT_ERRORS.unanswered]);
    const posted = await api('POST', '/api/events/', {
      name: 'conversation.unanswered.4h',
      customer: { email: 'ann@example.test' },
    });
    expect(posted.statusCode, posted.body).toBe(400);
    expect(posted.json().result.name).toEqual([EVENT_ERRORS.reserved]);
  });
});
