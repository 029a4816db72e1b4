// Campaigns end to end on the real email channel (no workers: sends stay queued where a mail server
// would take them), with a clock the test moves: the audience counted with the suppressed and those
// without consent apart; sending at each recipient's local 9:00; pause holding back what no sender
// took and resume sending nobody twice; an A/B test whose winner goes to the rest; results equal to
// the sends' events; another business's campaigns not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CAMPAIGN_ERRORS, type TBusiness, type TCampaign, type TCampaignReport } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { dkimKey, verifiedDomains } from '../../email/__tests__/email-helpers';
import { setSendingIdentityLookupForTests } from '../../email/sending-identity';
import { recordSendEvent } from '../../sends/sends.service';
import { suppress } from '../../suppressions/suppressions.service';
import type { BroadcastChannel } from '../../broadcasts';
import { leaveTopic } from '../../consent';
import { runCampaign } from '../campaigns.runner';
import { pauseCampaign, type CampaignDeps } from '../campaigns.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let now = new Date('2026-11-30T12:00:00Z');
const key = dkimKey();

function deps(over: Partial<CampaignDeps> = {}): CampaignDeps {
  return { ...rt.services.campaigns, clock: () => now, batchSize: 3, ...over };
}

/** A customer of the business (written directly: the public endpoint is rate-limited). */
async function customer(name: string, extra: { email?: string; phone?: string } = {}): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, email, phone) values ($1, $2, $3, $4) returning id`,
    [business.id, name, extra.email ?? null, extra.phone ?? null],
  );
  return Number(row!.id);
}

async function subscribe(ids: number[]) {
  await rt.database.query(`update customers set email_status = 'subscribed' where id = any($1::bigint[])`, [
    ids,
  ]);
}

async function setFields(id: number, fields: Record<string, unknown>) {
  await rt.database.query(`update customers set fields = $2::jsonb where id = $1`, [
    id,
    JSON.stringify(fields),
  ]);
}

async function list(name: string, ids: number[]): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/business/customer-lists/',
    headers: as(owner, business),
    payload: { name },
  });
  const id = res.json().result.id as number;
  await app.inject({
    method: 'POST',
    url: `/api/business/customer-lists/${id}/members/`,
    headers: as(owner, business),
    payload: { customer_ids: ids },
  });
  return id;
}

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  b = business,
  s = owner,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload: payload as object } : {}) });

async function create(payload: Record<string, unknown>): Promise<TCampaign> {
  const res = await api('POST', '/api/campaigns/', {
    channel: 'email',
    sender: 'Acme News <news@acme.test>',
    content: {
      subject: 'Hello',
      html: '<p>Hi <a href="https://acme.test/a">A</a> <a href="https://acme.test/b">B</a></p>',
    },
    ...payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result as TCampaign;
}

async function schedule(id: string): Promise<TCampaign> {
  const res = await api('POST', `/api/campaigns/${id}/schedule/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TCampaign;
}

/** The campaign's sends, one row per send, by customer. */
const sendsOf = (campaignId: string) =>
  rt.database.query<{ id: string; customer_id: string; status: string; subject: string; cause_id: string }>(
    `select s.id, s.customer_id, s.status, s.subject, s.cause_id from sends s
      join broadcasts b on b.id::text = s.cause_id where b.campaign_id = $1 order by s.customer_id`,
    [campaignId],
  );

const recipientsOf = (campaignId: string) =>
  rt.database.query<{
    customer_id: string;
    state: string;
    variant: number | null;
    recorded_at: string | null;
  }>(
    `select customer_id, state, variant, recorded_at from campaign_recipients where campaign_id = $1 order by customer_id`,
    [campaignId],
  );

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Campaign Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Co') };
  verifiedDomains([{ businessId: business.id, domain: 'acme.test', pem: key.pem }]);
});
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
});

describe('the audience', () => {
  it('is counted live with exclusions, the suppressed, those without consent and without an address apart', async () => {
    const a = await customer('A', { email: 'a@example.test' });
    const b = await customer('B', { email: 'b@example.test' });
    const c = await customer('C', { email: 'c@example.test' }); // suppressed
    const d = await customer('D', { email: 'd@example.test' }); // no consent
    const e = await customer('E'); // no address
    const f = await customer('F', { email: 'f@example.test' }); // excluded
    await subscribe([a, b, c, f]);
    await suppress(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'c@example.test',
      reason: 'manual',
    });
    const everyone = await list('Audience one', [a, b, c, d, e, f]);
    const excluded = await list('Excluded one', [f]);
    const res = await api('POST', '/api/campaigns/audience/count/', {
      channel: 'email',
      audience: { list_ids: [everyone], exclude_list_ids: [excluded] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual({
      total: 5,
      reachable: 2,
      suppressed: 1,
      no_consent: 1,
      no_address: 1,
      out_of_topic: 0,
    });
    const bad = await api('POST', '/api/campaigns/audience/count/', {
      channel: 'email',
      audience: { list_ids: [999999] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result['audience.list_ids.0']).toEqual(['No such list or segment.']);
  });

  it('refuses content that does not fit the channel, and a draft only is changed', async () => {
    const res = await api('POST', '/api/campaigns/', {
      name: 'No content',
      channel: 'email',
      audience: { list_ids: [] },
      content: { body: 'text' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('a campaign of a topic', () => {
  it('passes over who left the topic (counted apart); its mail leaves only that topic by one-click', async () => {
    const topic = (await api('POST', '/api/consent/topics/', { name: 'Offers' })).json().result as {
      id: number;
    };
    const theirs = (
      await api('POST', '/api/consent/topics/', { name: 'Theirs' }, other.business, other.owner)
    ).json().result as { id: number };
    const stays = await customer('Stays', { email: 'stays@example.test' });
    const leaves = await customer('Leaves', { email: 'leaves@example.test' });
    const clicks = await customer('Clicks', { email: 'clicks@example.test' });
    await subscribe([stays, leaves, clicks]);
    const l = await list('Topic list', [stays, leaves, clicks]);
    await leaveTopic(rt.database.db, {
      businessId: business.id,
      topicId: topic.id,
      email: 'leaves@example.test',
    });

    const count = await api('POST', '/api/campaigns/audience/count/', {
      channel: 'email',
      audience: { list_ids: [l], topic_id: topic.id },
    });
    expect(count.json().result).toMatchObject({ total: 3, reachable: 2, out_of_topic: 1, no_consent: 0 });
    // Another business's topic is not one to target.
    const foreign = await api('POST', '/api/campaigns/', {
      name: 'Foreign topic',
      channel: 'email',
      audience: { list_ids: [l], topic_id: theirs.id },
      content: { subject: 'Hi', html: '<p>Hi</p>' },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().result['audience.topic_id']).toEqual(['No such topic.']);

    now = new Date('2026-12-03T10:00:00Z');
    const campaign = await create({ name: 'Offers only', audience: { list_ids: [l], topic_id: topic.id } });
    await schedule(campaign.id);
    await runCampaign(deps(), campaign.id);
    const rows = await sendsOf(campaign.id);
    expect(rows.map((r) => Number(r.customer_id)).sort((x, y) => x - y)).toEqual([stays, clicks]);
    const done = (await api('GET', `/api/campaigns/${campaign.id}/`)).json().result as TCampaign;
    expect(done).toMatchObject({ status: 'sent', skipped_reasons: { 'out of topic': 1 } });

    // The mail names the topic: one-click leaves it, the link people see opens the preference centre.
    const [mail] = await rt.database.query<{
      provider_request: { headers: Record<string, string>; html: string };
    }>(`select provider_request from sends where id = $1`, [
      rows.find((r) => Number(r.customer_id) === clicks)!.id,
    ]);
    const header = mail!.provider_request.headers['List-Unsubscribe']!;
    expect(header).toContain(`&topic=${topic.id}`);
    expect(mail!.provider_request.html).toContain('https://titan.example.com/p/');
    const oneClick = new URL(/<(https:[^>]+)>/.exec(header)![1]!);
    const res = await app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Out of the topic, not of all mail.
    expect(res.json().result.unsubscribed).toBe(false);
    const again = await api('POST', '/api/campaigns/audience/count/', {
      channel: 'email',
      audience: { list_ids: [l], topic_id: topic.id },
    });
    expect(again.json().result).toMatchObject({ reachable: 1, out_of_topic: 2 });
  });
});

describe('webhook events', () => {
  it('campaign.started and campaign.finished are recorded with the status change; cancelling a scheduled one finishes it', async () => {
    const hook = await api('POST', '/api/webhooks/endpoints/', {
      url: 'https://hooks.example.com/titan',
      event_types: ['campaign.started', 'campaign.finished'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const eventsOf = async (campaignId: string) =>
      (
        await rt.database.query<{
          business_id: string;
          type: string;
          payload: { data: Record<string, unknown> };
        }>(
          `select business_id, type, payload from webhook_events where payload -> 'data' ->> 'id' = $1 order by created_at, type desc`,
          [campaignId],
        )
      ).map((e) => ({ business: Number(e.business_id), type: e.type, data: e.payload.data }));
    const ids = [
      await customer('W1', { email: 'w1@example.test' }),
      await customer('W2', { email: 'w2@example.test' }),
    ];
    await subscribe(ids);
    const l = await list('Webhook list', ids);
    now = new Date('2026-12-04T10:00:00Z');
    const campaign = await create({ name: 'Hooked', audience: { list_ids: [l] } });
    await schedule(campaign.id);
    // Scheduled is not started: nothing yet.
    expect(await eventsOf(campaign.id)).toEqual([]);
    await runCampaign(deps(), campaign.id);
    const events = await eventsOf(campaign.id);
    expect(events.map((e) => e.type)).toEqual(['campaign.started', 'campaign.finished']);
    expect(events.every((e) => e.business === business.id)).toBe(true);
    expect(events[0]!.data).toMatchObject({
      id: campaign.id,
      name: 'Hooked',
      channel: 'email',
      status: 'sending',
    });
    expect(events[1]!.data).toMatchObject({
      status: 'sent',
      recipients: 2,
      processed: 2,
      started_at: now.toISOString(),
      finished_at: now.toISOString(),
    });

    // Cancelling a scheduled campaign ends it; cancelling a draft announces nothing.
    const later = await create({
      name: 'Hooked later',
      audience: { list_ids: [l] },
      schedule: { mode: 'at', at: '2026-12-24T10:00:00Z' },
    });
    await schedule(later.id);
    expect((await api('POST', `/api/campaigns/${later.id}/cancel/`)).statusCode).toBe(200);
    expect(await eventsOf(later.id)).toEqual([
      expect.objectContaining({
        type: 'campaign.finished',
        data: expect.objectContaining({ status: 'cancelled' }),
      }),
    ]);
    const draft = await create({ name: 'Hooked draft', audience: { list_ids: [l] } });
    expect((await api('POST', `/api/campaigns/${draft.id}/cancel/`)).statusCode).toBe(200);
    expect(await eventsOf(draft.id)).toEqual([]);
  });
});

describe('sending at local 9:00', () => {
  it("sends each recipient at 9:00 on their own clock: stored zone, else phone's country, else the business's", async () => {
    const ny = await customer('NY', { email: 'ny@example.test' });
    const tokyoPhone = await customer('Tokyo', { email: 'tokyo@example.test', phone: '+81312345678' });
    const berlin = await customer('Berlin', { email: 'berlin@example.test' });
    const plain = await customer('Plain', { email: 'plain@example.test' });
    await setFields(ny, { timezone: 'America/New_York' });
    await setFields(berlin, { tz: 'Europe/Berlin' });
    await subscribe([ny, tokyoPhone, berlin, plain]);
    const l = await list('Local nine', [ny, tokyoPhone, berlin, plain]);
    now = new Date('2026-11-30T12:00:00Z'); // business zone: UTC (the default)
    const campaign = await create({
      name: 'Nine local',
      audience: { list_ids: [l] },
      schedule: { mode: 'local', at: '2026-12-01', local_time: '09:00' },
    });
    expect((await schedule(campaign.id)).status).toBe('scheduled');
    const d = deps();
    const sentTo = async () => (await sendsOf(campaign.id)).map((s) => Number(s.customer_id));

    await runCampaign(d, campaign.id);
    expect(await sentTo()).toEqual([]);
    // 9:00 in Tokyo is 00:00 UTC on 1 December.
    now = new Date('2026-12-01T00:00:00Z');
    await runCampaign(d, campaign.id);
    expect(await sentTo()).toEqual([tokyoPhone]);
    now = new Date('2026-12-01T07:59:00Z');
    await runCampaign(d, campaign.id);
    expect(await sentTo()).toEqual([tokyoPhone]);
    now = new Date('2026-12-01T08:00:00Z'); // Berlin
    await runCampaign(d, campaign.id);
    expect(await sentTo()).toEqual([tokyoPhone, berlin].sort((x, y) => x - y));
    now = new Date('2026-12-01T09:00:00Z'); // UTC
    await runCampaign(d, campaign.id);
    expect((await sentTo()).sort((x, y) => x - y)).toEqual([tokyoPhone, berlin, plain].sort((x, y) => x - y));
    expect((await api('GET', `/api/campaigns/${campaign.id}/`)).json().result.status).toBe('sending');
    now = new Date('2026-12-01T14:00:00Z'); // New York (EST, UTC-5)
    await runCampaign(d, campaign.id);
    expect((await sentTo()).sort((x, y) => x - y)).toEqual(
      [ny, tokyoPhone, berlin, plain].sort((x, y) => x - y),
    );
    const done = (await api('GET', `/api/campaigns/${campaign.id}/`)).json().result as TCampaign;
    expect(done).toMatchObject({ status: 'sent', recipients: 4, processed: 4 });
    expect(new Set((await sendsOf(campaign.id)).map((s) => s.subject))).toEqual(new Set(['Hello']));
  });
});

describe('pause and resume', () => {
  it('pause stops within seconds and holds back what no sender took; resume sends nobody twice', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 9; i++) ids.push(await customer(`PR${i}`, { email: `pr${i}@example.test` }));
    await subscribe(ids);
    const l = await list('Pause list', ids);
    now = new Date('2026-12-02T10:00:00Z');
    const campaign = await create({ name: 'Pausable', audience: { list_ids: [l] } });
    await schedule(campaign.id);
    // The sender takes the first batch's first send (it went out); the pause comes after that batch.
    const email = rt.services.broadcasts.channels.get('email')!;
    let pausedIn = -1;
    const channel: BroadcastChannel = {
      prepare: email.prepare?.bind(email),
      queueBatch: (tx, b, c) => email.queueBatch(tx, b, c),
      async dispatch(sendIds) {
        await rt.database.query(`update sends set status = 'sending', claimed_at = now() where id = $1`, [
          sendIds[0],
        ]);
        if (pausedIn < 0) {
          const t = Date.now();
          await pauseCampaign(d, business.id, campaign.id);
          pausedIn = Date.now() - t;
        }
      },
    };
    const d = deps({ broadcasts: { ...rt.services.broadcasts, channels: new Map([['email', channel]]) } });
    await runCampaign(d, campaign.id);
    expect(pausedIn).toBeGreaterThanOrEqual(0);
    expect(pausedIn).toBeLessThan(5000);
    let rows = await sendsOf(campaign.id);
    // One batch of 3: one taken by a sender, two cancelled before anyone sent them.
    expect(rows.map((r) => r.status).sort()).toEqual(['cancelled', 'cancelled', 'sending']);
    expect((await api('GET', `/api/campaigns/${campaign.id}/`)).json().result.status).toBe('paused');
    // While paused a pass records nothing.
    await runCampaign(d, campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(3);

    const resumed = await api('POST', `/api/campaigns/${campaign.id}/resume/`);
    expect(resumed.json().result.status).toBe('sending');
    await runCampaign(deps(), campaign.id);
    rows = await sendsOf(campaign.id);
    const live = rows.filter((r) => r.status !== 'cancelled');
    // Every customer exactly one send that is (or will be) sent.
    expect(live.map((r) => Number(r.customer_id)).sort((a, b) => a - b)).toEqual(ids);
    expect((await api('GET', `/api/campaigns/${campaign.id}/`)).json().result.status).toBe('sent');
    // The first campaign broadcast is closed; a pass again records nothing more.
    await runCampaign(deps(), campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(rows.length);
  });

  it('cancel ends a campaign: nothing more is recorded', async () => {
    const ids = [
      await customer('C1', { email: 'c1@example.test' }),
      await customer('C2', { email: 'c2@example.test' }),
    ];
    await subscribe(ids);
    const campaign = await create({
      name: 'Cancelled',
      audience: { list_ids: [await list('Cancel list', ids)] },
    });
    await schedule(campaign.id);
    const res = await api('POST', `/api/campaigns/${campaign.id}/cancel/`);
    expect(res.json().result.status).toBe('cancelled');
    await runCampaign(deps(), campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(0);
    expect((await api('POST', `/api/campaigns/${campaign.id}/resume/`)).statusCode).toBe(409);
  });
});

describe('a crash mid-send', () => {
  it('resumes with one send per recipient', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await customer(`K${i}`, { email: `k${i}@example.test` }));
    await subscribe(ids);
    now = new Date('2026-12-02T11:00:00Z');
    const campaign = await create({
      name: 'Crashing',
      audience: { list_ids: [await list('Crash list', ids)] },
    });
    await schedule(campaign.id);
    const email = rt.services.broadcasts.channels.get('email')!;
    let batches = 0;
    const dying: BroadcastChannel = {
      prepare: email.prepare?.bind(email),
      async queueBatch(tx, b, c) {
        const out = await email.queueBatch(tx, b, c);
        if (++batches === 2) throw new Error('the process stopped here'); // inside the batch's transaction
        return out;
      },
      dispatch: (sendIds) => email.dispatch(sendIds),
    };
    const crashing = deps({
      broadcasts: { ...rt.services.broadcasts, channels: new Map([['email', dying]]) },
    });
    await expect(runCampaign(crashing, campaign.id)).rejects.toThrow('the process stopped here');
    expect(await sendsOf(campaign.id)).toHaveLength(3);
    await runCampaign(deps(), campaign.id);
    const rows = await sendsOf(campaign.id);
    expect(rows.map((r) => Number(r.customer_id))).toEqual(ids);
    expect((await api('GET', `/api/campaigns/${campaign.id}/`)).json().result.status).toBe('sent');
  });
});

describe('passes at once', () => {
  it('four passes started together open one broadcast per variant and record each recipient once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await customer(`P${i}`, { email: `p${i}@example.test` }));
    await subscribe(ids);
    now = new Date('2026-12-02T12:00:00Z');
    const campaign = await create({
      name: 'Raced',
      audience: { list_ids: [await list('Race list', ids)] },
      ab: {
        variants: [{ subject: 'Race A' }, { subject: 'Race B' }],
        test_share: 1,
        metric: 'opens',
        wait_minutes: 30,
      },
    });
    await schedule(campaign.id);
    const d = deps({ batchSize: 3 });
    await Promise.all([1, 2, 3, 4].map(() => runCampaign(d, campaign.id)));
    const rows = await sendsOf(campaign.id);
    // Every customer once: no pass recorded a batch another had taken.
    expect(rows.map((r) => Number(r.customer_id))).toEqual(ids);
    const body = (await api('GET', `/api/campaigns/${campaign.id}/`)).json().result;
    const used = new Set(rows.map((r) => r.cause_id));
    // The campaign remembers every broadcast its sends went out under: none was lost to a race.
    const remembered = await rt.database.query<{ broadcasts: { id: string; variant: number }[] }>(
      `select broadcasts from campaigns where id = $1`,
      [campaign.id],
    );
    const known = new Set(remembered[0]!.broadcasts.map((b) => b.id));
    for (const id of used) expect(known.has(id), `broadcast ${id} of a send is on the campaign`).toBe(true);
    expect(new Set(rows.map((r) => r.subject))).toEqual(new Set(['Race A', 'Race B']));
    expect(body.status).toBe('sent'); // the test share is everyone: nobody waits for a winner
  });
});

describe('the throttle', () => {
  it('records at most throttle_per_hour sends in any hour', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await customer(`T${i}`, { email: `t${i}@example.test` }));
    await subscribe(ids);
    now = new Date('2026-12-05T10:00:00Z');
    const campaign = await create({
      name: 'Throttled',
      audience: { list_ids: [await list('Throttle list', ids)] },
      throttle_per_hour: 2,
    });
    await schedule(campaign.id);
    const next = await runCampaign(deps(), campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(2);
    expect(next?.toISOString()).toBe('2026-12-05T11:00:00.000Z');
    now = new Date('2026-12-05T10:59:00Z');
    await runCampaign(deps(), campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(2);
    now = new Date('2026-12-05T11:00:00Z');
    await runCampaign(deps(), campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(4);
    now = new Date('2026-12-05T12:00:00Z');
    await runCampaign(deps(), campaign.id);
    expect(await sendsOf(campaign.id)).toHaveLength(5);
  });
});

describe('the default sender', () => {
  it('set once per domain, is the From of campaigns that give none', async () => {
    const created = await api('POST', '/api/email/domains/', { domain: 'acme.test' });
    expect(created.statusCode, created.body).toBe(201);
    const domainId = created.json().result.id as number;
    const wrong = await api('PUT', `/api/email/domains/${domainId}/`, {
      default_from: 'News <news@elsewhere.test>',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().result.default_from).toEqual(['The address must be on acme.test.']);
    const set = await api('PUT', `/api/email/domains/${domainId}/`, {
      default_from: 'Acme News <News@acme.test>',
    });
    expect(set.json().result.default_from).toBe('Acme News <news@acme.test>');
    const campaign = await create({ name: 'No sender given', sender: null, audience: { list_ids: [] } });
    const before = (await api('GET', `/api/campaigns/${campaign.id}/checklist/`)).json().result;
    // A pending domain's default is not used.
    expect(before.items.find((i: { key: string }) => i.key === 'sender').ok).toBe(false);
    await rt.database.query(`update email_domains set status = 'verified' where id = $1`, [domainId]);
    const after = (await api('GET', `/api/campaigns/${campaign.id}/checklist/`)).json().result;
    expect(after.items.find((i: { key: string }) => i.key === 'sender').ok).toBe(true);
    const test = await api('POST', `/api/campaigns/${campaign.id}/test/`, { to: ['staff@acme.test'] });
    const [send] = await rt.database.query<{ provider_request: { from?: string } }>(
      `select provider_request from sends where id = $1`,
      [test.json().result.send_ids[0]],
    );
    expect(JSON.stringify(send!.provider_request)).toContain('news@acme.test');

    // send-mail without `from` sends from the default too.
    const mail = await api('POST', '/api/agents/send-mail/', {
      email: 'someone@example.test',
      subject: 'Receipt',
      text: 'Thanks',
    });
    expect(mail.statusCode, mail.body).toBeLessThan(300);
    const [sent] = await rt.database.query<{ provider_request: { from?: string } }>(
      `select provider_request from sends where id = $1`,
      [mail.json().result.id],
    );
    expect(sent!.provider_request.from).toBe('"Acme News" <news@acme.test>');
  });
});

describe('A/B', () => {
  it('sends the variants to the test share, picks the winner by opens after the wait, and sends it to the rest', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) ids.push(await customer(`AB${i}`, { email: `ab${i}@example.test` }));
    await subscribe(ids);
    now = new Date('2026-12-03T10:00:00Z');
    const campaign = await create({
      name: 'Subject test',
      audience: { list_ids: [await list('AB list', ids)] },
      content: { subject: 'Base', html: '<p>Hi <a href="https://acme.test/ab">go</a></p>' },
      ab: {
        variants: [{ subject: 'Subject A' }, { subject: 'Subject B' }],
        test_share: 0.5,
        metric: 'opens',
        wait_minutes: 30,
      },
    });
    await schedule(campaign.id);
    const d = deps({ batchSize: 50 });
    await runCampaign(d, campaign.id);
    const test = await sendsOf(campaign.id);
    const recipients = await recipientsOf(campaign.id);
    const waiting = recipients.filter((r) => r.state === 'waiting');
    expect(test.length + waiting.length).toBe(24);
    expect(test.length).toBeGreaterThan(0);
    expect(waiting.length).toBeGreaterThan(0);
    const subjects = new Set(test.map((s) => s.subject));
    expect(subjects).toEqual(new Set(['Subject A', 'Subject B']));
    // People open B's mail; machines open A's (those do not count).
    for (const s of test) {
      await recordSendEvent(rt.database.db, {
        sendId: s.id,
        type: 'opened',
        payload: { machine: s.subject === 'Subject A' },
        raise: s.subject !== 'Subject A',
      });
    }
    await runCampaign(d, campaign.id); // the test is done: the wait starts
    now = new Date(now.getTime() + 29 * 60_000);
    await runCampaign(d, campaign.id);
    expect((await api('GET', `/api/campaigns/${campaign.id}/`)).json().result.winner).toBeNull();
    now = new Date(now.getTime() + 2 * 60_000);
    await runCampaign(d, campaign.id);
    await runCampaign(d, campaign.id);
    const got = (await api('GET', `/api/campaigns/${campaign.id}/`)).json().result as TCampaign;
    expect(got).toMatchObject({ winner: 1, status: 'sent' });
    const all = await sendsOf(campaign.id);
    expect(all).toHaveLength(24);
    const rest = all.filter((s) => waiting.some((w) => w.customer_id === s.customer_id));
    expect(rest.every((s) => s.subject === 'Subject B')).toBe(true);
    const report = (await api('GET', `/api/campaigns/${campaign.id}/report/`)).json()
      .result as TCampaignReport;
    expect(report.variants.map((v) => v.winner)).toEqual([false, true]);
    expect(report.variants[0]!.opened).toBe(0);
    expect(report.variants[0]!.opened_machine).toBe(test.filter((s) => s.subject === 'Subject A').length);
  });
});

describe('results', () => {
  it("equal the sends' events: opens (machines apart), clicks per link with unique clickers, bounces, unsubscribes; CSV names each send", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await customer(`R${i}`, { email: `r${i}@example.test` }));
    await subscribe(ids);
    now = new Date('2026-12-04T10:00:00Z');
    const campaign = await create({
      name: 'Measured',
      audience: { list_ids: [await list('Results list', ids)] },
    });
    await schedule(campaign.id);
    await runCampaign(deps(), campaign.id);
    const rows = await sendsOf(campaign.id);
    expect(rows).toHaveLength(5);
    const [s0, s1, s2, s3, s4] = rows.map((r) => r.id) as [string, string, string, string, string];
    const db = rt.database.db;
    await rt.database.query(`update sends set status = 'sent' where id = any($1::uuid[])`, [
      [s0, s1, s2, s3],
    ]);
    await rt.database.query(`update sends set status = 'bounced' where id = $1`, [s4]);
    await recordSendEvent(db, { sendId: s0, type: 'opened', payload: { machine: false } });
    await recordSendEvent(db, { sendId: s0, type: 'opened', payload: { machine: false } });
    await recordSendEvent(db, { sendId: s1, type: 'opened', payload: { machine: true }, raise: false });
    await recordSendEvent(db, {
      sendId: s0,
      type: 'clicked',
      payload: { url: 'https://acme.test/a', machine: false },
    });
    await recordSendEvent(db, {
      sendId: s0,
      type: 'clicked',
      payload: { url: 'https://acme.test/a', machine: false },
    });
    await recordSendEvent(db, {
      sendId: s2,
      type: 'clicked',
      payload: { url: 'https://acme.test/a', machine: false },
    });
    await recordSendEvent(db, {
      sendId: s2,
      type: 'clicked',
      payload: { url: 'https://acme.test/b', machine: false },
    });
    await recordSendEvent(db, {
      sendId: s3,
      type: 'clicked',
      payload: { url: 'https://acme.test/b', machine: true },
      raise: false,
    });
    await recordSendEvent(db, { sendId: s3, type: 'unsubscribed', payload: {}, raise: false });
    const report = (await api('GET', `/api/campaigns/${campaign.id}/report/`)).json()
      .result as TCampaignReport;
    // The same figures counted straight from the sends and their events.
    const [raw] = await rt.database.query<Record<string, number>>(
      `with s as (select s.* from sends s join broadcasts b on b.id::text = s.cause_id where b.campaign_id = $1)
       select
         (select count(*)::int from s where status not in ('queued','sending','suppressed','cancelled','failed')) as sent,
         (select count(distinct e.send_id)::int from send_events e join s on s.id = e.send_id
            where e.type in ('opened','clicked') and not coalesce((e.payload->>'machine')::boolean, false)) as opened,
         (select count(distinct e.send_id)::int from send_events e join s on s.id = e.send_id
            where e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)) as clicked,
         (select count(*)::int from s where status = 'bounced') as bounced,
         (select count(distinct e.send_id)::int from send_events e join s on s.id = e.send_id where e.type = 'unsubscribed') as unsubscribed`,
      [campaign.id],
    );
    expect(report.totals).toMatchObject({ recipients: 5, ...raw });
    expect(report.totals).toMatchObject({
      sent: 5,
      opened: 2,
      opened_machine: 1,
      clicked: 2,
      bounced: 1,
      unsubscribed: 1,
    });
    expect(report.links).toEqual([
      { url: 'https://acme.test/a', clicks: 3, unique_clickers: 2 },
      { url: 'https://acme.test/b', clicks: 1, unique_clickers: 1 },
    ]);
    expect(report.series.reduce((n, p) => n + p.clicked, 0)).toBe(4);
    const page = (await api('GET', `/api/campaigns/${campaign.id}/recipients/?page_size=2`)).json().result;
    expect(page.count).toBe(5);
    expect(page.results[0]).toMatchObject({ send_id: s0, state: 'recorded', address: 'r0@example.test' });
    const csv = await api('GET', `/api/campaigns/${campaign.id}/download/`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(6);
    expect(csv.body).toContain(s4);
  });
});

describe('checklist, tests and tenancy', () => {
  it('the checklist names an unverified domain and an empty audience; schedule refuses them', async () => {
    const campaign = await create({
      name: 'Unready',
      sender: 'x@unverified.test',
      audience: { list_ids: [await list('Empty list', [])] },
    });
    const res = await api('GET', `/api/campaigns/${campaign.id}/checklist/`);
    expect(res.statusCode, res.body).toBe(200);
    const items = Object.fromEntries(
      (res.json().result.items as { key: string; ok: boolean }[]).map((i) => [i.key, i.ok]),
    );
    expect(items).toMatchObject({ audience: false, domain_verified: false, quota: true });
    // Content without its own unsubscribe link is ready: every campaign mail's footer carries one.
    expect((res.json().result.items as { key: string }[]).find((i) => i.key === 'unsubscribe')).toEqual({
      key: 'unsubscribe',
      ok: true,
      detail: CAMPAIGN_ERRORS.noUnsubscribe,
    });
    expect(res.json().result.ready).toBe(false);
    expect((await api('POST', `/api/campaigns/${campaign.id}/schedule/`)).statusCode).toBe(400);
  });

  it('test-sends each variant to staff addresses (cause test)', async () => {
    const campaign = await create({ name: 'Tested', audience: { list_ids: [] } });
    const res = await api('POST', `/api/campaigns/${campaign.id}/test/`, {
      to: ['staff@acme.test', 'boss@acme.test'],
    });
    expect(res.statusCode, res.body).toBe(202);
    const ids = res.json().result.send_ids as string[];
    const rows = await rt.database.query<{ cause: string; subject: string; recipient: string }>(
      `select cause, subject, recipient from sends where id = any($1::uuid[]) order by recipient`,
      [ids],
    );
    expect(rows).toEqual([
      { cause: 'test', subject: '[Test] Hello', recipient: 'boss@acme.test' },
      { cause: 'test', subject: '[Test] Hello', recipient: 'staff@acme.test' },
    ]);
    const bad = await api('POST', `/api/campaigns/${campaign.id}/test/`, { to: ['not an address'] });
    expect(bad.statusCode).toBe(400);
  });

  it("another business's campaign is not found, by any route", async () => {
    const campaign = await create({ name: 'Ours', audience: { list_ids: [] } });
    for (const [method, path] of [
      ['GET', ''],
      ['GET', 'report/'],
      ['GET', 'recipients/'],
      ['GET', 'download/'],
      ['GET', 'checklist/'],
      ['POST', 'schedule/'],
      ['POST', 'pause/'],
      ['POST', 'cancel/'],
      ['DELETE', ''],
    ] as const) {
      const res = await api(
        method,
        `/api/campaigns/${campaign.id}/${path}`,
        undefined,
        other.business,
        other.owner,
      );
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    const listed = await api('GET', '/api/campaigns/', undefined, other.business, other.owner);
    expect(listed.json().result.count).toBe(0);
    expect((await api('DELETE', `/api/campaigns/${campaign.id}/`)).statusCode).toBe(200);
  });
});
