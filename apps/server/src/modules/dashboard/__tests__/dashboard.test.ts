// GET /api/metrics/engage/: the dashboard's figures as a business sees them — its own conversations
// and sends only, a daily series with zero days, and 400s in words for a bad range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TBusiness, TEngageMetrics } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { startConversation } from '../../conversations/conversations.service';
import * as sends from '../../sends/sends.service';

let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

beforeAll(async () => {
  rt = await createTestRuntime();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Acme');
  const otherOwner = await signUp(rt.app!, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(rt.app!, otherOwner, 'Other') };
}, 120_000);
afterAll(async () => rt?.destroy());

const metrics = async (query = '', who = { owner, business }) =>
  rt.app!.inject({
    method: 'GET',
    url: `/api/metrics/engage/${query}`,
    headers: as(who.owner, who.business),
  });

async function send(businessId: number, channel: 'email' | 'sms', cause: 'agent' | 'test', status?: string) {
  const { row } = await sends.recordOnce(
    rt.database.db,
    {
      businessId,
      channel,
      cause,
      recipient: channel === 'sms' ? '+14155550100' : 'a@example.com',
      providerRequest: {},
    },
    null,
  );
  if (status === 'failed')
    await sends.recordFailed(rt.database.db, row.id, { errorCode: 'x', errorMessage: 'Refused' });
  if (status === 'delivered') {
    await rt.database.db.execute(sql`update sends set status = 'delivered' where id = ${row.id}`);
  }
}

describe('the dashboard', () => {
  it('answers zeros and an empty day series for a new business', async () => {
    const res = await metrics();
    expect(res.statusCode).toBe(200);
    const m: TEngageMetrics = res.json().result;
    expect(m.conversations).toEqual({
      opened: 0,
      unanswered: 0,
      answered: 0,
      median_first_response_seconds: null,
    });
    expect(m.series.length).toBeGreaterThanOrEqual(30);
    expect(m.series.every((d) => d.conversations_opened === 0 && d.email === 0)).toBe(true);
    expect(m.agents.runs).toEqual({ total: 0, completed: 0, failed: 0, awaiting_approval: 0 });
  });

  it('counts conversations opened, unanswered and the median first response', async () => {
    const db = rt.database.db;
    const answered = await startConversation(db, {
      businessId: business.id,
      channel: 'titan_message',
      initiatorId: null,
      title: 'A',
    });
    await startConversation(db, {
      businessId: business.id,
      channel: 'titan_message',
      initiatorId: null,
      title: 'B',
    });
    await startConversation(db, {
      businessId: other.business.id,
      channel: 'titan_message',
      initiatorId: null,
      title: 'X',
    });
    // Started two minutes ago, answered now.
    await db.execute(
      sql`update conversations set created_at = now() - interval '120 seconds' where id = ${answered.id}`,
    );
    const reply = await rt.app!.inject({
      method: 'POST',
      url: `/api/msg/conversations/${answered.id}/messages/`,
      headers: as(owner, business),
      payload: { content: 'Hello!' },
    });
    expect(reply.statusCode).toBe(201);
    const m: TEngageMetrics = (await metrics()).json().result;
    expect(m.conversations.opened).toBe(2);
    expect(m.conversations.unanswered).toBe(1);
    expect(m.conversations.answered).toBe(1);
    expect(m.conversations.median_first_response_seconds).toBeGreaterThanOrEqual(119);
    expect(m.conversations.median_first_response_seconds).toBeLessThan(180);
    expect(m.series.at(-1)!.conversations_opened).toBe(2);
  });

  it('counts sends per channel and outcome, agents’ deliveries apart, and only this business’s', async () => {
    await send(business.id, 'email', 'agent', 'delivered');
    await send(business.id, 'email', 'test', 'failed');
    await send(business.id, 'sms', 'agent');
    await send(other.business.id, 'sms', 'test');
    const m: TEngageMetrics = (await metrics()).json().result;
    const email = m.sends.channels.find((c) => c.channel === 'email')!;
    expect(email).toMatchObject({ total: 2, delivered: 1, failed: 1, pending: 0 });
    // The staff reply above went out on the chat widget's own channel.
    expect(m.sends.channels.find((c) => c.channel === 'titan_message')!.total).toBe(1);
    expect(m.sends.channels.find((c) => c.channel === 'sms')).toMatchObject({ total: 1, pending: 1 });
    expect(m.agents.deliveries).toMatchObject({ total: 2, delivered: 1, pending: 1 });
    expect(m.series.at(-1)).toMatchObject({ email: 2, sms: 1 });
    const theirs: TEngageMetrics = (await metrics('', other)).json().result;
    expect(theirs.sends.channels.find((c) => c.channel === 'sms')!.total).toBe(1);
    expect(theirs.conversations.opened).toBe(1);
  });

  it('counts agent runs started in the range by how they stand, previews aside, and only this business’s', async () => {
    const db = rt.database.db;
    const agentOf = async (businessId: number) =>
      Number(
        (
          await rt.database.query<{ id: string }>(
            "insert into agents (business_id, name) values ($1, 'Win-back') returning id",
            [businessId],
          )
        )[0]!.id,
      );
    const mine = await agentOf(business.id);
    const theirs = await agentOf(other.business.id);
    const run = (agentId: number, businessId: number, status: string, trigger: string, startedAt: string) =>
      db.execute(sql`insert into agent_runs (agent_id, business_id, channel, slot, trigger, config_version, send_mode, status, started_at)
        values (${agentId}, ${businessId}, 'email', ${startedAt}::timestamptz, ${trigger}, 1, 'auto', ${status}, ${startedAt}::timestamptz)`);
    const today = new Date().toISOString();
    await run(mine, business.id, 'completed', 'schedule', today);
    await run(mine, business.id, 'failed', 'manual', new Date(Date.now() - 60_000).toISOString());
    await run(
      mine,
      business.id,
      'awaiting_approval',
      'schedule',
      new Date(Date.now() - 120_000).toISOString(),
    );
    await run(mine, business.id, 'completed', 'preview', new Date(Date.now() - 180_000).toISOString());
    await run(mine, business.id, 'completed', 'schedule', '2020-01-01T09:00:00Z');
    await run(theirs, other.business.id, 'completed', 'schedule', today);
    const m: TEngageMetrics = (await metrics()).json().result;
    expect(m.agents.runs).toEqual({ total: 3, completed: 1, failed: 1, awaiting_approval: 1 });
    const t: TEngageMetrics = (await metrics('', other)).json().result;
    expect(t.agents.runs).toEqual({ total: 1, completed: 1, failed: 0, awaiting_approval: 0 });
  });

  it('answers a chosen range, and 400 in words for a range that ends first or is too long', async () => {
    const past: TEngageMetrics = (
      await metrics('?created_at__gte=2025-01-01T00:00:00Z&created_at__lte=2025-01-07T23:59:59Z')
    ).json().result;
    expect(past.series.map((d) => d.date)).toEqual([
      '2025-01-01',
      '2025-01-02',
      '2025-01-03',
      '2025-01-04',
      '2025-01-05',
      '2025-01-06',
      '2025-01-07',
    ]);
    expect(past.conversations.opened).toBe(0);
    const backwards = await metrics(
      '?created_at__gte=2025-02-01T00:00:00Z&created_at__lte=2025-01-01T00:00:00Z',
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().result.created_at__lte).toEqual(['Must not be before created_at__gte.']);
    const long = await metrics('?created_at__gte=2020-01-01T00:00:00Z&created_at__lte=2025-01-01T00:00:00Z');
    expect(long.statusCode).toBe(400);
    expect((await metrics('?created_at__gte=yesterday')).statusCode).toBe(400);
  });

  it('counts each status as the event logs and the email metrics do, over the same window', async () => {
    // A business of its own: the figures are only these sends.
    const o = await signUp(rt.app!, rt.mailer);
    const b = await createBusiness(rt.app!, o, 'Same Numbers');
    const who = { owner: o, business: b };
    const statuses = [
      'sent',
      'sent',
      'sent',
      'opened',
      'clicked',
      'delivered',
      'bounced',
      'complained',
      'queued',
    ];
    for (const status of statuses) {
      const { row } = await sends.recordOnce(
        rt.database.db,
        {
          businessId: b.id,
          channel: 'email',
          cause: 'test',
          recipient: 'a@example.com',
          providerRequest: {},
        },
        null,
      );
      await rt.database.db.execute(sql`update sends set status = ${status} where id = ${row.id}`);
    }
    await sends.recordFailed(
      rt.database.db,
      (
        await sends.recordOnce(
          rt.database.db,
          {
            businessId: b.id,
            channel: 'email',
            cause: 'test',
            recipient: 'b@example.com',
            providerRequest: {},
          },
          null,
        )
      ).row.id,
      { errorCode: 'x', errorMessage: 'Refused' },
    );
    const window = `?created_at__gte=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&created_at__lte=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    const dash: TEngageMetrics = (await metrics(window, who)).json().result;
    const email = dash.sends.channels.find((c) => c.channel === 'email')!;
    // Mail the server accepted and that did not bounce is delivered (no relay reports more).
    expect(email).toMatchObject({ total: 10, delivered: 7, failed: 2, pending: 1, sent: 0 });
    const get = (url: string) =>
      rt.app!.inject({ method: 'GET', url, headers: as(o, b) }).then((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.json().result;
      });
    for (const outcome of ['delivered', 'failed', 'pending', 'sent', 'not_sent'] as const) {
      const logs = await get(`/api/email/events/${window}&outcome=${outcome}`);
      expect(logs.count, outcome).toBe(email[outcome]);
    }
    const em = await get(`/api/metrics/email-metrics/${window}`);
    expect(em.totals.delivered).toBe(email.delivered);
    expect(em.totals.sent).toBe(email.delivered + 1); // and the bounce: it was sent
    const bad = await rt.app!.inject({
      method: 'GET',
      url: '/api/email/events/?outcome=arrived',
      headers: as(o, b),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('counts days in the business’s time zone', async () => {
    const o = await signUp(rt.app!, rt.mailer);
    const b = await createBusiness(rt.app!, o, 'Far East');
    const who = { owner: o, business: b };
    const put = await rt.app!.inject({
      method: 'PUT',
      url: '/api/business/',
      headers: as(o, b),
      payload: { time_zone: 'Asia/Tokyo' },
    });
    expect(put.statusCode, put.body).toBe(200);
    // 20:00 UTC on 2 Jan is 05:00 on 3 Jan in Tokyo.
    const { row } = await sends.recordOnce(
      rt.database.db,
      { businessId: b.id, channel: 'sms', cause: 'test', recipient: '+14155550100', providerRequest: {} },
      null,
    );
    await rt.database.db.execute(
      sql`update sends set created_at = '2025-01-02T20:00:00Z' where id = ${row.id}`,
    );
    const m: TEngageMetrics = (
      await metrics('?created_at__gte=2025-01-01T15:00:00Z&created_at__lte=2025-01-04T14:59:59Z', who)
    ).json().result;
    expect(m.series.map((d) => d.date)).toEqual(['2025-01-02', '2025-01-03', '2025-01-04']);
    expect(m.series.find((d) => d.sms === 1)!.date).toBe('2025-01-03');
  });
});
