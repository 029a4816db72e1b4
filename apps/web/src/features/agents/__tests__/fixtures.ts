// A small fake of the agents API for the screens' tests: agents, lists, templates, tools, runs —
// kept in `state` so tests can read what the screens sent and change what the server answers.
import type {
  TAgent,
  TAgentConfig,
  TAgentDelivery,
  TAgentRun,
  TAgentRunSummary,
  TAgentToolInfo,
  TCustomerList,
  TEmailTemplateSummary,
  TSuggestedAgent,
} from '@titan/contracts';
import { http } from 'msw';

import { ACME, ok, profile, signIn, fail } from '../../../test/api';
import { server } from '../../../test/server';

type Body = Record<string, unknown>;

export { CONFIG, WIN_BACK } from '../../../test/agents';
import { WIN_BACK } from '../../../test/agents';

export const LISTS: TCustomerList[] = [
  {
    id: 11,
    name: 'Newsletter',
    description: '',
    kind: 'static',
    double_opt_in: false,
    filter: null,
    member_count: 120,
    created_at: '2026-10-01T10:00:00Z',
    updated_at: '2026-10-01T10:00:00Z',
  },
  {
    id: 12,
    name: 'Lapsed',
    description: '',
    kind: 'segment',
    double_opt_in: false,
    filter: { last_seen_at__lte: '2026-09-01T00:00:00.000Z' },
    member_count: 42,
    created_at: '2026-10-01T10:00:00Z',
    updated_at: '2026-10-01T10:00:00Z',
  },
];

export const TEMPLATES: TEmailTemplateSummary[] = [
  {
    id: 7,
    name: 'Welcome back',
    subject: 'We miss you',
    preheader: '',
    format: 'mjml',
    variables: [],
    version: 1,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    thumbnail_url: null,
  },
];

export const TOOLS: TAgentToolInfo[] = [
  {
    source: 'builtin',
    server_id: null,
    name: 'lookup_customer',
    model_name: 'lookup_customer',
    description: 'Look up a customer by id, email or phone.',
    input_schema: {},
    sends: false,
  },
  {
    source: 'builtin',
    server_id: null,
    name: 'send_email',
    model_name: 'send_email',
    description: 'Send an email (through the guardrails).',
    input_schema: {},
    sends: true,
  },
  {
    source: 'mcp',
    server_id: 3,
    name: 'crm_search',
    model_name: 'mcp_3_crm_search',
    description: 'Search the CRM.',
    input_schema: {},
    sends: false,
  },
];

export const SUGGESTION: TSuggestedAgent = {
  key: 'win_back',
  name: 'Win back inactive customers',
  description: 'Write to customers not seen for 60 days.',
  reason: '42 customers have not been seen for 60 days.',
  audience_count: 42,
  config: {
    instructions: 'Invite them back warmly.',
    goal: 'Bring inactive customers back',
    audience: { list_ids: [], segment: { last_seen_at__lte: '2026-09-25T00:00:00.000Z', has_email: true } },
    channels: [{ channel: 'email' }],
    tools: [],
    limits: { max_sends_per_run: 100, per_recipient_per_week: 1, max_steps: 10, max_tokens: 4000 },
    send_mode: 'review',
    consent_mode: 'subscribed',
    quiet_hours: null,
  },
};

const COUNTS = {
  considered: 3,
  planned: 2,
  pending_approval: 1,
  rejected: 0,
  sent: 1,
  failed: 0,
  suppressed: 1,
  skipped: 0,
  dry_run: 0,
};

export const RUN_SUMMARY: TAgentRunSummary = {
  id: 'run-1',
  agent_id: 5,
  channel: 'email',
  status: 'awaiting_approval',
  trigger: 'schedule',
  config_version: 3,
  send_mode: 'review',
  slot_at: '2026-11-23T08:00:00Z',
  started_at: '2026-11-23T08:00:00Z',
  finished_at: '2026-11-23T08:01:00Z',
  counts: COUNTS,
  tokens: 1234,
  prompt_tokens: 1000,
  completion_tokens: 234,
  cost: null,
  error: null,
};

const delivery = (over: Partial<TAgentDelivery>): TAgentDelivery => ({
  id: '00000000-0000-4000-8000-000000000001',
  run_id: 'run-1',
  channel: 'email',
  customer: { id: 21, name: 'Ada Lovelace', email: 'ada@example.com', phone: null },
  status: 'sent',
  reason: 'Has not visited since August.',
  guardrail: null,
  template_id: 7,
  variables: {},
  subject: null,
  body: null,
  send_id: 'send-ada',
  created_at: '2026-11-23T08:00:10Z',
  updated_at: '2026-11-23T08:00:10Z',
  ...over,
});

export const DELIVERIES: TAgentDelivery[] = [
  delivery({}),
  delivery({
    id: '00000000-0000-4000-8000-000000000002',
    customer: { id: 22, name: 'Grace Hopper', email: 'grace@example.com', phone: null },
    status: 'pending_approval',
    reason: 'Bought twice last spring.',
    send_id: null,
    subject: 'We saved you a seat',
    body: 'Come back for 10% off.',
  }),
  delivery({
    id: '00000000-0000-4000-8000-000000000003',
    customer: { id: 23, name: 'Alan Turing', email: 'alan@example.com', phone: null },
    status: 'suppressed',
    guardrail: 'suppression',
    reason: 'Unsubscribed from email.',
    send_id: null,
  }),
];

export const RUN: TAgentRun = {
  ...RUN_SUMMARY,
  steps: [
    {
      seq: 1,
      kind: 'tool',
      name: 'lookup_customer',
      customer_id: 21,
      input: { customer_id: 21 },
      output: { name: 'Ada Lovelace', last_seen_at: '2026-08-01' },
      duration_ms: 12,
      tokens: 0,
      created_at: '2026-11-23T08:00:01Z',
    },
    {
      seq: 2,
      kind: 'llm',
      name: 'sim-model',
      customer_id: 21,
      input: { messages: 3 },
      output: { content: 'Ada has been away since August; a warm invitation fits.' },
      duration_ms: 850,
      tokens: 420,
      created_at: '2026-11-23T08:00:02Z',
    },
    {
      seq: 3,
      kind: 'guardrail',
      name: 'suppression',
      customer_id: 23,
      input: { email: 'alan@example.com' },
      output: { allowed: false, reason: 'Unsubscribed from email.' },
      duration_ms: 1,
      tokens: 0,
      created_at: '2026-11-23T08:00:03Z',
    },
  ],
  steps_count: 3,
  deliveries: DELIVERIES,
  deliveries_count: 3,
};

export function withAgents(options: { agents?: TAgent[]; role?: 'owner' | 'agent' } = {}) {
  signIn();
  const state = {
    agents: options.agents ?? [WIN_BACK],
    posts: [] as Body[],
    puts: [] as Body[],
    configs: [] as Body[],
    schedules: [] as Body[],
    previews: [] as Body[],
    runNow: [] as Body[],
    reviews: [] as { action: string; body: Body }[],
    run: structuredClone(RUN),
    configAnswer: null as null | ((body: Body) => Response),
    postAnswer: null as null | ((body: Body) => Response),
  };
  const find = (id: unknown) => state.agents.find((a) => a.id === Number(id));
  const save = (agent: TAgent) => {
    state.agents = state.agents.map((a) => (a.id === agent.id ? agent : a));
    return agent;
  };
  server.use(
    http.get('/api/users/profile/', () =>
      ok(profile({ businesses: [{ ...ACME, role: options.role ?? 'owner' }] })),
    ),
    http.get('/api/agents/', () => ok(state.agents)),
    http.get('/api/agents/get-suggested-agents/', () => ok([SUGGESTION])),
    http.get('/api/agents/tools/', () => ok(TOOLS)),
    http.post('/api/agents/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      if (state.postAnswer) return state.postAnswer(body);
      const config = body.config as TAgentConfig | undefined;
      const created: TAgent = {
        ...WIN_BACK,
        id: 9,
        name: body.name as string,
        description: (body.description as string) ?? '',
        status: 'draft',
        schedule: null,
        last_run: null,
        config: config ? { ...config, version: 1, created_at: '2026-11-24T08:00:00Z' } : null,
      };
      state.agents = [...state.agents, created];
      return ok(created, 201);
    }),
    http.get('/api/agents/:id/', ({ params }) => {
      const agent = find(params.id);
      return agent ? ok(agent) : fail(404, 'Agent not found.');
    }),
    http.put('/api/agents/:id/', async ({ request, params }) => {
      const body = (await request.json()) as Body;
      state.puts.push(body);
      return ok(save({ ...find(params.id)!, ...body } as TAgent));
    }),
    http.delete('/api/agents/:id/', ({ params }) => {
      state.agents = state.agents.filter((a) => a.id !== Number(params.id));
      return ok(null);
    }),
    http.post('/api/agents/:id/update-agent-config/', async ({ request, params }) => {
      const body = (await request.json()) as Body;
      state.configs.push(body);
      if (state.configAnswer) return state.configAnswer(body);
      const agent = find(params.id)!;
      const version = (agent.config?.version ?? 0) + 1;
      return ok(
        save({
          ...agent,
          config: { ...(body as TAgentConfig), version, created_at: '2026-11-24T08:00:00Z' },
        }),
      );
    }),
    http.put('/api/agents/:id/schedule/', async ({ request, params }) => {
      const body = (await request.json()) as Body;
      state.schedules.push(body);
      const schedule = {
        kind: body.kind,
        cron: body.cron ?? null,
        every_minutes: body.every_minutes ?? null,
        run_at: body.run_at ?? null,
        timezone: body.timezone,
        start_at: null,
        end_at: null,
        missed: body.missed ?? 'skip',
        next_run_at: '2026-11-30T08:00:00.000Z',
        last_fired_at: null,
      } as TAgent['schedule'];
      save({ ...find(params.id)!, schedule });
      return ok(schedule);
    }),
    http.post('/api/agents/:id/preview/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.previews.push(body);
      return ok({
        run: {
          ...RUN_SUMMARY,
          id: 'run-preview',
          trigger: 'preview',
          status: 'completed',
          send_mode: 'dry_run',
        },
        items: [
          {
            ...DELIVERIES[0]!,
            id: '00000000-0000-4000-8000-0000000000a1',
            status: 'dry_run',
            send_id: null,
            rendered: {
              subject: 'We miss you, Ada',
              text: 'We miss you',
              html: '<p>Hello Ada, we miss you</p>',
            },
          },
          {
            ...DELIVERIES[1]!,
            id: '00000000-0000-4000-8000-0000000000a2',
            status: 'skipped',
            reason: 'Visited last week: no need to write.',
            send_id: null,
            rendered: null,
          },
        ],
      });
    }),
    http.post('/api/agents/:id/run-now/', async ({ request }) => {
      state.runNow.push((await request.json()) as Body);
      return ok({ runs: [{ ...RUN_SUMMARY, id: 'run-2', trigger: 'manual', status: 'running' }] }, 202);
    }),
    http.get('/api/agents/:id/runs/', ({ request }) => {
      const url = new URL(request.url);
      const channel = url.searchParams.get('channel');
      const preview = {
        ...RUN_SUMMARY,
        id: 'run-p',
        trigger: 'preview' as const,
        send_mode: 'dry_run' as const,
      };
      const results =
        channel !== 'email' ? [] : url.searchParams.get('kind') === 'preview' ? [preview] : [RUN_SUMMARY];
      return ok({ count: results.length, next: null, previous: null, results });
    }),
    http.get('/api/agents/:id/runs/:runId/', ({ params }) =>
      params.runId === state.run.id ? ok(state.run) : fail(404, 'Run not found.'),
    ),
    http.post('/api/agents/:id/runs/:runId/:action/', async ({ request, params }) => {
      const body = (await request.json()) as Body;
      const action = String(params.action);
      state.reviews.push({ action, body });
      const ids = body.all ? null : (body.delivery_ids as string[]);
      let updated = 0;
      state.run.deliveries = state.run.deliveries.map((d) => {
        if (d.status !== 'pending_approval' || (ids && !ids.includes(d.id))) return d;
        updated += 1;
        return { ...d, status: action === 'approve' ? 'approved' : 'rejected' };
      });
      state.run.counts = {
        ...state.run.counts,
        pending_approval: state.run.counts.pending_approval - updated,
      };
      return ok({ updated, run: state.run });
    }),
    http.get('/api/business/customer-lists/', () =>
      ok({ count: LISTS.length, next: null, previous: null, results: LISTS }),
    ),
    http.get('/api/template/', () => ok(TEMPLATES)),
    http.get('/api/whatsapp/template/', () => ok([])),
    http.post('/api/agents/:id/avatar/', async ({ request, params }) => {
      const file = (await request.formData()).get('file') as File;
      if (file.type !== 'image/png')
        return fail(400, 'Upload a PNG, JPEG, GIF or WebP image.', {
          file: ['Upload a PNG, JPEG, GIF or WebP image.'],
        });
      return ok(save({ ...find(params.id)!, avatar_url: `http://titan.test/agent_images/${file.name}` }));
    }),
  );
  return state;
}
