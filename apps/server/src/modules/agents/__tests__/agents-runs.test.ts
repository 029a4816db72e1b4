// The agents' run loop against tools/llm-sim (the model), tools/sms-sim (Twilio) and a verified
// sending domain: runs per channel with the config version they used, decisions as deliveries
// becoming sends, every guardrail, review and dry run, preview, built-in and outside tools, LLM
// errors and timeouts, no model, a run killed and retried without a second send, schedules
// becoming runs, the unsubscribe link of agent mail, and another business refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_SIM_KEY,
  DEFAULT_SIM_MODEL,
  startLlmSim,
  type LlmSim,
  type ScriptStep,
} from '@titan/llm-sim';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import { sql } from 'drizzle-orm';
import {
  AGENT_RUN_MESSAGES as RM,
  LLM_MESSAGES,
  type TAgentConfigRequest,
  type TAgentPreviewResult,
  type TAgentRun,
  type TAgentRunSummary,
  type TAgentToolInfo,
  type TBusiness,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { dkimKey, freePort, verifiedDomains } from '../../email/__tests__/email-helpers';
import { insertCustomer } from '../../directory/directory.service';
import { suppress, findSuppression } from '../../suppressions/suppressions.service';
import { findLlmUsage } from '../../llm/llm.service';
import { findSendById } from '../../sends/sends.repository';
import { consumeFires, processRun, resumeStaleRuns, type AgentRunDeps } from '../agents.runs';
import { claimRun } from '../agents.runs.repository';
import { runScheduleTick } from '../agents.schedule';
import { localTime } from '../agents.guardrails';

// An outside tool (an MCP server's) through the seam: the other engineer's bodies stand behind it.
const weather = {
  source: 'mcp' as const,
  serverId: 77,
  name: 'forecast',
  modelName: 'mcp_77_forecast',
  description: 'The weather forecast for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  approval: 'auto' as const,
};
const callExternal = vi.hoisted(() => vi.fn());
vi.mock('../agents.external-tools', async (original) => {
  const real = await original<typeof import('../agents.external-tools')>();
  return {
    ...real,
    externalServerExists: async (_db: unknown, _b: number, _s: string, id: number) => id === 77,
    listExternalTools: async () => [weather],
    prepareExternalTools: async (
      _d: unknown,
      _b: number,
      allowed: { source: string; server_id?: number }[],
    ) => ({
      tools: allowed.some((t) => t.server_id === 77) ? [weather] : [],
      unavailable: allowed
        .filter((t) => t.source !== 'builtin' && t.server_id !== 77)
        .map((tool) => ({ tool, reason: 'The MCP server is not connected.' })),
    }),
    callExternalTool: callExternal,
  };
});

const SMS = {
  account_sid: 'AC0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c',
  auth_token: 'c-auth-token-0123456789abcdef0123',
  from_number: '+15550100400',
};

let llm: LlmSim;
let sms: SmsSim;
let rt: TestRuntime;
let deps: AgentRunDeps;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let template: number;

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  who: { owner: Session; business: TBusiness } = { owner, business },
) => rt.app!.inject({ method, url, headers: as(who.owner, who.business), ...(payload ? { payload } : {}) });

let phones = 0;
const phone = () => `+1415556${String(1000 + ++phones).slice(-4)}`;

type CustomerOver = Partial<Parameters<typeof insertCustomer>[1]>;
async function customer(over: CustomerOver = {}, b = business) {
  const n = ++phones;
  return insertCustomer(rt.services.db, {
    businessId: b.id,
    name: `Customer ${n}`,
    email: `customer${n}@example.com`,
    phone: `+1415557${String(1000 + n).slice(-4)}`,
    emailStatus: 'subscribed',
    smsStatus: 'subscribed',
    ...over,
  });
}

async function list(ids: number[], who = { owner, business }): Promise<number> {
  const l = await call('POST', '/api/business/customer-lists/', { name: `List ${++phones}` }, who);
  const id = l.json().result.id as number;
  if (ids.length > 0)
    await call('POST', `/api/business/customer-lists/${id}/members/`, { customer_ids: ids }, who);
  return id;
}

const baseConfig = (listId: number, over: Partial<TAgentConfigRequest> = {}): TAgentConfigRequest => ({
  instructions: 'Write warmly and briefly. Never promise discounts.',
  goal: 'Bring back customers who have not visited lately',
  audience: { list_ids: [listId] },
  channels: [{ channel: 'email', from: 'hello@shop.test' }],
  tools: [],
  limits: { max_sends_per_run: 100, per_recipient_per_week: 3, max_steps: 6, max_tokens: 4000 },
  send_mode: 'auto',
  quiet_hours: null,
  ...over,
});

async function agent(config: TAgentConfigRequest, who = { owner, business }): Promise<number> {
  const res = await call(
    'POST',
    '/api/agents/',
    { name: `Agent ${++phones}`, status: 'active', config },
    who,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result.id as number;
}

/** Starts a manual run and works it through here (the job's worker), one recipient at a time. */
async function runNow(agentId: number, channel?: string, d: Partial<AgentRunDeps> = {}): Promise<TAgentRun> {
  const res = await call('POST', `/api/agents/${agentId}/run-now/`, channel ? { channel } : {});
  expect(res.statusCode, res.body).toBe(202);
  const [run] = res.json().result.runs as TAgentRunSummary[];
  await processRun({ ...deps, concurrency: 1, ...d }, run!.id);
  return detail(agentId, run!.id);
}

async function detail(agentId: number, runId: string, query = ''): Promise<TAgentRun> {
  const res = await call('GET', `/api/agents/${agentId}/runs/${runId}/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TAgentRun;
}

const decision = (over: Record<string, unknown> = {}): ScriptStep => ({
  kind: 'json',
  value: {
    send: true,
    channel: 'email',
    template_id: null,
    variables: [],
    subject: 'We miss you',
    body: 'Hello! It has been a while.\n\nCome and see what is new.',
    reason: 'Has not visited for months.',
    ...over,
  },
  usage: { prompt_tokens: 120, completion_tokens: 30 },
});

async function sendsOfRun(runId: string) {
  return rt.database.query<{ id: string; channel: string; cause: string; idempotency_key: string }>(
    `select id, channel, cause, idempotency_key from sends where cause_id = $1 order by created_at`,
    [runId],
  );
}

beforeAll(async () => {
  llm = await startLlmSim();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  sms = await startSmsSim({
    accounts: [{ accountSid: SMS.account_sid, authToken: SMS.auth_token, numbers: [SMS.from_number] }],
  });
  rt = await createTestRuntime({
    env: { PUBLIC_URL: base, SMS_API_URL: sms.apiUrl, LLM_TIMEOUT_MS: '1000', LLM_MAX_RETRIES: '0' },
  });
  await rt.app!.ready();
  deps = rt.services.agentRuns;
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Corner Shop');
  const otherOwner = await signUp(rt.app!, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(rt.app!, otherOwner, 'Other Shop') };
  verifiedDomains([{ businessId: business.id, domain: 'shop.test', pem: dkimKey().pem }]);
  const saved = await call('PUT', '/api/config/llm/', {
    base_url: llm.baseUrl,
    model: DEFAULT_SIM_MODEL,
    api_key: DEFAULT_SIM_KEY,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const account = await call('PUT', '/api/sms/account/', SMS);
  expect(account.statusCode, account.body).toBe(200);
  const t = await call('POST', '/api/template/', {
    name: 'Come back',
    subject: 'Hello {{ customer.name }}',
    format: 'html',
    content:
      '<p>Hi {{ customer.name }}, {{ offer }}</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
  });
  expect(t.statusCode, t.body).toBe(201);
  template = t.json().result.id as number;
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await llm?.close();
  await sms?.close();
});

describe('a run', () => {
  it('decides per recipient with the config version it used; deliveries become sends; steps keep tokens', async () => {
    const [ca, cb, cc] = [await customer(), await customer(), await customer()];
    const [a, b, c] = [ca.id, cb.id, cc.id];
    const id = await agent(baseConfig(await list([a, b, c])));
    llm.script(
      decision({ template_id: template, variables: [{ name: 'offer', value: 'come by for a coffee' }] }),
      decision({ send: false, reason: 'Wrote to us yesterday; no need.' }),
      decision(),
    );
    const run = await runNow(id);
    expect(run).toMatchObject({
      status: 'completed',
      trigger: 'manual',
      channel: 'email',
      config_version: 1,
    });
    expect(run.counts).toMatchObject({ considered: 3, planned: 2, sent: 2, skipped: 1, failed: 0 });
    expect(run.tokens).toBe(450);
    const byCustomer = new Map(run.deliveries.map((d) => [d.customer!.id, d]));
    expect(byCustomer.get(b)).toMatchObject({
      status: 'skipped',
      reason: 'Wrote to us yesterday; no need.',
      send_id: null,
    });
    for (const who of [a, c]) {
      const d = byCustomer.get(who)!;
      expect(d.status, d.reason).toBe('sent');
      const send = (await findSendById(rt.services.db, d.send_id!))!;
      expect(send).toMatchObject({ channel: 'email', cause: 'agent', causeId: run.id, customerId: who });
      expect(send.idempotencyKey).toBe(`agent:${id}:email:${who}:${run.slot_at}`);
    }
    const templated = (await findSendById(rt.services.db, byCustomer.get(a)!.send_id!))!;
    expect(templated.subject).toBe(`Hello ${ca.name}`);
    expect(String((templated.providerRequest as { html: string }).html)).toContain('come by for a coffee');
    const written = (await findSendById(rt.services.db, byCustomer.get(c)!.send_id!))!;
    expect(written.subject).toBe('We miss you');
    expect((written.providerRequest as { text: string }).text).toContain('Come and see what is new.');

    // Steps: one LLM call per recipient, with its tokens; the first shows the customer it was about.
    const llmSteps = run.steps.filter((s) => s.kind === 'llm');
    expect(llmSteps).toHaveLength(3);
    expect(llmSteps.map((s) => s.tokens)).toEqual([150, 150, 150]);
    expect(llmSteps[0]).toMatchObject({ name: DEFAULT_SIM_MODEL, customer_id: a });
    expect(run.steps.map((s) => s.seq)).toEqual(run.steps.map((_, i) => i + 1));
    // Every call was recorded as the run's usage.
    expect(await findLlmUsage(rt.services, business.id, { purpose: 'agent_run', ref: run.id })).toHaveLength(
      3,
    );
    // The model saw the instructions and the customer.
    const asked = llm.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(asked.messages[0]!.content).toContain('Never promise discounts.');
    expect(JSON.parse(asked.messages[1]!.content).customer.id).toBe(c);

    // A new config version: the next run records and uses it; the first keeps its own.
    const v2 = await call(
      'POST',
      `/api/agents/${id}/update-agent-config/`,
      baseConfig(await list([a]), { send_mode: 'dry_run' }),
    );
    expect(v2.statusCode, v2.body).toBe(200);
    llm.script(decision());
    const second = await runNow(id);
    expect(second).toMatchObject({
      config_version: 2,
      send_mode: 'dry_run',
      counts: { considered: 1, dry_run: 1, sent: 0 },
    });
    expect((await detail(id, run.id)).config_version).toBe(1);

    // The list of runs (newest first, by channel) and the agent's last run.
    const runs = await call('GET', `/api/agents/${id}/runs/?channel=email`);
    expect(runs.json().result.results.map((r: TAgentRunSummary) => r.id)).toEqual([second.id, run.id]);
    expect((await call('GET', `/api/agents/${id}/runs/?channel=sms`)).json().result.count).toBe(0);
    const got = (await call('GET', `/api/agents/${id}/`)).json().result;
    expect(got.last_run).toMatchObject({ id: second.id, status: 'completed', channel: 'email' });
  });

  it('gives agent mail a working unsubscribe link, and the next run respects it', async () => {
    const ca = await customer();
    const a = ca.id;
    const id = await agent(
      baseConfig(await list([a]), {
        channels: [{ channel: 'email', template_id: template, from: 'hello@shop.test' }],
      }),
    );
    llm.script(decision({ template_id: null, variables: [{ name: 'offer', value: 'hello' }] }));
    const run = await runNow(id);
    const send = (await findSendById(rt.services.db, run.deliveries[0]!.send_id!))!;
    const request = send.providerRequest as { html: string; headers: Record<string, string> };
    const token = /token=([\w.-]+)>/.exec(request.headers['List-Unsubscribe']!)![1]!;
    // The template's unsubscribe link is the page for the same token.
    expect(request.html).toContain(`/engage/unsubscribe?token=${token}`);
    const res = await rt.app!.inject({
      method: 'POST',
      url: `/api/agents/unsubscribe/?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.unsubscribed).toBe(true);
    expect(await findSuppression(rt.services.db, business.id, 'email', ca.email!)).toMatchObject({
      reason: 'unsubscribed',
    });

    const asked = llm.requests.length;
    const again = await runNow(id);
    expect(again.deliveries[0]).toMatchObject({ status: 'suppressed', guardrail: 'consent' });
    expect(llm.requests.length).toBe(asked); // no tokens spent on someone no send may reach
  });
});

const smsDecision = (over: Record<string, unknown> = {}): ScriptStep =>
  decision({ channel: 'sms', subject: null, body: 'We miss you! Reply STOP to opt out.', ...over });

/** HH:MM an hour before and two hours after now in `tz`: a quiet window holding now there. */
function quietAround(tz: string) {
  const at = (ms: number) => localTime(new Date(Date.now() + ms), tz);
  return { start: at(-60 * 60_000), end: at(2 * 60 * 60_000) };
}

describe('guardrails', () => {
  it('stop sends without consent, to suppressed numbers, over the weekly cap across agents, in quiet hours, and past max sends', async () => {
    const optedOut = await customer({ smsStatus: 'unsubscribed' });
    const unknown = await customer({ smsStatus: 'unknown' });
    const suppressed = await customer();
    await suppress(rt.services.db, {
      businessId: business.id,
      channel: 'sms',
      address: suppressed.phone!,
      reason: 'manual',
    });
    const night = await customer({ fields: { timezone: 'Asia/Tokyo' } });
    const capped = await customer();
    const noPhone = await customer({ phone: null });
    const first = await customer({ fields: { timezone: 'America/New_York' } });
    const second = await customer();
    const third = await customer();

    // Another agent already wrote to `capped` this week.
    const earlier = await agent(baseConfig(await list([capped.id]), { channels: [{ channel: 'sms' }] }));
    llm.script(smsDecision());
    expect((await runNow(earlier)).deliveries[0]).toMatchObject({ status: 'sent' });

    const everyone = [optedOut, unknown, suppressed, night, capped, noPhone, first, second, third].map(
      (c) => c.id,
    );
    const id = await agent(
      baseConfig(await list(everyone), {
        channels: [{ channel: 'sms' }],
        limits: { max_sends_per_run: 2, per_recipient_per_week: 1, max_steps: 4, max_tokens: 4000 },
        quiet_hours: quietAround('Asia/Tokyo'),
      }),
    );
    // The business's time zone is its schedule's: customers without their own are not in quiet hours.
    expect(
      (
        await call('PUT', `/api/agents/${id}/schedule/`, {
          kind: 'cron',
          cron: '0 9 * * 1',
          timezone: 'America/New_York',
        })
      ).statusCode,
    ).toBe(200);
    const asked = llm.requests.length;
    llm.script(smsDecision(), smsDecision(), smsDecision());
    const run = await runNow(id);
    // Only `first` and `second` reached the model; `third` was never asked (the run stopped).
    expect(llm.requests.length - asked).toBe(3);
    const outcome = new Map(run.deliveries.map((d) => [d.customer!.id, d]));
    expect(outcome.get(optedOut.id)).toMatchObject({ status: 'suppressed', guardrail: 'consent' });
    expect(outcome.get(optedOut.id)!.reason).toContain('“unsubscribed”');
    expect(outcome.get(unknown.id)).toMatchObject({ status: 'suppressed', guardrail: 'consent' });
    expect(outcome.get(unknown.id)!.reason).toMatch(/has not agreed to receive SMS/);
    expect(outcome.get(suppressed.id)).toMatchObject({ status: 'suppressed', guardrail: 'suppression' });
    expect(outcome.get(night.id)).toMatchObject({ status: 'suppressed', guardrail: 'quiet_hours' });
    expect(outcome.get(night.id)!.reason).toContain('in Asia/Tokyo');
    expect(outcome.get(capped.id)).toMatchObject({ status: 'suppressed', guardrail: 'per_recipient_cap' });
    expect(outcome.get(capped.id)!.reason).toMatch(/1 time in the last 7 days \(the limit is 1 a week\)/);
    expect(outcome.get(noPhone.id)).toMatchObject({
      status: 'skipped',
      reason: 'The customer has no phone number in international format.',
    });
    expect(outcome.get(first.id)).toMatchObject({ status: 'sent' });
    expect(outcome.get(second.id)).toMatchObject({ status: 'sent' });
    expect(outcome.get(third.id)).toMatchObject({ status: 'suppressed', guardrail: 'max_sends_per_run' });
    expect(run.counts).toMatchObject({ sent: 2, suppressed: 6, skipped: 1 });
    // Guardrail decisions are steps of the run.
    const guardrails = run.steps.filter((s) => s.kind === 'guardrail').map((s) => s.name);
    expect(guardrails).toEqual(
      expect.arrayContaining([
        'consent',
        'suppression',
        'quiet_hours',
        'per_recipient_cap',
        'max_sends_per_run',
      ]),
    );
    // The sends are SMS of the spine, with Twilio's parameters.
    const [sent] = await sendsOfRun(run.id);
    expect(sent).toMatchObject({ channel: 'sms', cause: 'agent' });
    const row = (await findSendById(rt.services.db, sent!.id))!;
    expect(row.providerRequest).toMatchObject({
      Body: 'We miss you! Reply STOP to opt out.',
      From: SMS.from_number,
    });

    // Else the business's time zone: with Tokyo's schedule, a customer without a zone is in quiet hours.
    const plain = await customer();
    const tokyo = await agent(
      baseConfig(await list([plain.id]), {
        channels: [{ channel: 'sms' }],
        quiet_hours: quietAround('Asia/Tokyo'),
      }),
    );
    await call('PUT', `/api/agents/${tokyo}/schedule/`, {
      kind: 'cron',
      cron: '0 9 * * 1',
      timezone: 'Asia/Tokyo',
    });
    expect((await runNow(tokyo)).deliveries[0]).toMatchObject({
      status: 'suppressed',
      guardrail: 'quiet_hours',
    });
  });
});

describe('send modes', () => {
  it('review: deliveries wait; approved ones become sends, one by one or all; rejected ones never', async () => {
    const cs = [await customer(), await customer(), await customer(), await customer()];
    const id = await agent(baseConfig(await list(cs.map((c) => c.id)), { send_mode: 'review' }));
    llm.script(decision(), decision(), decision(), decision());
    const run = await runNow(id);
    expect(run.status).toBe('awaiting_approval');
    expect(run.counts).toMatchObject({ pending_approval: 4, sent: 0, planned: 4 });
    expect(await sendsOfRun(run.id)).toHaveLength(0);
    const [d1, d2] = run.deliveries;

    const url = (action: string) => `/api/agents/${id}/runs/${run.id}/${action}/`;
    const one = await call('POST', url('approve'), { delivery_ids: [d1!.id] });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().result).toMatchObject({
      updated: 1,
      run: { status: 'awaiting_approval', counts: { sent: 1, pending_approval: 3 } },
    });
    const rejected = await call('POST', url('reject'), { delivery_ids: [d2!.id] });
    expect(rejected.json().result.updated).toBe(1);
    // Only deliveries waiting for approval can be decided.
    const again = await call('POST', url('approve'), { delivery_ids: [d2!.id] });
    expect(again.statusCode).toBe(400);
    expect(again.json().result.delivery_ids[0]).toContain(RM.unknownDeliveries);
    expect((await call('POST', url('approve'), { delivery_ids: [], all: true })).statusCode).toBe(400);

    const all = await call('POST', url('approve'), { all: true });
    expect(all.json().result).toMatchObject({
      updated: 2,
      run: { status: 'completed', counts: { sent: 3, rejected: 1, pending_approval: 0 } },
    });
    const after = await detail(id, run.id);
    const status = new Map(after.deliveries.map((d) => [d.id, d]));
    expect(status.get(d1!.id)).toMatchObject({ status: 'sent' });
    expect(status.get(d1!.id)!.send_id).toBeTruthy();
    expect(status.get(d2!.id)).toMatchObject({ status: 'rejected', send_id: null });
    expect(await sendsOfRun(run.id)).toHaveLength(3);
    // Filtering deliveries by status.
    expect((await detail(id, run.id, '?delivery_status=rejected')).deliveries_count).toBe(1);
  });

  it('dry run: every decision is recorded, nothing is sent', async () => {
    const cs = [await customer(), await customer()];
    const id = await agent(baseConfig(await list(cs.map((c) => c.id)), { send_mode: 'dry_run' }));
    llm.script(decision(), decision({ send: false, reason: 'Not now.' }));
    const run = await runNow(id);
    expect(run).toMatchObject({
      status: 'completed',
      send_mode: 'dry_run',
      counts: { dry_run: 1, skipped: 1, sent: 0 },
    });
    expect(await sendsOfRun(run.id)).toHaveLength(0);
  });
});

describe('preview', () => {
  it('answers what would be sent to whom, rendered, on up to 20 recipients, sending nothing', async () => {
    const cs = [await customer(), await customer(), await customer()];
    const id = await agent(
      baseConfig(await list(cs.map((c) => c.id)), {
        channels: [{ channel: 'email', template_id: template, from: 'hello@shop.test' }],
        send_mode: 'auto',
      }),
    );
    llm.script(
      decision({ variables: [{ name: 'offer', value: 'a free coffee on Friday' }] }),
      decision({ send: false, reason: 'Bought yesterday.' }),
    );
    const res = await call('POST', `/api/agents/${id}/preview/`, { sample_size: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json().result as TAgentPreviewResult;
    expect(preview.run).toMatchObject({ trigger: 'preview', send_mode: 'dry_run', status: 'completed' });
    expect(preview.items).toHaveLength(2);
    const [yes, no] = preview.items;
    expect(yes).toMatchObject({ status: 'dry_run', customer: { id: cs[0]!.id, name: cs[0]!.name } });
    expect(yes!.rendered!.subject).toBe(`Hello ${cs[0]!.name}`);
    expect(yes!.rendered!.html).toContain('a free coffee on Friday');
    expect(no).toMatchObject({ status: 'skipped', reason: 'Bought yesterday.', rendered: null });
    expect(await sendsOfRun(preview.run.id)).toHaveLength(0);
    // Named customers; more than 20 is refused.
    llm.script(decision());
    const named = await call('POST', `/api/agents/${id}/preview/`, { customer_ids: [cs[2]!.id] });
    expect(named.json().result.items.map((i: { customer: { id: number } }) => i.customer.id)).toEqual([
      cs[2]!.id,
    ]);
    expect((await call('POST', `/api/agents/${id}/preview/`, { sample_size: 21 })).statusCode).toBe(400);
    // Previews are not the agent's last run.
    expect((await call('GET', `/api/agents/${id}/`)).json().result.last_run).toBeNull();
  });
});
