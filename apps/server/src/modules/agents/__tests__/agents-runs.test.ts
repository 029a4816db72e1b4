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
  AGENT_RUN_ERRORS as RM,
  LLM_ERRORS,
  type TAgentConfigRequest,
  type TAgentPreviewResult,
  type TAgentRun,
  type TAgentRunSummary,
  type TAgentToolInfo,
  FREQUENCY_CAP_WORDS,
  type TBusiness,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { dkimKey, freePort, verifiedDomains } from '../../email/__tests__/email-helpers';
import { insertCustomer } from '../../directory/directory.service';
import { suppress, findSuppression } from '../../suppressions/suppressions.service';
import { findLlmUsage } from '../../llm/llm.service';
import { UNSUBSCRIBE_FOOTER_WORDS } from '../../email/email.service';
import { findSendById } from '../../sends/sends.repository';
import { consumeFires, processRun, resumeStaleRuns } from '../runs/lifecycle';
import { type AgentRunDeps } from '../runs/deps';
import { claimRun } from '../agents.runs.repository';
import { runScheduleTick } from '../agents.schedule';
import { GUARDRAIL_ERRORS, localTime } from '../agents.guardrails';
import type * as ExternalTools from '../../outside-tools/outside-tools';

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
vi.mock('../../outside-tools/outside-tools', async (original) => {
  const real = await original<typeof ExternalTools>();
  return {
    ...real,
    // 78 exists but is disconnected by the time the run starts.
    externalServerExists: async (_db: unknown, _b: number, _s: string, id: number) => id === 77 || id === 78,
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
  llm = await startLlmSim({ models: [DEFAULT_SIM_MODEL, 'titan-sim-mini'] });
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

  it('puts a visible unsubscribe link under mail the model wrote itself', async () => {
    const c = await customer();
    const id = await agent(
      baseConfig(await list([c.id]), { channels: [{ channel: 'email', from: 'hello@shop.test' }] }),
    );
    llm.script(decision());
    const run = await runNow(id);
    const send = (await findSendById(rt.services.db, run.deliveries[0]!.send_id!))!;
    const request = send.providerRequest as { html: string; text: string; headers: Record<string, string> };
    const token = /token=([\w.-]+)>/.exec(request.headers['List-Unsubscribe']!)![1]!;
    expect(request.text).toMatch(
      new RegExp(
        `Come and see what is new\\.\\n\\n${UNSUBSCRIBE_FOOTER_WORDS}: \\S+/engage/unsubscribe\\?token=${token}$`,
      ),
    );
    expect(request.html).toContain(`/engage/unsubscribe?token=${token}">${UNSUBSCRIBE_FOOTER_WORDS}</a>`);
  });
});

describe('the visible unsubscribe link of template mail', () => {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('is added under both parts of a template that lacks one, and not doubled where the template has its own', async () => {
    const bare = await call('POST', '/api/template/', {
      name: 'No link',
      subject: 'News for {{ customer.name }}',
      format: 'html',
      content: '<p>Hi {{ customer.name }}, our spring range is in.</p>',
    });
    expect(bare.statusCode, bare.body).toBe(201);
    const [c, d] = [await customer(), await customer()];
    const id = await agent(baseConfig(await list([c.id, d.id])));
    llm.script(
      decision({ template_id: bare.json().result.id, subject: null, body: null }),
      decision({ template_id: template, variables: [{ name: 'offer', value: 'hello' }] }),
    );
    const run = await runNow(id);
    const request = async (customerId: number) => {
      const delivery = run.deliveries.find((x) => x.customer?.id === customerId)!;
      const send = (await findSendById(rt.services.db, delivery.send_id!))!;
      const r = send.providerRequest as { html: string; text: string; headers: Record<string, string> };
      const token = /token=([\w.-]+)>/.exec(r.headers['List-Unsubscribe']!)![1]!;
      return { ...r, link: `/engage/unsubscribe?token=${token}` };
    };
    const lacking = await request(c.id);
    expect(lacking.html).toContain('our spring range is in.');
    expect(lacking.html).toMatch(
      new RegExp(`<a href="https?://[^"]+${escape(lacking.link)}">${UNSUBSCRIBE_FOOTER_WORDS}</a>`),
    );
    expect(lacking.text).toMatch(
      new RegExp(`${UNSUBSCRIBE_FOOTER_WORDS}: https?://\\S+${escape(lacking.link)}$`),
    );
    const own = await request(d.id);
    expect(own.html.split(own.link)).toHaveLength(2); // its own link, once
    expect(own.html).not.toContain(UNSUBSCRIBE_FOOTER_WORDS);
    expect(own.text).toContain(own.link);
  });
});

describe('the consent mode', () => {
  const statusOf = (run: TAgentRun, id: number) => run.deliveries.find((d) => d.customer?.id === id);

  it('writes only to subscribed customers by default; legitimate interest adds unknown consent, never the opted out', async () => {
    const subscribed = await customer();
    const unknown = await customer({ emailStatus: 'unknown' });
    const unsubscribed = await customer({ emailStatus: 'unsubscribed' });
    const audience = await list([subscribed.id, unknown.id, unsubscribed.id]);

    const strict = await agent(baseConfig(audience));
    llm.script(decision());
    const run = await runNow(strict);
    expect(statusOf(run, subscribed.id)).toMatchObject({ status: 'sent' });
    expect(statusOf(run, unknown.id)).toMatchObject({
      status: 'suppressed',
      guardrail: 'consent',
      send_id: null,
      reason: GUARDRAIL_ERRORS.noOptIn('email'),
    });
    expect(statusOf(run, unsubscribed.id)).toMatchObject({ status: 'suppressed', send_id: null });
    expect(await sendsOfRun(run.id)).toHaveLength(1);

    const wider = await agent(baseConfig(audience, { consent_mode: 'legitimate_interest' }));
    llm.script(decision(), decision());
    const second = await runNow(wider);
    expect(statusOf(second, subscribed.id)).toMatchObject({ status: 'sent' });
    expect(statusOf(second, unknown.id)).toMatchObject({ status: 'sent' });
    expect(statusOf(second, unsubscribed.id)).toMatchObject({
      status: 'suppressed',
      guardrail: 'consent',
      send_id: null,
    });
    const sent = await sendsOfRun(second.id);
    expect(sent).toHaveLength(2);
    const res = await call('GET', `/api/agents/${wider}/`);
    expect(res.json().result.config.consent_mode).toBe('legitimate_interest');
  });
});

const smsDecision = (over: Record<string, unknown> = {}): ScriptStep =>
  decision({ channel: 'sms', subject: null, body: 'We miss you! Reply STOP to opt out.', ...over });

async function businessZone(time_zone: string) {
  const res = await call('PUT', '/api/business/', { time_zone });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().result.time_zone).toBe(time_zone);
}

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
    // Customers without a zone of their own are in the business's (New York): not in quiet hours.
    await businessZone('America/New_York');
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

    // Else the business's time zone: in Tokyo, a customer without a zone is in quiet hours — an
    // agent schedule's own zone (New York here) only times its runs.
    await businessZone('Asia/Tokyo');
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
      timezone: 'America/New_York',
    });
    expect((await runNow(tokyo)).deliveries[0]).toMatchObject({
      status: 'suppressed',
      guardrail: 'quiet_hours',
    });

    // A preview at night shows what would be sent, and when quiet hours let it go.
    const quiet = quietAround('Asia/Tokyo');
    llm.script(smsDecision({ reason: 'Likes the new season.' }));
    const res = await call('POST', `/api/agents/${tokyo}/preview/`, { customer_ids: [plain.id] });
    expect(res.statusCode, res.body).toBe(200);
    const [item] = (res.json().result as TAgentPreviewResult).items;
    expect(item).toMatchObject({ status: 'dry_run', body: 'We miss you! Reply STOP to opt out.' });
    expect(item!.reason).toMatch(
      new RegExp(
        `^Would send at ${quiet.end} on \\d{1,2} \\w{3} \\d{4} \\(Asia/Tokyo\\), when quiet hours \\(${quiet.start}–${quiet.end}\\) end\\. Likes the new season\\.$`,
      ),
    );
    await businessZone('UTC');
  });

  it('keep the template the agent’s channel is set to: a decision or tool naming another is refused', async () => {
    const other = await call('POST', '/api/template/', {
      name: 'Something else',
      subject: 'Other',
      format: 'html',
      content: '<p>Other</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    });
    const otherId = other.json().result.id as number;
    const [a, b] = [await customer(), await customer()];
    const id = await agent(
      baseConfig(await list([a.id, b.id]), {
        channels: [{ channel: 'email', template_id: template, from: 'hello@shop.test' }],
      }),
    );
    llm.script(
      decision({ template_id: otherId, variables: [{ name: 'offer', value: 'x' }] }),
      decision({ template_id: template, variables: [{ name: 'offer', value: 'a coffee' }] }),
    );
    const run = await runNow(id);
    const outcome = new Map(run.deliveries.map((d) => [d.customer!.id, d]));
    expect(outcome.get(a.id)).toMatchObject({
      status: 'skipped',
      reason: `Refused: this channel sends template ${template}; the model may not switch it to template ${otherId}.`,
    });
    expect(outcome.get(b.id)).toMatchObject({ status: 'sent', template_id: template });
    expect(await sendsOfRun(run.id)).toHaveLength(1);
    // The event log says which agent sent it, in the rows and the send's detail.
    const logs = await call('GET', `/api/email/events/?agent_id=${id}`);
    const [row] = logs.json().result.results;
    const agentOf = { id, name: expect.stringMatching(/^Agent /), run_id: run.id };
    expect(row).toMatchObject({ sent_by: null, agent: agentOf });
    const one = await call('GET', `/api/email/events/${row.tracking_id}/`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().result.agent).toMatchObject(agentOf);
  });
});

describe('send modes', () => {
  it('review: deliveries wait; approved ones become sends, one by one or all; rejected ones never', async () => {
    const hook = await call('POST', '/api/webhooks/endpoints/', {
      url: 'http://localhost:9/reviewed',
      event_types: ['agent_run.finished'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const told = async () =>
      (await call('GET', `/api/webhooks/endpoints/${hook.json().result.id}/deliveries/`))
        .json()
        .result.results.map((d: { request_body: string }) => JSON.parse(d.request_body))
        .filter((e: { data: { run_id: string } }) => e.data.run_id === run.id);
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
    const neither = await call('POST', url('approve'), {});
    expect(neither.statusCode).toBe(400);
    expect(neither.json().result.non_field_errors).toEqual([RM.idsOrAll]);

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
    // The business's systems heard the run stop to wait, then, once its last delivery was decided,
    // finish: once each, the second with the review's outcome.
    const events = (await told()).map((e: { type: string; data: { status: string; counts: object } }) => [
      e.type,
      e.data.status,
      e.data.counts,
    ]);
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        ['agent_run.finished', 'awaiting_approval', expect.objectContaining({ pending_approval: 4 })],
        [
          'agent_run.finished',
          'completed',
          expect.objectContaining({ sent: 3, rejected: 1, pending_approval: 0 }),
        ],
      ]),
    );
    // Deciding nothing more tells nothing more.
    expect((await call('POST', url('reject'), { all: true })).json().result.updated).toBe(0);
    expect(await told()).toHaveLength(2);
    await call('DELETE', `/api/webhooks/endpoints/${hook.json().result.id}/`);
  });

  it('dry run: every decision is recorded, nothing is sent', async () => {
    // The business's systems hear when a run finishes (the webhooks outbox, with the run's row).
    const hook = await call('POST', '/api/webhooks/endpoints/', {
      url: 'http://localhost:9/runs',
      event_types: ['agent_run.finished'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const cs = [await customer(), await customer()];
    // The agent's own model at the business's provider.
    const id = await agent(
      baseConfig(await list(cs.map((c) => c.id)), { send_mode: 'dry_run', model: 'titan-sim-mini' }),
    );
    llm.script(decision(), decision({ send: false, reason: 'Not now.' }));
    const run = await runNow(id);
    expect((llm.requests.at(-1)!.body as { model: string }).model).toBe('titan-sim-mini');
    expect(run.steps.find((s) => s.kind === 'llm')!.name).toBe('titan-sim-mini');
    expect(run).toMatchObject({
      status: 'completed',
      send_mode: 'dry_run',
      counts: { dry_run: 1, skipped: 1, sent: 0 },
    });
    expect(await sendsOfRun(run.id)).toHaveLength(0);
    const log = await call('GET', `/api/webhooks/endpoints/${hook.json().result.id}/deliveries/`);
    const told = log.json().result.results.map((d: { request_body: string }) => JSON.parse(d.request_body));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      type: 'agent_run.finished',
      data: {
        run_id: run.id,
        agent_id: id,
        status: 'completed',
        send_mode: 'dry_run',
        counts: { considered: 2, dry_run: 1, skipped: 1, sent: 0 },
        tokens: run.tokens,
        finished_at: run.finished_at,
      },
    });
    await call('DELETE', `/api/webhooks/endpoints/${hook.json().result.id}/`);
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
    // A model failing for every sample: 502 in the provider's words, the preview run failed.
    llm.script(...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 503 })));
    const down = await call('POST', `/api/agents/${id}/preview/`, { sample_size: 3 });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toBe(
      'The AI provider is not answering properly (HTTP 503). Try again in a few minutes.',
    );
    const previews = await call('GET', `/api/agents/${id}/runs/?trigger=preview&status=failed`);
    expect(previews.json().result.count).toBe(1);
    // The run log keeps previews apart from the runs that could send.
    const kinds = async (kind: string) =>
      (await call('GET', `/api/agents/${id}/runs/?kind=${kind}`))
        .json()
        .result.results.map((r: { trigger: string }) => r.trigger);
    expect(new Set(await kinds('preview'))).toEqual(new Set(['preview']));
    expect(await kinds('real')).toEqual([]);
    expect((await call('GET', `/api/agents/${id}/runs/?kind=other`)).statusCode).toBe(400);
    // Previews are not the agent's last run.
    expect((await call('GET', `/api/agents/${id}/`)).json().result.last_run).toBeNull();
  });
});

describe('tools', () => {
  it('lists the built-ins and the outside tools an agent may use', async () => {
    const res = await call('GET', '/api/agents/tools/');
    expect(res.statusCode).toBe(200);
    const tools = res.json().result as TAgentToolInfo[];
    expect(tools.filter((t) => t.source === 'builtin').map((t) => t.name)).toEqual([
      'lookup_customer',
      'customer_conversations',
      'list_templates',
      'send_email',
      'send_sms',
      'send_whatsapp_template',
    ]);
    expect(tools.find((t) => t.name === 'send_sms')).toMatchObject({ sends: true, server_id: null });
    expect(tools.find((t) => t.source === 'mcp')).toMatchObject({
      server_id: 77,
      name: 'forecast',
      model_name: 'mcp_77_forecast',
      sends: false,
    });
  });

  it('calls built-ins and outside tools; a send tool passes the guardrails and writes a delivery, never sends itself', async () => {
    const c = await customer({ fields: { city: 'Lyon', plan: 'gold' } });
    const blocked = await customer({ smsStatus: 'subscribed' });
    const id = await agent(
      baseConfig(await list([c.id, blocked.id]), {
        channels: [{ channel: 'sms' }],
        send_mode: 'auto',
        limits: { max_sends_per_run: 10, per_recipient_per_week: 3, max_steps: 8, max_tokens: 4000 },
        tools: [
          { source: 'builtin', name: 'lookup_customer', approval: 'auto' },
          { source: 'builtin', name: 'list_templates', approval: 'auto' },
          { source: 'builtin', name: 'send_sms', approval: 'review' },
          { source: 'builtin', name: 'send_email', approval: 'auto' },
          { source: 'mcp', server_id: 77, name: 'forecast', approval: 'auto' },
          { source: 'mcp', server_id: 78, name: 'gone', approval: 'auto' },
        ],
      }),
    );
    callExternal.mockResolvedValue({ ok: true, output: { forecast: 'Sunny, 24°C' } });
    const asked = llm.requests.length;
    llm.script(
      { kind: 'tool_calls', calls: [{ name: 'lookup_customer', arguments: { customer_id: null } }] },
      { kind: 'tool_calls', calls: [{ name: 'mcp_77_forecast', arguments: { city: 'Lyon' } }] },
      {
        kind: 'tool_calls',
        calls: [
          {
            name: 'send_sms',
            arguments: { body: 'Sunny in Lyon: come by!', reason: 'Gold customer, nice weather.' },
          },
        ],
      },
      smsDecision({ send: false, reason: 'Already on its way.' }),
      // The second recipient: a send tool of another channel, which the run does not offer.
      {
        kind: 'tool_calls',
        calls: [
          {
            name: 'send_email',
            arguments: { template_id: null, subject: 'x', body: 'y', variables: [], reason: 'z' },
          },
        ],
      },
      smsDecision({ send: false, reason: 'No tool for that.' }),
    );
    const run = await runNow(id);
    const first = run.deliveries.find((d) => d.customer!.id === c.id)!;
    // The tool's approval is review: the delivery waits even in auto mode.
    expect(first).toMatchObject({
      status: 'pending_approval',
      body: 'Sunny in Lyon: come by!',
      reason: 'Gold customer, nice weather.',
    });
    expect(await sendsOfRun(run.id)).toHaveLength(0);
    const steps = run.steps.filter((s) => s.customer_id === c.id).map((s) => `${s.kind}:${s.name}`);
    expect(steps).toEqual([
      `llm:${DEFAULT_SIM_MODEL}`,
      'tool:lookup_customer',
      `llm:${DEFAULT_SIM_MODEL}`,
      'tool:mcp_77_forecast',
      `llm:${DEFAULT_SIM_MODEL}`,
      'tool:send_sms',
      `llm:${DEFAULT_SIM_MODEL}`,
    ]);
    const lookup = run.steps.find((s) => s.name === 'lookup_customer')!;
    expect(lookup.output).toMatchObject({ id: c.id, fields: { city: 'Lyon', plan: 'gold' } });
    expect(run.steps.find((s) => s.name === 'mcp_77_forecast')!.output).toEqual({ forecast: 'Sunny, 24°C' });
    expect(callExternal).toHaveBeenCalledWith(expect.anything(), business.id, weather, { city: 'Lyon' });
    expect(run.steps.find((s) => s.name === 'send_sms')!.output).toMatchObject({
      status: 'pending_approval',
    });
    // The model got each tool's answer.
    const sent = llm.requests.slice(asked).map(
      (r) =>
        r.body as {
          messages: { role: string; content: string }[];
          tools?: { function: { name: string } }[];
        },
    );
    expect(sent[1]!.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(JSON.parse(sent[1]!.messages.at(-1)!.content)).toMatchObject({ id: c.id });
    // Offered: the built-ins of this channel and the connected outside tool (not send_email on SMS).
    expect(sent[0]!.tools!.map((t) => t.function.name).sort()).toEqual(
      ['list_templates', 'lookup_customer', 'mcp_77_forecast', 'send_sms'].sort(),
    );
    // A tool the model may not use is answered so, and nothing is recorded for it.
    const other = run.deliveries.find((d) => d.customer!.id === blocked.id)!;
    expect(other).toMatchObject({ status: 'skipped', reason: 'No tool for that.' });
    expect(run.steps.find((s) => s.name === 'send_email')!.output).toEqual({
      error: 'There is no tool named send_email.',
    });
    // The unavailable outside tool is a step of the run, in words.
    expect(run.steps.find((s) => s.name === 'tool_unavailable')).toMatchObject({
      kind: 'error',
      output: { error: 'The MCP server is not connected.' },
    });
  });
});

describe('when the model fails', () => {
  it('stops a recipient at max_steps and at max_tokens', async () => {
    const [a, b] = [await customer(), await customer()];
    const id = await agent(
      baseConfig(await list([a.id, b.id]), {
        tools: [{ source: 'builtin', name: 'lookup_customer', approval: 'auto' }],
        limits: { max_sends_per_run: 10, per_recipient_per_week: 3, max_steps: 3, max_tokens: 300 },
      }),
    );
    const lookup: ScriptStep = {
      kind: 'tool_calls',
      calls: [{ name: 'lookup_customer', arguments: { customer_id: null } }],
    };
    const small = { prompt_tokens: 10, completion_tokens: 5 };
    llm.script(
      { ...lookup, usage: small },
      { ...lookup, usage: small },
      { ...lookup, usage: { prompt_tokens: 380, completion_tokens: 20 } },
    );
    const run = await runNow(id);
    const byId = new Map(run.deliveries.map((d) => [d.customer!.id, d]));
    expect(byId.get(a.id)).toMatchObject({ status: 'skipped', reason: RM.maxSteps(3) });
    expect(byId.get(b.id)).toMatchObject({ status: 'skipped', reason: RM.maxTokens(300) });
    expect(run.steps.filter((s) => s.kind === 'error').map((s) => s.name)).toEqual([
      'max_steps',
      'max_tokens',
    ]);
  });

  it('records errors and timeouts as steps, fails the run after three in a row, and pauses the agent after three failed runs', async () => {
    const cs = [await customer(), await customer(), await customer(), await customer()];
    const id = await agent(baseConfig(await list(cs.map((c) => c.id))));
    llm.script(
      { kind: 'error', status: 500, message: 'boom' },
      decision(),
      { kind: 'json', value: { send: true }, delay_ms: 1500 },
      { kind: 'json', value: { nonsense: 1 } },
    );
    const run = await runNow(id);
    expect(run.status).toBe('completed');
    const errors = run.steps.filter((s) => s.kind === 'error');
    expect(errors.map((e) => e.name)).toEqual(['llm_unavailable', 'llm_timeout', 'invalid_output']);
    expect(errors[1]!.output).toMatchObject({
      error: 'The AI model did not answer within 1 seconds. Try again, or choose a faster model.',
    });
    const byId = new Map(run.deliveries.map((d) => [d.customer!.id, d]));
    expect(byId.get(cs[0]!.id)!.reason).toMatch(
      /^The AI model failed: The AI provider is not answering properly \(HTTP 500\)/,
    );
    expect(byId.get(cs[1]!.id)).toMatchObject({ status: 'sent' });
    expect(byId.get(cs[2]!.id)!.reason).toMatch(/did not answer within 1 seconds/);
    expect(byId.get(cs[3]!.id)).toMatchObject({ status: 'skipped', reason: LLM_ERRORS.invalidOutput });

    // Three failures in a row fail the run, saying why; three failed runs pause the agent, saying so.
    for (let i = 0; i < 3; i++) {
      llm.script(...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 503 })));
      const failed = await runNow(id);
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'The AI provider is not answering properly (HTTP 503). Try again in a few minutes.',
      });
      expect(failed.steps.at(-1)).toMatchObject({ kind: 'error', name: 'run_failed' });
    }
    const paused = (await call('GET', `/api/agents/${id}/`)).json().result;
    expect(paused).toMatchObject({ status: 'paused', status_reason: RM.pausedAfterFailures(3) });
    // Activated again by hand, the reason goes.
    const active = await call('PUT', `/api/agents/${id}/`, { status: 'active' });
    expect(active.json().result).toMatchObject({ status: 'active', status_reason: null });
  });

  it('with no model configured: run now and preview answer 409 saying so, and a scheduled run fails with the same words', async () => {
    const c = await customer({}, other.business);
    const listId = await list([c.id], other);
    const id = await agent(baseConfig(listId, { channels: [{ channel: 'sms' }] }), other);
    for (const path of ['run-now', 'preview']) {
      const res = await call('POST', `/api/agents/${id}/${path}/`, {}, other);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().message).toBe(LLM_ERRORS.notConfigured);
    }
    // A slot fired by the schedule: the run fails and says why.
    await rt.database.query(
      `insert into agent_schedule_fires (agent_id, business_id, slot) values ($1, $2, now())`,
      [id, other.business.id],
    );
    const [runId] = await consumeFires(deps);
    await processRun(deps, runId!);
    const run = (await call('GET', `/api/agents/${id}/runs/${runId}/`, undefined, other)).json()
      .result as TAgentRun;
    expect(run).toMatchObject({ status: 'failed', trigger: 'schedule', error: LLM_ERRORS.notConfigured });
  });
});

describe('a run killed mid-way and retried', () => {
  it('goes on where it was and sends nothing twice', async () => {
    const cs = await Promise.all(Array.from({ length: 5 }, () => customer()));
    const id = await agent(baseConfig(await list(cs.map((c) => c.id)), { channels: [{ channel: 'sms' }] }));
    const res = await call('POST', `/api/agents/${id}/run-now/`, {});
    const runId = (res.json().result.runs as TAgentRunSummary[])[0]!.id;

    // A worker holds the run: a second one cannot take it.
    const held = await claimRun(rt.services.db, runId, new Date(), new Date(Date.now() + 60_000));
    expect(held).not.toBeNull();
    expect(await claimRun(rt.services.db, runId, new Date(), new Date(Date.now() + 60_000))).toBeNull();
    await rt.database.query(`update agent_runs set locked_until = null where id = $1`, [runId]);

    llm.script(...Array.from({ length: 5 }, () => smsDecision()));
    await processRun({ ...deps, concurrency: 1, pageSize: 2 }, runId);
    const done = await detail(id, runId);
    expect(done.counts).toMatchObject({ considered: 5, sent: 5 });
    const sendsBefore = await sendsOfRun(runId);
    expect(sendsBefore).toHaveLength(5);

    // The worker "died" at the worst moments: after the sends were recorded but before the
    // deliveries said so, and before the last pages' cursor was written. Its lease lapsed.
    const victim = done.deliveries[3]!;
    await rt.database.query(`update agent_deliveries set status = 'planned', send_id = null where id = $1`, [
      victim.id,
    ]);
    await rt.database.query(
      `update agent_runs set status = 'running', finished_at = null, cursor = $2, locked_until = now() - interval '1 minute' where id = $1`,
      [runId, cs[1]!.id],
    );
    const asked = llm.requests.length;
    expect(await resumeStaleRuns(deps)).toBeGreaterThanOrEqual(1);
    await processRun({ ...deps, concurrency: 1, pageSize: 2 }, runId);
    const again = await detail(id, runId);
    expect(again.status).toBe('completed');
    // Nobody was asked again, nothing was sent again, and the delivery found its send.
    expect(llm.requests.length).toBe(asked);
    const sendsAfter = await sendsOfRun(runId);
    expect(sendsAfter.map((s) => s.id).sort()).toEqual(sendsBefore.map((s) => s.id).sort());
    expect(again.deliveries.find((d) => d.id === victim.id)).toMatchObject({
      status: 'sent',
      send_id: victim.send_id,
    });
    expect(again.deliveries).toHaveLength(5);
    // The ledger refuses a second delivery under the same key.
    await expect(
      rt.services.db.execute(
        sql`insert into agent_deliveries (run_id, agent_id, business_id, channel, customer_id, status, idempotency_key)
            select run_id, agent_id, business_id, channel, customer_id, 'planned', idempotency_key from agent_deliveries where id = ${victim.id}`,
      ),
    ).rejects.toThrow();
  });
});

describe('schedules become runs', () => {
  it('consumes each fired slot once: one run per channel with the current config version', async () => {
    const c = await customer();
    const id = await agent(
      baseConfig(await list([c.id]), {
        channels: [{ channel: 'email', from: 'hello@shop.test' }, { channel: 'sms' }],
        send_mode: 'dry_run',
      }),
    );
    const put = await call('PUT', `/api/agents/${id}/schedule/`, {
      kind: 'interval',
      every_minutes: 60,
      timezone: 'Europe/Berlin',
    });
    const next = new Date(put.json().result.next_run_at as string);
    await runScheduleTick(rt.services.db, new Date(next.getTime() + 1000));
    const created = await consumeFires(deps);
    const mine = (await call('GET', `/api/agents/${id}/runs/?trigger=schedule`)).json().result
      .results as TAgentRunSummary[];
    expect(mine.map((r) => r.channel).sort()).toEqual(['email', 'sms']);
    expect(
      mine.every((r) => r.slot_at === next.toISOString() && r.config_version === 1 && created.includes(r.id)),
    ).toBe(true);
    expect(await consumeFires(deps)).toEqual([]);
    const [fire] = await rt.database.query<{ consumed_at: Date | null }>(
      `select consumed_at from agent_schedule_fires where agent_id = $1`,
      [id],
    );
    expect(fire!.consumed_at).not.toBeNull();
    // A paused agent's fires make no run.
    await call('PUT', `/api/agents/${id}/`, { status: 'paused' });
    await rt.database.query(
      `insert into agent_schedule_fires (agent_id, business_id, slot) values ($1, $2, now())`,
      [id, business.id],
    );
    expect(await consumeFires(deps)).toEqual([]);
  });
});

describe('another business', () => {
  it('is refused on every run route', async () => {
    const c = await customer();
    const id = await agent(baseConfig(await list([c.id]), { send_mode: 'review' }));
    llm.script(decision());
    const run = await runNow(id);
    const d = run.deliveries[0]!;
    const routes: [string, string, object?][] = [
      ['GET', `/api/agents/${id}/runs/`],
      ['GET', `/api/agents/${id}/runs/${run.id}/`],
      ['POST', `/api/agents/${id}/runs/${run.id}/approve/`, { delivery_ids: [d.id] }],
      ['POST', `/api/agents/${id}/runs/${run.id}/reject/`, { all: true }],
      ['POST', `/api/agents/${id}/preview/`, {}],
      ['POST', `/api/agents/${id}/run-now/`, {}],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(method as 'GET' | 'POST', url, body, other);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Its own agent cannot reach this run either.
    const theirs = await agent(baseConfig(await list([], other), { channels: [{ channel: 'sms' }] }), other);
    expect((await call('GET', `/api/agents/${theirs}/runs/${run.id}/`, undefined, other)).statusCode).toBe(
      404,
    );
    expect((await detail(id, run.id)).deliveries[0]).toMatchObject({ status: 'pending_approval' });
  });
});

describe("the business's frequency cap", () => {
  /** Marketing sends (or others) of a business to a customer in the spine, as a campaign leaves them. */
  async function priorSends(customerId: number, n: number, cause: string, b = business) {
    for (let i = 0; i < n; i++)
      await rt.database.query(
        `insert into sends (business_id, channel, cause, customer_id, recipient, status, provider_request)
         values ($1, 'email', $2, $3, 'someone@example.com', 'delivered', '{}')`,
        [b.id, cause, customerId],
      );
  }

  it('stops a customer who got 3 campaign mails this week (its own reason), not replies, not another business’s sends', async () => {
    const capped = await customer();
    const replied = await customer();
    const elsewhere = await customer();
    await priorSends(capped.id, 3, 'broadcast');
    await priorSends(replied.id, 5, 'staff_reply');
    await priorSends(replied.id, 1, 'template_send');
    await priorSends(elsewhere.id, 3, 'broadcast', other.business);
    const on = await call('PUT', '/api/business/frequency-cap/', {
      enabled: true,
      max_messages: 3,
      period_days: 7,
    });
    expect(on.statusCode, on.body).toBe(200);
    try {
      const id = await agent(baseConfig(await list([capped.id, replied.id, elsewhere.id])));
      llm.script(decision(), decision());
      const run = await runNow(id);
      const outcome = new Map(run.deliveries.map((d) => [d.customer!.id, d]));
      const reason = FREQUENCY_CAP_WORDS.reason(3, { max_messages: 3, period_days: 7 });
      expect(outcome.get(capped.id)).toMatchObject({
        status: 'suppressed',
        guardrail: 'frequency_cap',
        reason,
      });
      expect(reason).toContain('across campaigns, journeys and agents');
      expect(outcome.get(replied.id)).toMatchObject({ status: 'sent' });
      expect(outcome.get(elsewhere.id)).toMatchObject({ status: 'sent' });
      expect(run.steps.filter((s) => s.kind === 'guardrail').map((s) => s.name)).toContain('frequency_cap');
    } finally {
      await call('PUT', '/api/business/frequency-cap/', { enabled: false, max_messages: 3, period_days: 7 });
    }
  });

  it('asks again when a reviewed delivery is approved: a customer capped meanwhile gets no send, the reason says why', async () => {
    const later = await customer();
    const free = await customer();
    await call('PUT', '/api/business/frequency-cap/', { enabled: true, max_messages: 2, period_days: 7 });
    try {
      const id = await agent(baseConfig(await list([later.id, free.id]), { send_mode: 'review' }));
      llm.script(decision(), decision());
      const run = await runNow(id);
      expect(run.deliveries.map((d) => d.status)).toEqual(['pending_approval', 'pending_approval']);
      // While the deliveries wait, campaigns reach one customer's cap.
      await priorSends(later.id, 2, 'broadcast');
      const approved = await call('POST', `/api/agents/${id}/runs/${run.id}/approve/`, { all: true });
      expect(approved.statusCode, approved.body).toBe(200);
      const after = new Map((await detail(id, run.id)).deliveries.map((d) => [d.customer!.id, d]));
      expect(after.get(later.id)).toMatchObject({
        status: 'suppressed',
        send_id: null,
        reason: FREQUENCY_CAP_WORDS.reason(2, { max_messages: 2, period_days: 7 }),
      });
      expect(after.get(free.id)).toMatchObject({ status: 'sent' });
      const sent = await sendsOfRun(run.id);
      expect(sent).toHaveLength(1);
    } finally {
      await call('PUT', '/api/business/frequency-cap/', { enabled: false, max_messages: 3, period_days: 7 });
    }
  });

  it('applies beside the agent’s own weekly limit: the reason says which stopped the send', async () => {
    const both = await customer();
    await priorSends(both.id, 1, 'journey');
    await call('PUT', '/api/business/frequency-cap/', { enabled: true, max_messages: 2, period_days: 30 });
    try {
      // The agents' own limit (1 a week) is reached first by an agent's earlier send.
      const earlier = await agent(baseConfig(await list([both.id])));
      llm.script(decision());
      expect((await runNow(earlier)).deliveries[0]).toMatchObject({ status: 'sent' });
      const strict = await agent(
        baseConfig(await list([both.id]), {
          limits: { max_sends_per_run: 10, per_recipient_per_week: 1, max_steps: 4, max_tokens: 4000 },
        }),
      );
      const [own] = (await runNow(strict)).deliveries;
      expect(own).toMatchObject({ status: 'suppressed', guardrail: 'per_recipient_cap' });
      // A roomier agent is stopped by the business's cap: 2 marketing sends in 30 days.
      const roomy = await agent(baseConfig(await list([both.id])));
      const [shared] = (await runNow(roomy)).deliveries;
      expect(shared).toMatchObject({
        status: 'suppressed',
        guardrail: 'frequency_cap',
        reason: FREQUENCY_CAP_WORDS.reason(2, { max_messages: 2, period_days: 30 }),
      });
    } finally {
      await call('PUT', '/api/business/frequency-cap/', { enabled: false, max_messages: 3, period_days: 7 });
    }
  });
});
