// engage.md: the email, WhatsApp and SMS logs share one query, agent_id included — the sends of that
// agent's runs in this business, in the list and in the CSV; another business's agent finds none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';

let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
let otherOwner: Session;
let other: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner);
  otherOwner = await signUp(rt.app!, rt.mailer);
  other = await createBusiness(rt.app!, otherOwner);
});
afterAll(() => rt.destroy());

async function agentWithRun(businessId: number, channel: 'sms' | 'whatsapp') {
  const [agent] = await rt.database.query<{ id: string }>(
    "insert into agents (business_id, name) values ($1, 'Win-back') returning id",
    [businessId],
  );
  const [run] = await rt.database.query<{ id: string }>(
    `insert into agent_runs (agent_id, business_id, channel, slot, trigger, config_version, send_mode, status)
     values ($1, $2, $3, now(), 'schedule', 1, 'auto', 'completed') returning id`,
    [agent!.id, businessId, channel],
  );
  return { agentId: Number(agent!.id), runId: run!.id };
}

async function sent(businessId: number, channel: 'sms' | 'whatsapp', runId: string | null) {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into sends (business_id, channel, cause, cause_id, recipient, provider_request, status, provider_message_id)
     values ($1, $2, $3, $4, '+12015550123', '{"body":"hi"}', 'delivered', 'P' || gen_random_uuid())
     returning id`,
    [businessId, channel, runId ? 'agent' : 'test', runId],
  );
  return row!.id;
}

describe.each(['sms', 'whatsapp'] as const)('the %s log filters by agent_id', (channel) => {
  it('lists and exports only that agent’s sends in this business', async () => {
    const mine = await agentWithRun(business.id, channel);
    const another = await agentWithRun(business.id, channel);
    const theirs = await agentWithRun(other.id, channel);
    const sentByMine = await sent(business.id, channel, mine.runId);
    await sent(business.id, channel, another.runId);
    await sent(business.id, channel, null);
    await sent(other.id, channel, theirs.runId);

    const list = async (query: string) => {
      const res = await rt.app!.inject({
        url: `/api/${channel}/events/?${query}`,
        headers: as(owner, business),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result.results.map((l: { tracking_id: string }) => l.tracking_id) as string[];
    };
    expect(await list(`agent_id=${mine.agentId}`)).toEqual([sentByMine]);
    expect(await list(`agent_id=${theirs.agentId}`)).toEqual([]);
    expect((await list('page_size=100')).length).toBeGreaterThanOrEqual(3);

    const csv = await rt.app!.inject({
      url: `/api/${channel}/events/download/?agent_id=${mine.agentId}`,
      headers: as(owner, business),
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split(/\r?\n/).slice(1);
    expect(lines.map((l) => l.split(',')[0])).toEqual([sentByMine]);

    const bad = await rt.app!.inject({
      url: `/api/${channel}/events/?agent_id=x`,
      headers: as(owner, business),
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result)).toContain('agent_id');
  });
});
