// An agent run calling an MCP tool (tools/mcp-sim through OAuth) and a plugin tool (the HTTP webhook
// plugin against a local endpoint started here), each recorded as a run step with its input and
// output — the real seam, no mocks — and the picker's GET /api/agents/tools/ listing both.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIM_KEY,
  DEFAULT_SIM_MODEL,
  startLlmSim,
  type LlmSim,
  type ScriptStep,
} from '@titan/llm-sim';
import { startMcpSim, type McpSim } from '@titan/mcp-sim';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import type { TAgentRun, TAgentRunSummary, TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { insertCustomer } from '../../directory/directory.service';
import { processRun } from '../../agents/runs/lifecycle';

const SMS = {
  account_sid: 'AC0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d',
  auth_token: 'd-auth-token-0123456789abcdef0123',
  from_number: '+15550100500',
};

let llm: LlmSim;
let mcp: McpSim;
let sms: SmsSim;
let hook: Server;
let hookUrl: string;
const hookBodies: string[] = [];
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  rt.app!.inject({ method, url, headers: as(owner, business), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  [llm, mcp] = await Promise.all([startLlmSim(), startMcpSim()]);
  sms = await startSmsSim({
    accounts: [{ accountSid: SMS.account_sid, authToken: SMS.auth_token, numbers: [SMS.from_number] }],
  });
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hookBodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ booked: true, slot: '2026-12-01T10:00:00Z' }));
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/book`;
  rt = await createTestRuntime({ env: { SMS_API_URL: sms.apiUrl, LLM_MAX_RETRIES: '0' } });
  await rt.app!.ready();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Tool Shop');
  expect(
    (
      await call('PUT', '/api/config/llm/', {
        base_url: llm.baseUrl,
        model: DEFAULT_SIM_MODEL,
        api_key: DEFAULT_SIM_KEY,
      })
    ).statusCode,
  ).toBe(200);
  expect((await call('PUT', '/api/sms/account/', SMS)).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await Promise.all([llm?.close(), mcp?.close(), sms?.close()]);
  await new Promise((r) => hook?.close(r));
});

describe('an agent run with outside tools', () => {
  it('calls an MCP tool and a plugin tool, each a step with its input and output', async () => {
    // The MCP server, connected through OAuth.
    const server = (
      await call('POST', '/api/config/mcp-servers/', { name: 'Shop', url: mcp.mcpUrl, auth: 'oauth' })
    ).json().result;
    const started = (await call('POST', `/api/config/mcp-servers/${server.id}/connect/`)).json().result;
    const back = await mcp.approve(started.authorization_url);
    const done = await call('POST', '/api/config/mcp-servers/callback/', {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss'),
    });
    expect(done.json().result.status).toBe('connected');
    // The webhook plugin.
    const plugin = (
      await call('POST', '/api/user-plugins/', { plugin: 'http-webhook', settings: { url: hookUrl } })
    ).json().result;

    const picker = await call('GET', '/api/agents/tools/');
    expect(picker.statusCode, picker.body).toBe(200);
    const names = (picker.json().result as { source: string; model_name?: string; name: string }[]).map(
      (t) => `${t.source}:${t.name}`,
    );
    expect(names).toEqual(expect.arrayContaining(['mcp:lookup_order', 'mcp:list_bookings', 'plugin:call']));

    const customer = await insertCustomer(rt.services.db, {
      businessId: business.id,
      name: 'Mal Reynolds',
      email: 'mal@example.com',
      phone: '+14155570001',
      emailStatus: 'subscribed',
      smsStatus: 'subscribed',
    });
    const list = (await call('POST', '/api/business/customer-lists/', { name: 'Orders' })).json().result
      .id as number;
    await call('POST', `/api/business/customer-lists/${list}/members/`, { customer_ids: [customer.id] });
    const created = await call('POST', '/api/agents/', {
      name: 'Order follow-up',
      status: 'active',
      config: {
        instructions: 'Tell customers where their order is, and offer a pickup slot.',
        goal: 'Keep customers informed',
        audience: { list_ids: [list] },
        channels: [{ channel: 'sms' }],
        tools: [
          { source: 'mcp', server_id: server.id, name: 'lookup_order', approval: 'auto' },
          { source: 'plugin', server_id: plugin.id, name: 'call', approval: 'auto' },
        ],
        limits: { max_sends_per_run: 10, per_recipient_per_week: 3, max_steps: 6, max_tokens: 4000 },
        send_mode: 'dry_run',
        quiet_hours: null,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const agentId = created.json().result.id as number;

    const mcpTool = `mcp${server.id}_lookup_order`;
    const pluginTool = `plugin${plugin.id}_call`;
    llm.script(
      { kind: 'tool_calls', calls: [{ name: mcpTool, arguments: { order_id: 'A-1001' } }] },
      {
        kind: 'tool_calls',
        calls: [{ name: pluginTool, arguments: { action: 'book_pickup', data: { order_id: 'A-1001' } } }],
      },
      {
        kind: 'json',
        value: {
          send: true,
          channel: 'sms',
          template_id: null,
          variables: [],
          subject: null,
          body: 'Your mugs have shipped; pickup booked for 1 Dec, 10:00.',
          reason: 'Order A-1001 shipped.',
        },
      } satisfies ScriptStep,
    );
    const res = await call('POST', `/api/agents/${agentId}/run-now/`, {});
    expect(res.statusCode, res.body).toBe(202);
    const [summary] = res.json().result.runs as TAgentRunSummary[];
    await processRun({ ...rt.services.agentRuns, concurrency: 1 }, summary!.id);
    const run = (await call('GET', `/api/agents/${agentId}/runs/${summary!.id}/`)).json().result as TAgentRun;

    expect(run.status).toBe('completed');
    const steps = run.steps.filter((s) => s.kind === 'tool');
    expect(steps.map((s) => s.name)).toEqual([mcpTool, pluginTool]);
    expect(steps[0]).toMatchObject({
      input: { order_id: 'A-1001' },
      output: expect.objectContaining({ id: 'A-1001', status: 'shipped' }),
    });
    expect(steps[1]).toMatchObject({
      input: { action: 'book_pickup', data: { order_id: 'A-1001' } },
      output: { booked: true, slot: '2026-12-01T10:00:00Z' },
    });
    expect(mcp.state().calls).toEqual([{ tool: 'lookup_order', args: { order_id: 'A-1001' }, via: 'oauth' }]);
    expect(JSON.parse(hookBodies.at(-1)!)).toEqual({ action: 'book_pickup', data: { order_id: 'A-1001' } });
    expect(run.deliveries[0]).toMatchObject({
      body: 'Your mugs have shipped; pickup booked for 1 Dec, 10:00.',
    });
  });
});
