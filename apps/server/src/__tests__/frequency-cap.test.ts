// The business's marketing frequency cap (issue 32) across senders, on the real email channel (no
// workers: sends stay queued, which counts — a message on its way is a message): the setting's
// route (defaults, validation, agent-role members refused the change); a customer who got 3
// campaign mails this week is skipped by a 4th campaign (the recipient's state and reason, the
// campaign's counts) and by a journey's send step (the path shows why, the journey goes on);
// a list send (broadcast) passes them over; replies and one-off sends are not counted, nor another
// business's sends. At the cap's edge, a sender that counted and is recording holds the customer's
// cap lock: a campaign racing it waits for its commit and is stopped (on PostgreSQL the campaign is
// seen waiting on the lock before the first commits). Agents: agents-runs.test.ts.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FREQUENCY_CAP_DEFAULT,
  FREQUENCY_CAP_WORDS,
  type TBusiness,
  type TCampaign,
  type TCampaignRecipient,
  type TJourney,
  type TJourneyCustomerPath,
} from '@titan/contracts';
import { addMember, as, createBusiness, signUp, type Session } from '../testing/identity';
import { createTestRuntime, type TestRuntime } from '../testing/test-runtime';
import { dkimKey, verifiedDomains } from '../modules/email/__tests__/email-helpers';
import { setSendingIdentityLookupForTests } from '../modules/email/sending-identity';
import { runCampaign } from '../modules/campaigns/campaigns.runner';
import type { CampaignDeps } from '../modules/campaigns/campaigns.service';
import { drainJourneys } from '../modules/journeys/journeys.engine';
import type { JourneyDeps } from '../modules/journeys/journeys.deps';
import { fanOut, startBroadcast } from '../modules/broadcasts/broadcasts.service';
import { frequencyCapForRecording, frequencyCapped } from '../modules/sends';
import { sql } from 'drizzle-orm';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let agentMember: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
const key = dkimKey();
const ON = { enabled: true, max_messages: 3, period_days: 7 };

const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, s = owner, b = business) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

const campaignDeps = (): CampaignDeps => ({
  ...rt.services.campaigns,
  clock: () => new Date(),
  batchSize: 50,
});
const journeyDeps = (): JourneyDeps => ({
  ...rt.services.journeys,
  clock: () => new Date(),
  wake: () => undefined,
});

async function customer(name: string, email: string, b = business): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, email, email_status) values ($1, $2, $3, 'subscribed') returning id`,
    [b.id, name, email],
  );
  return Number(row!.id);
}

async function list(name: string, ids: number[]): Promise<number> {
  const id = (await api('POST', '/api/business/customer-lists/', { name })).json().result.id as number;
  await api('POST', `/api/business/customer-lists/${id}/members/`, { customer_ids: ids });
  return id;
}

/** A campaign to the list, sent now: created, scheduled and one pass of the sender. */
async function sendCampaign(name: string, listId: number): Promise<TCampaign> {
  const created = await api('POST', '/api/campaigns/', {
    name,
    channel: 'email',
    sender: 'Acme News <news@acme.test>',
    content: { subject: name, html: `<p>${name}</p>` },
    audience: { list_ids: [listId] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().result.id as string;
  expect((await api('POST', `/api/campaigns/${id}/schedule/`)).statusCode).toBe(200);
  await runCampaign(campaignDeps(), id);
  return (await api('GET', `/api/campaigns/${id}/`)).json().result as TCampaign;
}

async function recipients(id: string): Promise<Map<number, TCampaignRecipient>> {
  const res = await api('GET', `/api/campaigns/${id}/recipients/?page_size=50`);
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().result.results as TCampaignRecipient[]).map((r) => [r.customer_id, r]));
}

/** Sends of another cause written straight into the spine (a reply, a one-off template send). */
async function otherSends(businessId: number, customerId: number, cause: string, n: number) {
  for (let i = 0; i < n; i++)
    await rt.database.query(
      `insert into sends (business_id, channel, cause, customer_id, recipient, status, provider_request)
       values ($1, 'email', $2, $3, 'x@example.test', 'delivered', '{}')`,
      [businessId, cause, customerId],
    );
}

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Capped Co');
  agentMember = await addMember(app, rt.mailer, owner, business, 'agent');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Co') };
  verifiedDomains([{ businessId: business.id, domain: 'acme.test', pem: key.pem }]);
}, 120_000);
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
});

describe('the setting', () => {
  it('is off by default, changed by an admin, read by any member, refused to an agent-role member', async () => {
    const read = await api('GET', '/api/business/frequency-cap/', undefined, agentMember);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().result).toEqual(FREQUENCY_CAP_DEFAULT);
    expect(FREQUENCY_CAP_DEFAULT).toEqual({ enabled: false, max_messages: 3, period_days: 7 });

    const refused = await api('PUT', '/api/business/frequency-cap/', ON, agentMember);
    expect(refused.statusCode).toBe(403);
    const bad = await api('PUT', '/api/business/frequency-cap/', {
      enabled: true,
      max_messages: 0,
      period_days: 400,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toEqual({
      max_messages: ['Ensure this value is at least 1.'],
      period_days: ['Ensure this value is at most 90.'],
    });
    expect((await api('GET', '/api/business/frequency-cap/')).json().result).toEqual(FREQUENCY_CAP_DEFAULT);

    const saved = await api('PUT', '/api/business/frequency-cap/', ON);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().result).toEqual(ON);
    expect((await api('GET', '/api/business/frequency-cap/', undefined, agentMember)).json().result).toEqual(
      ON,
    );
    // Another business's setting is its own.
    const theirs = await api('GET', '/api/business/frequency-cap/', undefined, other.owner, other.business);
    expect(theirs.json().result).toEqual(FREQUENCY_CAP_DEFAULT);
  });
});

describe('a customer who got 3 campaign mails this week', () => {
  let often: number;
  let replied: number;
  let fresh: number;
  let audience: number;

  beforeAll(async () => {
    expect((await api('PUT', '/api/business/frequency-cap/', ON)).statusCode).toBe(200);
    often = await customer('Often', 'often@example.test');
    replied = await customer('Replied', 'replied@example.test');
    fresh = await customer('Fresh', 'fresh@example.test');
    // Replied had many replies and one-off sends (never counted), and one campaign mail below.
    await otherSends(business.id, replied, 'staff_reply', 4);
    await otherSends(business.id, replied, 'template_send', 2);
    await otherSends(business.id, replied, 'test', 1);
    // Fresh's id in another business's spine (a tenant's sends are its own): never counted here.
    await otherSends(other.business.id, fresh, 'broadcast', 5);
    const weekly = await list('Weekly', [often]);
    for (const n of [1, 2, 3]) {
      const c = await sendCampaign(`Weekly ${n}`, weekly);
      // Each of the three reached Often: the cap let them through below its limit.
      expect(c).toMatchObject({ status: 'sent', processed: 1, skipped_reasons: {} });
    }
    await sendCampaign('Once', await list('Once', [replied]));
    audience = await list('Everyone', [often, replied, fresh]);
  }, 120_000);

  it('counts marketing sends only, of this business only, set-based for a page', async () => {
    const { capped } = await frequencyCapped(
      rt.database.db,
      business.id,
      [often, replied, fresh],
      new Date(),
    );
    expect([...capped.keys()]).toEqual([often]);
    expect(capped.get(often)!.sent).toBe(3);
    // Off: nobody is capped.
    const { capped: none } = await frequencyCapped(rt.database.db, other.business.id, [fresh], new Date());
    expect(none.size).toBe(0);
  });

  it('is skipped by a 4th campaign with the reason, counted in its stats; the others get theirs', async () => {
    const fourth = await sendCampaign('Fourth', audience);
    const reason = FREQUENCY_CAP_WORDS.reason(3, ON);
    expect(reason).toBe(
      'Frequency cap: the customer already got 3 marketing messages in the last 7 days (the business’s limit is 3 every 7 days, across campaigns, journeys and agents).',
    );
    expect(fourth).toMatchObject({
      status: 'sent',
      recipients: 3,
      processed: 3,
      skipped_reasons: { [FREQUENCY_CAP_WORDS.skipped]: 1 },
    });
    const rows = await recipients(fourth.id);
    expect(rows.get(often)).toMatchObject({ state: 'skipped', send_id: null, skip_reason: reason });
    expect(rows.get(replied)).toMatchObject({ state: 'recorded', send_status: 'queued', skip_reason: null });
    expect(rows.get(fresh)).toMatchObject({ state: 'recorded', send_status: 'queued', skip_reason: null });
    const download = await api('GET', `/api/campaigns/${fourth.id}/download/`);
    expect(download.body.split('\n')[0]).toContain('skip_reason');
    expect(download.body).toContain('Frequency cap: the customer already got 3 marketing messages');
  });

  it("is skipped by a journey's send step: the path shows why and the journey goes on", async () => {
    const template = await api('POST', '/api/template/', {
      name: 'Nudge',
      subject: 'A nudge',
      format: 'html',
      content: '<p>A nudge</p>',
    });
    expect(template.statusCode, template.body).toBe(201);
    const created = await api('POST', '/api/journeys/', {
      name: 'Nudge',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'nudge.due' } },
          {
            id: 'mail',
            type: 'send',
            config: { channel: 'email', template_id: template.json().result.id, from: 'Acme <hi@acme.test>' },
          },
          { id: 'done', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'mail' },
          { from: 'mail', to: 'done' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const journey = created.json().result as TJourney;
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);
    // Fresh got one mail (the 4th campaign): under the cap, the journey's mail is recorded.
    for (const id of [often, fresh])
      expect((await api('POST', '/api/events/', { name: 'nudge.due', customer: { id } })).statusCode).toBe(
        202,
      );
    await drainJourneys(journeyDeps());

    const pathOf = async (id: number) =>
      (await api('GET', `/api/journeys/${journey.id}/customers/${id}/`)).json()
        .result as TJourneyCustomerPath;
    const stopped = (await pathOf(often)).runs[0]!.steps;
    expect(stopped.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['mail', 'failed'],
      ['done', 'exited'],
    ]);
    expect(stopped[1]).toMatchObject({ send_id: null, reason: FREQUENCY_CAP_WORDS.reason(3, ON) });
    const sent = (await pathOf(fresh)).runs[0]!.steps;
    expect(sent[1]).toMatchObject({ status: 'passed', reason: null });
    expect(sent[1]!.send_id).not.toBeNull();
    const journeySends = await rt.database.query<{ customer_id: string }>(
      `select customer_id from sends where cause = 'journey' and cause_id = $1`,
      [String(journey.id)],
    );
    expect(journeySends.map((s) => Number(s.customer_id))).toEqual([fresh]);
  });

  it('passes them over in a list send (a broadcast), counted under its words', async () => {
    // Replied got two campaign mails this week (Once, Fourth): under the limit, so still reached.
    const started = await startBroadcast(rt.services.broadcasts, {
      businessId: business.id,
      channel: 'email',
      listId: audience,
      request: { from: 'Acme News <news@acme.test>', subject: 'List news', html: '<p>News</p>' },
      createdBy: null,
    });
    await fanOut(rt.services.broadcasts, started.id);
    const shown = (await api('GET', `/api/broadcasts/${started.id}/`)).json().result;
    expect(shown).toMatchObject({
      status: 'done',
      skipped_reasons: { [FREQUENCY_CAP_WORDS.skipped]: 1 },
    });
    const listSends = await rt.database.query<{ customer_id: string }>(
      `select customer_id from sends where idempotency_key like $1 order by customer_id`,
      [`broadcast:${started.id}:%`],
    );
    expect(listSends.map((r) => Number(r.customer_id)).includes(often)).toBe(false);
    expect(listSends.map((r) => Number(r.customer_id))).toContain(replied);
  });

  it('stops nobody once the business turns it off', async () => {
    expect((await api('PUT', '/api/business/frequency-cap/', { ...ON, enabled: false })).statusCode).toBe(
      200,
    );
    const after = await sendCampaign('Off again', await list('Just Often', [often]));
    expect(after).toMatchObject({ processed: 1, skipped_reasons: {} });
    expect((await recipients(after.id)).get(often)).toMatchObject({ state: 'recorded' });
  });
});

describe("at the cap's edge, two senders at once", () => {
  it('only one passes: the second waits on the customer’s cap lock until the first has recorded', async () => {
    const cap = { enabled: true, max_messages: 3, period_days: 7 };
    expect((await api('PUT', '/api/business/frequency-cap/', cap)).statusCode).toBe(200);
    const edge = await customer('Edge', 'edge@example.test');
    await otherSends(business.id, edge, 'broadcast', 2); // one marketing message left
    const audience = await list('Edge only', [edge]);
    const created = await api('POST', '/api/campaigns/', {
      name: 'Racing',
      channel: 'email',
      sender: 'Acme News <news@acme.test>',
      content: { subject: 'Racing', html: '<p>Racing</p>' },
      audience: { list_ids: [audience] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaignId = created.json().result.id as string;
    expect((await api('POST', `/api/campaigns/${campaignId}/schedule/`)).statusCode).toBe(200);

    // Sender 1 (a journey's step, say) counts under the lock and records its send, then is slow to commit.
    const db = rt.services.campaigns.db;
    let counted!: () => void;
    const firstCounted = new Promise<void>((resolve) => (counted = resolve));
    let letGo!: () => void;
    const release = new Promise<void>((resolve) => (letGo = resolve));
    const first = db.transaction(async (tx) => {
      const { capped } = await frequencyCapForRecording(tx, business.id, [edge], new Date());
      expect(capped.has(edge)).toBe(false);
      await tx.execute(
        sql`insert into sends (business_id, channel, cause, customer_id, recipient, status, provider_request)
            values (${business.id}, 'email', 'journey', ${edge}, 'edge@example.test', 'queued', '{}')`,
      );
      counted();
      await release;
    });
    await firstCounted;
    // Sender 2: the campaign's pass, at the same moment.
    const second = runCampaign(campaignDeps(), campaignId);
    if (rt.database.kind === 'postgres') {
      // Seen waiting on an advisory lock before the first commits (without the lock it would have
      // counted 2 and recorded a 4th message by now).
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [row] = await rt.database.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
        );
        if (row!.n > 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } else {
      // PGlite has one connection: the campaign's statements wait for the first transaction anyway.
      await new Promise((r) => setTimeout(r, 50));
    }
    letGo();
    await Promise.all([first, second]);

    const [{ n }] = (await rt.database.query<{ n: number }>(
      `select count(*)::int as n from sends where business_id = $1 and customer_id = $2
         and cause in ('broadcast', 'journey', 'agent')`,
      [business.id, edge],
    )) as [{ n: number }];
    expect(n).toBe(3);
    const campaign = (await api('GET', `/api/campaigns/${campaignId}/`)).json().result as TCampaign;
    expect(campaign.skipped_reasons).toEqual({ [FREQUENCY_CAP_WORDS.skipped]: 1 });
    expect((await recipients(campaignId)).get(edge)).toMatchObject({
      state: 'skipped',
      skip_reason: FREQUENCY_CAP_WORDS.reason(3, cap),
    });
  });
});
