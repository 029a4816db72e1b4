// The "hand to an AI agent" step against tools/llm-sim (the model) and a verified sending domain:
// the step starts one run of the agent for the customer alone (the agent's own audience untouched)
// and records it on the customer's path; the run sends that customer exactly one delivery through
// the agent's guardrails (review mode holds it for approval); a step taken again under the same key
// finds its run instead of starting a second; another business's agent is not found at save time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_SIM_KEY,
  DEFAULT_SIM_MODEL,
  startLlmSim,
  type LlmSim,
  type ScriptStep,
} from '@titan/llm-sim';
import type {
  TAgentConfigRequest,
  TAgentRun,
  TBusiness,
  TJourney,
  TJourneyCustomerPath,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { dkimKey, freePort, verifiedDomains } from '../../email/__tests__/email-helpers';
import { processRun } from '../../agents/runs/lifecycle';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys } from '../journeys.engine';

let llm: LlmSim;
let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
const now = new Date('2026-12-01T10:00:00Z');
/** Agent runs the engine handed on after its commits (the run loop's jobs, worked here). */
const dispatched: string[] = [];

function deps(): JourneyDeps {
  const base = rt.services.journeys;
  return {
    ...base,
    clock: () => now,
    wake: () => undefined,
    ports: {
      ...base.ports,
      dispatchAgentRuns: async (ids) => {
        dispatched.push(...ids);
      },
    },
  };
}

const api = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  who: { owner: Session; business: TBusiness } = { owner, business },
) =>
  app.inject({
    method,
    url,
    headers: as(who.owner, who.business),
    ...(payload ? { payload: payload as object } : {}),
  });

let n = 0;
async function customer(name: string, b = business): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, email, email_status)
       values ($1, $2, $3, 'subscribed') returning id`,
    [b.id, name, `${name.toLowerCase()}${++n}@example.com`],
  );
  return Number(row!.id);
}

const config = (listId: number, over: Partial<TAgentConfigRequest> = {}): TAgentConfigRequest => ({
  instructions: 'Write warmly and briefly.',
  goal: 'Welcome new customers',
  audience: { list_ids: [listId] },
  channels: [{ channel: 'email', from: 'hello@shop.test' }],
  tools: [],
  limits: { max_sends_per_run: 100, per_recipient_per_week: 3, max_steps: 6, max_tokens: 4000 },
  send_mode: 'auto',
  quiet_hours: null,
  ...over,
});

async function agent(over: Partial<TAgentConfigRequest> = {}, who = { owner, business }): Promise<number> {
  // The agent's own audience: a list of other customers, whom a journey's run never reaches.
  const members = [await customer('Listed', who.business), await customer('Listed', who.business)];
  const l = await api('POST', '/api/business/customer-lists/', { name: `List ${++n}` }, who);
  const listId = l.json().result.id as number;
  await api('POST', `/api/business/customer-lists/${listId}/members/`, { customer_ids: members }, who);
  const res = await api(
    'POST',
    '/api/agents/',
    { name: `Agent ${++n}`, status: 'active', config: config(listId, over) },
    who,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result.id as number;
}

const decision: ScriptStep = {
  kind: 'json',
  value: {
    send: true,
    channel: 'email',
    template_id: null,
    variables: [],
    subject: 'Welcome aboard',
    body: 'Hello! Glad to have you with us.',
    reason: 'Just joined.',
  },
  usage: { prompt_tokens: 100, completion_tokens: 20 },
};

const handOff = (event: string, agentId: number, channel?: string) => ({
  name: `Hand ${event} to an agent`,
  graph: {
    nodes: [
      { id: 'start', type: 'trigger', config: { kind: 'event', event } },
      { id: 'ai', type: 'agent', config: { agent_id: agentId, ...(channel ? { channel } : {}) } },
      { id: 'done', type: 'exit', config: {} },
    ],
    edges: [
      { from: 'start', to: 'ai' },
      { from: 'ai', to: 'done' },
    ],
  },
});

async function live(body: Record<string, unknown>): Promise<TJourney> {
  const res = await api('POST', '/api/journeys/', body);
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json().result as TJourney).id;
  const published = await api('POST', `/api/journeys/${id}/publish/`);
  expect(published.statusCode, published.body).toBe(200);
  return published.json().result as TJourney;
}

async function post(name: string, customerId: number) {
  const res = await api('POST', '/api/events/', { name, customer: { id: customerId } });
  expect(res.statusCode, res.body).toBe(202);
}

async function path(id: number, customerId: number): Promise<TJourneyCustomerPath> {
  const res = await api('GET', `/api/journeys/${id}/customers/${customerId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TJourneyCustomerPath;
}

async function agentRun(agentId: number, runId: string): Promise<TAgentRun> {
  const res = await api('GET', `/api/agents/${agentId}/runs/${runId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TAgentRun;
}

const sendsOf = (runId: string) =>
  rt.database.query<{ customer_id: string; channel: string; cause: string }>(
    `select customer_id, channel, cause from sends where cause_id = $1`,
    [runId],
  );

beforeAll(async () => {
  llm = await startLlmSim({ models: [DEFAULT_SIM_MODEL] });
  rt = await createTestRuntime({
    env: {
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      LLM_TIMEOUT_MS: '2000',
      LLM_MAX_RETRIES: '0',
    },
  });
  app = rt.app!;
  await app.ready();
  rt.services.journeys.clock = () => now;
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Agent Steps Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Agents') };
  verifiedDomains([{ businessId: business.id, domain: 'shop.test', pem: dkimKey().pem }]);
  const saved = await api('PUT', '/api/config/llm/', {
    base_url: llm.baseUrl,
    model: DEFAULT_SIM_MODEL,
    api_key: DEFAULT_SIM_KEY,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await llm?.close();
});

describe('an agent step', () => {
  it('starts one run for the customer alone, which sends them exactly one delivery; the path links it', async () => {
    const agentId = await agent();
    const journey = await live(handOff('joined', agentId));
    const ada = await customer('Ada');
    dispatched.length = 0;
    await post('joined', ada);
    await drainJourneys(deps());
    const run = (await path(journey.id, ada)).runs[0]!;
    expect(run.status, JSON.stringify(run)).toBe('exited');
    expect(run.steps.map((s) => [s.node_id, s.status, s.reason])).toEqual([
      ['start', 'passed', null],
      ['ai', 'passed', null],
      ['done', 'exited', null],
    ]);
    const step = run.steps[1]!;
    expect(step.agent_run).toEqual({ agent_id: agentId, run_id: expect.any(String), channel: 'email' });
    const runId = step.agent_run!.run_id;
    expect(dispatched).toEqual([runId]);

    llm.script(decision);
    await processRun({ ...rt.services.agentRuns, concurrency: 1 }, runId);
    const agentRunSeen = await agentRun(agentId, runId);
    expect(agentRunSeen).toMatchObject({ status: 'completed', trigger: 'journey', channel: 'email' });
    expect(agentRunSeen.counts).toMatchObject({ considered: 1, sent: 1 });
    expect(agentRunSeen.deliveries.map((d) => [d.customer!.id, d.status])).toEqual([[ada, 'sent']]);
    const sends = await sendsOf(runId);
    expect(sends.map((s) => [Number(s.customer_id), s.channel, s.cause])).toEqual([[ada, 'email', 'agent']]);
    // Drained again: nothing more is started.
    await drainJourneys(deps());
    expect(dispatched).toEqual([runId]);
  });

  it('a step taken again under the same key finds its run: no second run, no second delivery', async () => {
    const agentId = await agent();
    const journey = await live(handOff('joined.again', agentId));
    const bo = await customer('Bo');
    dispatched.length = 0;
    await post('joined.again', bo);
    await drainJourneys(deps());
    const first = (await path(journey.id, bo)).runs[0]!;
    const runId = first.steps[1]!.agent_run!.run_id;
    llm.script(decision);
    await processRun({ ...rt.services.agentRuns, concurrency: 1 }, runId);
    // As if the worker's step ran again (its lease lapsed): the same visit of the same node, due.
    await rt.database.query(`delete from journey_steps where run_id = $1 and node_id = 'done'`, [first.id]);
    await rt.database.query(
      `update journey_steps set status = 'pending', due_at = $2, lease_until = null, finished_at = null,
         detail = null where run_id = $1 and node_id = 'ai'`,
      [first.id, now],
    );
    await rt.database.query(`update journey_runs set status = 'active', ended_at = null where id = $1`, [
      first.id,
    ]);
    await drainJourneys(deps());
    const again = (await path(journey.id, bo)).runs[0]!;
    expect(again.status).toBe('exited');
    expect(again.steps[1]).toMatchObject({ node_id: 'ai', status: 'passed' });
    expect(again.steps[1]!.agent_run!.run_id).toBe(runId);
    // Handed on once only: the run found again is not started again.
    expect(dispatched).toEqual([runId]);
    const runs = await rt.database.query<{ id: string }>(
      `select id from agent_runs where agent_id = $1 and customer_id = $2`,
      [agentId, bo],
    );
    expect(runs.map((r) => r.id)).toEqual([runId]);
    expect((await sendsOf(runId)).length).toBe(1);
  });

  it("the agent's guardrails hold: review mode waits for approval and sends nothing", async () => {
    const agentId = await agent({ send_mode: 'review' });
    const journey = await live(handOff('joined.review', agentId));
    const cy = await customer('Cy');
    await post('joined.review', cy);
    await drainJourneys(deps());
    const runId = (await path(journey.id, cy)).runs[0]!.steps[1]!.agent_run!.run_id;
    llm.script(decision);
    await processRun({ ...rt.services.agentRuns, concurrency: 1 }, runId);
    const seen = await agentRun(agentId, runId);
    expect(seen.status).toBe('awaiting_approval');
    expect(seen.deliveries.map((d) => [d.customer!.id, d.status])).toEqual([[cy, 'pending_approval']]);
    expect(await sendsOf(runId)).toEqual([]);
  });

  it('a paused agent starts no run: the step says why and the customer goes on', async () => {
    const agentId = await agent();
    const journey = await live(handOff('joined.paused', agentId));
    const paused = await api('PUT', `/api/agents/${agentId}/`, { status: 'paused' });
    expect(paused.statusCode, paused.body).toBe(200);
    const di = await customer('Di');
    dispatched.length = 0;
    await post('joined.paused', di);
    await drainJourneys(deps());
    const run = (await path(journey.id, di)).runs[0]!;
    expect(run.steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['ai', 'failed'],
      ['done', 'exited'],
    ]);
    expect(run.steps[1]!.reason).toMatch(/paused/);
    expect(run.steps[1]!.agent_run).toBeNull();
    expect(dispatched).toEqual([]);
  });

  it("runs on the step's channel (the agent's first when none is named); a channel the agent lacks is 400 on the field", async () => {
    const agentId = await agent({
      channels: [{ channel: 'email', from: 'hello@shop.test' }, { channel: 'sms' }],
    });
    const bySms = await live(handOff('joined.sms', agentId, 'sms'));
    const byDefault = await live(handOff('joined.first', agentId));
    const ed = await customer('Ed');
    dispatched.length = 0;
    await post('joined.sms', ed);
    await post('joined.first', ed);
    await drainJourneys(deps());
    const sms = (await path(bySms.id, ed)).runs[0]!.steps[1]!;
    expect(sms.agent_run, JSON.stringify(sms)).toMatchObject({ agent_id: agentId, channel: 'sms' });
    expect((await agentRun(agentId, sms.agent_run!.run_id)).channel).toBe('sms');
    const first = (await path(byDefault.id, ed)).runs[0]!.steps[1]!;
    expect(first.agent_run).toMatchObject({ agent_id: agentId, channel: 'email' });
    expect(dispatched.sort()).toEqual([sms.agent_run!.run_id, first.agent_run!.run_id].sort());

    const wrong = await api('POST', '/api/journeys/', handOff('joined.wa', agentId, 'whatsapp'));
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().result).toEqual({
      'graph.nodes.1.config.channel': ['The agent does not send on whatsapp; it sends on email, sms.'],
    });
    const unknown = await api('POST', '/api/journeys/', handOff('joined.wa', agentId, 'fax'));
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(Object.keys(unknown.json().result)).toEqual(['graph.nodes.1.config.channel']);

    // The agent stops sending on SMS after the journey was saved: the step says why, the customer goes on.
    const listId = (
      await rt.database.query<{ id: string }>(
        `select id from customer_lists where business_id = $1 order by id desc limit 1`,
        [business.id],
      )
    )[0]!.id;
    const changed = await api(
      'POST',
      `/api/agents/${agentId}/update-agent-config/`,
      config(Number(listId), { channels: [{ channel: 'email', from: 'hello@shop.test' }] }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const fay = await customer('Fay');
    dispatched.length = 0;
    await post('joined.sms', fay);
    await drainJourneys(deps());
    const run = (await path(bySms.id, fay)).runs[0]!;
    expect(run.steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['ai', 'failed'],
      ['done', 'exited'],
    ]);
    expect(run.steps[1]!.reason).toBe(
      'The agent no longer sends on sms: choose another channel for this step.',
    );
    expect(dispatched).toEqual([]);
  });

  it("another business's agent is not found at save time: 404 on the step's agent_id", async () => {
    const theirs = await agent({ channels: [{ channel: 'email', from: 'hi@other.test' }] }, other);
    const res = await api('POST', '/api/journeys/', handOff('x', theirs));
    expect(res.statusCode, res.body).toBe(404);
    expect(Object.keys(res.json().result)).toEqual(['graph.nodes.1.config.agent_id']);
    // Their own journey may use it.
    const ok = await api('POST', '/api/journeys/', handOff('x', theirs), other);
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
