// The journeys screens: the list; building a journey step by step from the keyboard-reachable
// toolbar and side panel, the server's refusal landing on the step and field it names, saving and
// publishing; a live journey's per-step counts and a customer's path.
import {
  DEFAULT_AI_RESPONDER,
  TITAN_CUSTOMER_EVENTS,
  type TChatGroupSettings,
  type TJourney,
  type TJourneyCustomerPath,
  type TJourneyStats,
  type TMember,
} from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { ORDER_UPDATE_TEMPLATE } from '../../../test/whatsapp';
import { WIN_BACK } from '../../../test/agents';
import { EDITOR_STRINGS, JOURNEYS_STRINGS, PANEL_STRINGS, PATH_STRINGS } from '../strings';

const SLOW = { timeout: 90_000 };
// Typing a whole journey: slow on a loaded machine.
const TYPING = { timeout: 90_000 };
type Body = Record<string, unknown>;

function journey(overrides: Partial<TJourney> = {}): TJourney {
  return {
    id: 7,
    name: 'Welcome',
    status: 'live',
    reentry: 'never',
    version: 1,
    live_version: 1,
    graph: {
      nodes: [
        {
          id: 'trigger-1',
          type: 'trigger',
          config: { kind: 'event', event: 'signed_up' },
          position: { x: 0, y: 0 },
        },
        { id: 'wait-1', type: 'wait', config: { kind: 'duration', seconds: 60 }, position: { x: 0, y: 140 } },
        { id: 'exit-1', type: 'exit', config: {}, position: { x: 0, y: 280 } },
      ],
      edges: [
        { from: 'trigger-1', to: 'wait-1' },
        { from: 'wait-1', to: 'exit-1' },
      ],
    },
    goal: null,
    created_at: '2026-11-28T10:00:00Z',
    updated_at: '2026-11-28T10:00:00Z',
    ...overrides,
  };
}

const STATS: TJourneyStats = {
  nodes: {
    'trigger-1': { entered: 3, waiting: 0, passed: 3, exited: 0, failed: 0 },
    'wait-1': { entered: 3, waiting: 2, passed: 1, exited: 0, failed: 0 },
    'exit-1': { entered: 1, waiting: 0, passed: 0, exited: 1, failed: 0 },
  },
  customers: { active: 2, exited: 1, failed: 0 },
  in_flight_on_older_versions: 0,
  goal: null,
};

const PATH: TJourneyCustomerPath = {
  customer_id: 42,
  runs: [
    {
      id: 1,
      version: 1,
      status: 'active',
      entered_at: '2026-11-28T10:00:00Z',
      ended_at: null,
      clock_speed: null,
      goal_reached_at: null,
      steps: [
        {
          node_id: 'trigger-1',
          type: 'trigger',
          status: 'passed',
          outcome: null,
          reason: null,
          send_id: null,
          agent_run: null,
          entered_at: '2026-11-28T10:00:00Z',
          due_at: null,
          finished_at: '2026-11-28T10:00:00Z',
        },
        {
          node_id: 'wait-1',
          type: 'wait',
          status: 'waiting',
          outcome: null,
          reason: null,
          send_id: null,
          agent_run: null,
          entered_at: '2026-11-28T10:00:00Z',
          due_at: '2026-11-28T10:01:00Z',
          finished_at: null,
        },
      ],
    },
  ],
};

const SALES: TChatGroupSettings = {
  id: 3,
  name: 'Sales',
  slug: 'sales',
  greeting: '',
  color: '#1f6feb',
  launcher_position: 'right',
  visitor_form: [],
  allowed_origins: [],
  created_at: '2026-03-01T09:00:00.000Z',
  assignment: { mode: 'off', capacity: 10 },
  locale: 'en',
  strings: {},
  ai_responder: { ...DEFAULT_AI_RESPONDER },
  business_hours: null,
  away_message: '',
  sla: null,
  csat: false,
};
const ADA: TMember = {
  id: 1,
  user: { pk: 7, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  role: 'owner',
  joined_at: '2026-01-01T00:00:00Z',
};

function withJourneys(initial: TJourney[] = [journey()]) {
  const state = {
    posts: [] as Body[],
    puts: [] as Body[],
    actions: [] as string[],
    tests: [] as Body[],
    journeys: initial,
  };
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
    http.get('/api/business/customer-lists/', () =>
      ok({ count: 0, next: null, previous: null, results: [] }),
    ),
    http.get('/api/msg/labels/', () => ok([])),
    http.get('/api/template/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([SALES])),
    http.get('/api/agents/', () => ok([WIN_BACK])),
    http.get('/api/business/users/', () => ok([ADA])),
    http.get('/api/journeys/', () => ok(state.journeys)),
    http.post('/api/journeys/', async ({ request }) => {
      const body = (await request.json()) as Body & { graph: TJourney['graph'] };
      state.posts.push(body);
      const seconds = body.graph.nodes.find((n) => n.type === 'wait')?.config as { seconds?: number };
      if (seconds?.seconds === 0)
        return fail(400, 'Validation failed.', {
          'graph.nodes.1.config.seconds': ['Too small: expected number to be >=1'],
        });
      const created = journey({
        id: 8,
        status: 'draft',
        live_version: null,
        name: String(body.name),
        graph: body.graph,
      });
      state.journeys = [created, ...state.journeys];
      return ok(created, 201);
    }),
    http.get('/api/journeys/:id/', ({ params }) =>
      ok(state.journeys.find((j) => j.id === Number(params.id))),
    ),
    http.put('/api/journeys/:id/', async ({ request }) => {
      state.puts.push((await request.json()) as Body);
      return ok(state.journeys[0]);
    }),
    http.post('/api/journeys/:id/test/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.tests.push(body);
      const run = {
        ...PATH.runs[0]!,
        id: 2,
        clock_speed: body.clock_speed as number,
        goal_reached_at: null,
      };
      return ok(run, 201);
    }),
    http.post('/api/journeys/:id/:action/', ({ params }) => {
      state.actions.push(String(params.action));
      const j = state.journeys.find((x) => x.id === Number(params.id))!;
      return ok({ ...j, status: params.action === 'publish' ? 'live' : 'paused', live_version: j.version });
    }),
    http.get('/api/journeys/:id/stats/', () => ok(STATS)),
    http.get('/api/journeys/:id/customers/:customerId/', ({ params }) =>
      ok(params.customerId === '42' ? PATH : { customer_id: Number(params.customerId), runs: [] }),
    ),
  );
  return state;
}

describe('Journeys', () => {
  it('lists journeys with their status and version', SLOW, async () => {
    withJourneys([journey(), journey({ id: 9, name: 'Birthday', status: 'draft', live_version: null })]);
    renderApp('/engage/journeys');
    const table = await screen.findByRole('table', { name: JOURNEYS_STRINGS.tableLabel });
    expect(within(table).getByRole('row', { name: /Welcome/ })).toHaveTextContent('LiveVersion 1 (live)');
    expect(within(table).getByRole('row', { name: /Birthday/ })).toHaveTextContent('DraftVersion 1');
    expect(within(table).getByRole('link', { name: 'Welcome' })).toHaveAttribute(
      'href',
      '/engage/journeys/7',
    );
  });

  it(
    'builds a journey from the toolbar and panel, shows the server refusal on the step, then saves and publishes',
    TYPING,
    async () => {
      const state = withJourneys([]);
      const { router } = renderApp('/engage/journeys/new');
      const user = userEvent.setup();
      // The trigger is there and selected: name its event.
      const event = await screen.findByLabelText(PANEL_STRINGS.event);
      await waitFor(() => expect(event).toBeEnabled());
      await user.clear(event);
      await user.type(event, 'order.placed');
      // Add a wait after it (linked from the trigger), set 0 seconds; then an exit after the wait.
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('Wait') }));
      const seconds = await screen.findByLabelText(PANEL_STRINGS.seconds);
      await user.clear(seconds);
      await user.type(seconds, '0');
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('Exit') }));
      const steps = screen.getByRole('list', { name: EDITOR_STRINGS.steps });
      expect(within(steps).getAllByRole('listitem')).toHaveLength(3);
      expect(within(steps).getByRole('button', { name: /Trigger · trigger-1/ })).toHaveTextContent(
        'On order.placedThen: → wait-1',
      );

      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
      // The 400 names graph.nodes.1.config.seconds: the wait step is selected and its field marked.
      const field = await screen.findByLabelText(PANEL_STRINGS.seconds);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription('Too small: expected number to be >=1');
      expect(screen.getByRole('region', { name: 'Wait · wait-1' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/engage/journeys/new');
      expect(state.posts[0]).toMatchObject({
        name: EDITOR_STRINGS.defaultName,
        reentry: 'never',
        graph: {
          nodes: [
            { id: 'trigger-1', type: 'trigger', config: { kind: 'event', event: 'order.placed' } },
            { id: 'wait-1', type: 'wait', config: { kind: 'duration', seconds: 0 } },
            { id: 'exit-1', type: 'exit', config: {} },
          ],
          edges: [
            { from: 'trigger-1', to: 'wait-1' },
            { from: 'wait-1', to: 'exit-1' },
          ],
        },
      });

      await user.clear(field);
      await user.type(field, '3600');
      const name = screen.getByLabelText(EDITOR_STRINGS.name);
      await user.clear(name);
      await user.type(name, 'Order follow-up');
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/engage/journeys/8'));
      expect(state.posts[1]).toMatchObject({ name: 'Order follow-up' });
      await user.click(await screen.findByRole('button', { name: EDITOR_STRINGS.publish }));
      await waitFor(() => expect(state.actions).toEqual(['publish']));
      expect(await screen.findByText('Live')).toBeInTheDocument();
    },
  );

  it(
    'adds a conversation step (group and assignee chosen by name) and a webhook step, and saves their config',
    SLOW,
    async () => {
      const state = withJourneys([journey({ status: 'draft', live_version: null })]);
      renderApp('/engage/journeys/7');
      const user = userEvent.setup();
      const steps = await screen.findByRole('list', { name: EDITOR_STRINGS.steps });
      await user.click(within(steps).getByRole('button', { name: /Exit · exit-1/ }));
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('Conversation') }));
      const group = await screen.findByLabelText(PANEL_STRINGS.chatGroup);
      await waitFor(() => expect(within(group).getByRole('option', { name: 'Sales' })).toBeInTheDocument());
      await user.selectOptions(group, 'Sales');
      const assignee = screen.getByLabelText(PANEL_STRINGS.assignee);
      await waitFor(() =>
        expect(within(assignee).getByRole('option', { name: 'Ada Lovelace' })).toBeInTheDocument(),
      );
      await user.selectOptions(assignee, 'Ada Lovelace');
      expect(within(steps).getByRole('button', { name: /Conversation · conversation-1/ })).toHaveTextContent(
        'Opens a conversation: group 3, assigned to 7',
      );
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('Webhook') }));
      const url = await screen.findByLabelText(PANEL_STRINGS.webhookUrl);
      await user.clear(url);
      await user.type(url, 'https://shop.example.com/hooks/journey');
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
      await waitFor(() => expect(state.puts).toHaveLength(1));
      expect(state.puts[0]).toMatchObject({
        graph: {
          nodes: expect.arrayContaining([
            expect.objectContaining({
              id: 'conversation-1',
              type: 'conversation',
              config: { chat_group_id: 3, assignee_id: 7 },
            }),
            expect.objectContaining({
              id: 'webhook-1',
              type: 'webhook',
              config: { url: 'https://shop.example.com/hooks/journey' },
            }),
          ]),
          edges: expect.arrayContaining([{ from: 'conversation-1', to: 'webhook-1' }]),
        },
      });
    },
  );

  it(
    'adds an agent step with the agent chosen by name and one of its channels, and saves both',
    SLOW,
    async () => {
      const state = withJourneys([journey({ status: 'draft', live_version: null })]);
      // The agent writes by email first, then SMS: choosing it names email; the step is moved to SMS.
      const twoChannels = {
        ...WIN_BACK,
        config: {
          ...WIN_BACK.config!,
          channels: [{ channel: 'email' as const, template_id: 7 }, { channel: 'sms' as const }],
        },
      };
      server.use(http.get('/api/agents/', () => ok([twoChannels])));
      renderApp('/engage/journeys/7');
      const user = userEvent.setup();
      const steps = await screen.findByRole('list', { name: EDITOR_STRINGS.steps });
      await user.click(within(steps).getByRole('button', { name: /Exit · exit-1/ }));
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('AI agent') }));
      const picker = await screen.findByLabelText(PANEL_STRINGS.agent);
      await waitFor(() =>
        expect(within(picker).getByRole('option', { name: WIN_BACK.name })).toBeInTheDocument(),
      );
      await user.selectOptions(picker, WIN_BACK.name);
      const channel = await screen.findByLabelText(PANEL_STRINGS.agentChannel);
      expect(
        within(channel)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Email', 'SMS']);
      expect(channel).toHaveValue('email');
      expect(within(steps).getByRole('button', { name: /AI agent · agent-1/ })).toHaveTextContent(
        `Hands the customer to agent ${WIN_BACK.id} on email`,
      );
      await user.selectOptions(channel, 'SMS');
      expect(within(steps).getByRole('button', { name: /AI agent · agent-1/ })).toHaveTextContent(
        `Hands the customer to agent ${WIN_BACK.id} on sms`,
      );
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
      await waitFor(() => expect(state.puts).toHaveLength(1));
      expect(state.puts[0]).toMatchObject({
        graph: {
          nodes: expect.arrayContaining([
            expect.objectContaining({
              id: 'agent-1',
              type: 'agent',
              config: { agent_id: WIN_BACK.id, channel: 'sms' },
            }),
          ]),
        },
      });
    },
  );

  it(
    "shows a step saved without a channel on the agent's first, and the server's word on a channel",
    SLOW,
    async () => {
      const withAgent = journey({
        status: 'draft',
        live_version: null,
        graph: {
          nodes: [
            { id: 'trigger-1', type: 'trigger', config: { kind: 'event', event: 'signed_up' } },
            { id: 'agent-1', type: 'agent', config: { agent_id: WIN_BACK.id } },
          ],
          edges: [{ from: 'trigger-1', to: 'agent-1' }],
        },
      });
      withJourneys([withAgent]);
      renderApp('/engage/journeys/7');
      const user = userEvent.setup();
      const steps = await screen.findByRole('list', { name: EDITOR_STRINGS.steps });
      await user.click(within(steps).getByRole('button', { name: /AI agent · agent-1/ }));
      const channel = await screen.findByLabelText(PANEL_STRINGS.agentChannel);
      await waitFor(() => expect(channel).toHaveValue('email'));
      expect(
        within(channel)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Email']);
      // The agent lost that channel meanwhile: the server's 400 names the field, shown on the picker.
      server.use(
        http.put('/api/journeys/:id/', () =>
          fail(400, 'Validation failed.', {
            'graph.nodes.1.config.channel': ['The agent does not send on email; it sends on sms.'],
          }),
        ),
      );
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
      expect(
        await screen.findByText('The agent does not send on email; it sends on sms.'),
      ).toBeInTheDocument();
      expect(screen.getByLabelText(PANEL_STRINGS.agentChannel)).toHaveAttribute('aria-invalid', 'true');
    },
  );

  it(
    "offers Titan's events by name, and sends an approved WhatsApp template with its variables filled",
    SLOW,
    async () => {
      const state = withJourneys([journey({ status: 'draft', live_version: null })]);
      const asked: string[] = [];
      server.use(
        http.get('/api/whatsapp/template/', ({ request }) => {
          asked.push(new URL(request.url).searchParams.get('status') ?? '');
          return ok([ORDER_UPDATE_TEMPLATE]);
        }),
      );
      renderApp('/engage/journeys/7');
      const user = userEvent.setup();
      const steps = await screen.findByRole('list', { name: EDITOR_STRINGS.steps });
      // The trigger's event field suggests every event Titan emits; a posted name is typed freely.
      await user.click(within(steps).getByRole('button', { name: /Trigger · trigger-1/ }));
      const event = await screen.findByLabelText(PANEL_STRINGS.event);
      const suggestions = document.getElementById(event.getAttribute('list')!)!;
      const offered = [...suggestions.querySelectorAll('option')].map((o) => o.getAttribute('value'));
      expect(offered).toEqual(
        expect.arrayContaining([...TITAN_CUSTOMER_EVENTS, 'conversation.unanswered.4h']),
      );
      await user.clear(event);
      await user.type(event, 'label.added');

      await user.click(within(steps).getByRole('button', { name: /Wait · wait-1/ }));
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('Send') }));
      const channel = await screen.findByLabelText(PANEL_STRINGS.channel);
      await user.selectOptions(channel, PANEL_STRINGS.channels.whatsapp);
      const template = await screen.findByLabelText(PANEL_STRINGS.whatsappTemplate);
      await waitFor(() =>
        expect(within(template).getByRole('option', { name: 'order_update (en_US)' })).toBeInTheDocument(),
      );
      expect(asked).toContain('APPROVED');
      await user.selectOptions(template, 'order_update (en_US)');
      // Its header and body variables, each filled from the customer or fixed text.
      await user.type(await screen.findByLabelText(PANEL_STRINGS.whatsappVariable('header.1')), 'A-17');
      await user.type(screen.getByLabelText(PANEL_STRINGS.whatsappVariable('1')), 'customer.name');
      await user.type(screen.getByLabelText(PANEL_STRINGS.whatsappVariable('2')), 'fields.order');
      await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
      await waitFor(() => expect(state.puts).toHaveLength(1));
      expect(state.puts[0]).toMatchObject({
        graph: {
          nodes: expect.arrayContaining([
            expect.objectContaining({ id: 'trigger-1', config: { kind: 'event', event: 'label.added' } }),
            expect.objectContaining({
              type: 'send',
              config: {
                channel: 'whatsapp',
                consent: 'subscribed',
                whatsapp_template: {
                  name: 'order_update',
                  language: 'en_US',
                  variables: { 'header.1': 'A-17', '1': 'customer.name', '2': 'fields.order' },
                },
              },
            }),
          ]),
        },
      });
    },
  );

  it('saves a goal with the journey and shows its conversion; runs a test for a customer', SLOW, async () => {
    const state = withJourneys([journey({ goal: { event: 'order.paid', within_days: 3 } })]);
    server.use(
      http.get('/api/journeys/:id/stats/', () =>
        ok({ ...STATS, goal: { event: 'order.paid', within_days: 3, entered: 4, converted: 1 } }),
      ),
    );
    renderApp('/engage/journeys/7');
    const user = userEvent.setup();
    expect(await screen.findByText('Goal order.paid within 3 d: 1 of 4 converted (25%)')).toBeInTheDocument();
    const event = screen.getByLabelText(EDITOR_STRINGS.goalEvent);
    expect(event).toHaveValue('order.paid');
    const days = screen.getByLabelText(EDITOR_STRINGS.goalDays);
    await user.clear(days);
    await user.type(days, '5');
    await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.saveVersion }));
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toMatchObject({ goal: { event: 'order.paid', within_days: 5 } });
    // Emptying the event drops the goal.
    await user.clear(event);
    await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.saveVersion }));
    await waitFor(() => expect(state.puts).toHaveLength(2));
    expect(state.puts[1]).toMatchObject({ goal: null });

    // Test mode: customer 42 at 60 times, then the path shows the test run.
    await user.type(screen.getByLabelText(PATH_STRINGS.customerId), '42');
    const speed = screen.getByLabelText(PATH_STRINGS.clockSpeed);
    await user.clear(speed);
    await user.type(speed, '60');
    await user.click(screen.getByRole('button', { name: PATH_STRINGS.test }));
    await waitFor(() => expect(state.tests).toEqual([{ customer_id: 42, clock_speed: 60 }]));
    expect(await screen.findByText(PATH_STRINGS.testStarted)).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: PATH_STRINGS.run(1, 1) })).toBeInTheDocument();
  });

  it('relinks a branch by its labelled ways out', SLOW, async () => {
    const state = withJourneys([journey({ status: 'draft', live_version: null })]);
    renderApp('/engage/journeys/7');
    const user = userEvent.setup();
    const steps = await screen.findByRole('list', { name: EDITOR_STRINGS.steps });
    await user.click(within(steps).getByRole('button', { name: /Trigger · trigger-1/ }));
    // A branch after the trigger: the trigger's one way out is taken, so the branch stands alone.
    await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.addStepOf('Branch') }));
    await user.selectOptions(screen.getByLabelText(PANEL_STRINGS.thenOf('yes')), 'wait-1');
    await user.selectOptions(screen.getByLabelText(PANEL_STRINGS.thenOf('no')), 'exit-1');
    await user.click(within(steps).getByRole('button', { name: /Trigger · trigger-1/ }));
    await user.selectOptions(screen.getByLabelText(PANEL_STRINGS.then), 'branch-1');
    await user.click(screen.getByRole('button', { name: EDITOR_STRINGS.save }));
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect((state.puts[0]!.graph as TJourney['graph']).edges).toEqual([
      { from: 'wait-1', to: 'exit-1' },
      { from: 'branch-1', to: 'wait-1', label: 'yes' },
      { from: 'branch-1', to: 'exit-1', label: 'no' },
      { from: 'trigger-1', to: 'branch-1' },
    ]);
  });

  it("shows a live journey's per-step counts and a customer's path", SLOW, async () => {
    withJourneys();
    renderApp('/engage/journeys/7');
    expect(await screen.findByTestId('counts-wait-1')).toHaveTextContent(
      '3 entered · 2 waiting · 1 passed · 0 exited · 0 failed',
    );
    expect(screen.getByText('2 in the journey · 1 finished · 0 failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: EDITOR_STRINGS.saveVersion })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(PATH_STRINGS.customerId), '42');
    await user.click(screen.getByRole('button', { name: PATH_STRINGS.show }));
    const run = await screen.findByRole('list', { name: PATH_STRINGS.run(1, 1) });
    const items = within(run).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('trigger-1Passed');
    expect(items[1]).toHaveTextContent(/wait-1Waiting.*due/);
    await user.clear(screen.getByLabelText(PATH_STRINGS.customerId));
    await user.type(screen.getByLabelText(PATH_STRINGS.customerId), '5');
    await user.click(screen.getByRole('button', { name: PATH_STRINGS.show }));
    expect(await screen.findByText(PATH_STRINGS.none)).toBeInTheDocument();
  });

  it('moves the customers still on an earlier version to a chosen step of this one', SLOW, async () => {
    withJourneys([journey({ version: 2, live_version: 2 })]);
    const moves: Body[] = [];
    server.use(
      http.get('/api/journeys/:id/stats/', () => ok({ ...STATS, in_flight_on_older_versions: 3 })),
      http.post('/api/journeys/:id/move-in-flight/', async ({ request }) => {
        const body = (await request.json()) as Body;
        moves.push(body);
        return moves.length === 1
          ? fail(400, 'Bad request', { to_node: ['No such step in the live version.'] })
          : ok({ moved: 3, left: 0 });
      }),
    );
    renderApp('/engage/journeys/7');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: EDITOR_STRINGS.inFlightHeading });
    expect(within(section).getByText(EDITOR_STRINGS.inFlight(3))).toBeInTheDocument();
    const select = within(section).getByLabelText(EDITOR_STRINGS.moveTo);
    // The trigger is no step to move to.
    expect(within(select).queryByRole('option', { name: /trigger-1/ })).toBeNull();
    await user.selectOptions(select, 'exit-1');
    await user.click(within(section).getByRole('button', { name: EDITOR_STRINGS.move }));
    expect(await within(section).findByText('No such step in the live version.')).toBeInTheDocument();
    expect(select).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(section).getByRole('button', { name: EDITOR_STRINGS.move }));
    expect(await screen.findByText(EDITOR_STRINGS.moved({ moved: 3, left: 0 }))).toBeInTheDocument();
    expect(moves).toEqual([{ to_node: 'exit-1' }, { to_node: 'exit-1' }]);
  });
});
