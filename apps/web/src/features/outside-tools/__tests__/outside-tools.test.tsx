import { MCP_ERRORS, type TMcpServer, type TPlugin, type TUserPlugin } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { leaveFor } from '../redirect';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

type Body = Record<string, unknown>;

const TOOLS = [
  {
    name: 'lookup_order',
    model_name: 'mcp1_lookup_order',
    description: 'Look up an order by its number.',
    input_schema: { type: 'object' },
  },
  {
    name: 'list_bookings',
    model_name: 'mcp1_list_bookings',
    description: 'List bookings.',
    input_schema: {},
  },
];

function mcpServer(over: Partial<TMcpServer>): TMcpServer {
  return {
    id: 1,
    name: 'Shop',
    url: 'https://mcp.example.com/mcp',
    auth: 'oauth',
    status: 'pending_oauth',
    last_error: null,
    has_token: false,
    oauth_registration: null,
    token_expires_at: null,
    tools: [],
    tools_listed_at: null,
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    ...over,
  };
}

function setUpMcp(role: 'owner' | 'agent', initial: TMcpServer[] = []) {
  signIn();
  const state = { servers: initial, posts: [] as Body[], connects: [] as number[], callbacks: [] as Body[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/config/mcp-servers/', () => ok(state.servers)),
    http.post('/api/config/mcp-servers/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      const created = mcpServer({
        id: 10 + state.posts.length,
        name: String(body.name),
        url: String(body.url),
        auth: body.auth as TMcpServer['auth'],
        ...(body.auth === 'bearer' ? { status: 'connected', has_token: true, tools: TOOLS } : {}),
      });
      state.servers = [...state.servers, created];
      return ok(created, 201);
    }),
    http.post('/api/config/mcp-servers/:id/connect/', ({ params }) => {
      state.connects.push(Number(params.id));
      return ok({ authorization_url: `https://auth.example.com/authorize?state=s${String(params.id)}` });
    }),
    http.post('/api/config/mcp-servers/callback/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.callbacks.push(body);
      if (body.state === 'used') return fail(400, 'Invalid input.', { state: [MCP_ERRORS.stateInvalid] });
      return ok(mcpServer({ name: 'Shop', status: 'connected', has_token: true, tools: TOOLS }));
    }),
    http.delete('/api/config/mcp-servers/:id/', ({ params }) => {
      state.servers = state.servers.filter((s) => s.id !== Number(params.id));
      return ok(null);
    }),
  );
  return state;
}

afterEach(() => vi.restoreAllMocks());

describe('Settings → MCP servers', () => {
  it(
    'adds a bearer server and shows its status and tools with descriptions',
    { timeout: 30_000 },
    async () => {
      const state = setUpMcp('owner');
      const user = userEvent.setup();
      renderApp('/engage/settings/mcp-servers');
      const tabs = await screen.findByRole('navigation', { name: 'Settings' });
      expect(within(tabs).getByRole('link', { name: 'MCP servers' })).toHaveAttribute('aria-current', 'page');
      expect(await screen.findByText(S.mcp.empty)).toBeInTheDocument();

      const form = screen.getByRole('form', { name: S.mcp.addTitle });
      await user.type(within(form).getByLabelText(S.mcp.name), 'Orders');
      await user.type(within(form).getByLabelText(S.mcp.url), 'https://mcp.example.com/mcp');
      await user.selectOptions(within(form).getByLabelText(S.mcp.auth), 'bearer');
      await user.click(within(form).getByRole('button', { name: S.mcp.add }));
      expect(
        await within(form).findByText('Enter the bearer token this server expects.'),
      ).toBeInTheDocument();
      await user.type(within(form).getByLabelText(S.mcp.token), 'secret-token');
      await user.click(within(form).getByRole('button', { name: S.mcp.add }));
      await waitFor(() =>
        expect(state.posts).toEqual([
          { name: 'Orders', url: 'https://mcp.example.com/mcp', auth: 'bearer', token: 'secret-token' },
        ]),
      );
      const item = await screen.findByRole('listitem', { name: 'Orders' });
      expect(within(item).getByTestId('connection-status')).toHaveTextContent(S.status.connected);
      const tools = within(item).getByRole('list', { name: 'Orders tools' });
      expect(within(tools).getByText('lookup_order')).toBeInTheDocument();
      expect(within(tools).getByText(/Look up an order by its number/)).toBeInTheDocument();
      expect(state.connects).toEqual([]);
    },
  );

  it('adds an OAuth server and goes on to its authorization page; reconnects an expired one', async () => {
    const go = vi.spyOn(leaveFor, 'go').mockImplementation(() => undefined);
    const state = setUpMcp('owner', [
      mcpServer({
        id: 3,
        name: 'Bookings',
        status: 'expired',
        last_error: MCP_ERRORS.expired,
        tools: TOOLS,
      }),
    ]);
    const user = userEvent.setup();
    renderApp('/engage/settings/mcp-servers');
    const expired = await screen.findByRole('listitem', { name: 'Bookings' });
    expect(within(expired).getByTestId('connection-status')).toHaveTextContent(S.status.expired);
    expect(within(expired).getByTestId('connection-error')).toHaveTextContent(MCP_ERRORS.expired);
    await user.click(within(expired).getByRole('button', { name: S.connect }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://auth.example.com/authorize?state=s3'));

    const form = screen.getByRole('form', { name: S.mcp.addTitle });
    await user.type(within(form).getByLabelText(S.mcp.name), 'Shop');
    await user.type(within(form).getByLabelText(S.mcp.url), 'https://shop.example.com/mcp');
    await user.click(within(form).getByRole('button', { name: S.mcp.add }));
    await waitFor(() => expect(state.connects).toEqual([3, 11]));
    expect(state.posts[0]).toEqual({ name: 'Shop', url: 'https://shop.example.com/mcp', auth: 'oauth' });
    await waitFor(() => expect(go).toHaveBeenLastCalledWith('https://auth.example.com/authorize?state=s11'));
  });

  it('removes a server after confirmation', async () => {
    setUpMcp('owner', [
      mcpServer({ id: 4, name: 'Old', status: 'connected', tools: TOOLS, has_token: true }),
    ]);
    const user = userEvent.setup();
    renderApp('/engage/settings/mcp-servers');
    const item = await screen.findByRole('listitem', { name: 'Old' });
    await user.click(within(item).getByRole('button', { name: `${S.remove} Old` }));
    await user.click(await screen.findByRole('button', { name: S.remove }));
    expect(await screen.findByText(S.mcp.empty)).toBeInTheDocument();
  });

  it('shows agents the servers without the controls', async () => {
    setUpMcp('agent', [mcpServer({ status: 'connected', tools: TOOLS, has_token: true })]);
    renderApp('/engage/settings/mcp-servers');
    const item = await screen.findByRole('listitem', { name: 'Shop' });
    expect(within(item).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('form', { name: S.mcp.addTitle })).toBeNull();
    expect(screen.getByText(S.readOnly)).toBeInTheDocument();
  });

  it('the callback page posts code, state and iss once, then goes back to the tab', async () => {
    const state = setUpMcp('owner', [mcpServer({ status: 'connected', tools: TOOLS, has_token: true })]);
    renderApp('/engage/settings/mcp-servers/callback?code=c1&state=s1&iss=https%3A%2F%2Fauth.example.com');
    expect(await screen.findByRole('listitem', { name: 'Shop' })).toBeInTheDocument();
    expect(state.callbacks).toEqual([{ code: 'c1', state: 's1', iss: 'https://auth.example.com' }]);
  });

  it('the callback page says why a connection failed, or that authorization was refused', async () => {
    setUpMcp('owner');
    renderApp('/engage/settings/mcp-servers/callback?code=c1&state=used');
    expect(await screen.findByRole('alert')).toHaveTextContent(MCP_ERRORS.stateInvalid);
  });

  it('the callback page shows a refusal from the authorization server without posting', async () => {
    const state = setUpMcp('owner');
    renderApp('/engage/settings/mcp-servers/callback?error=access_denied&state=s1');
    expect(await screen.findByRole('alert')).toHaveTextContent(S.callbackDenied('access_denied'));
    expect(state.callbacks).toEqual([]);
  });
});

const WEBHOOK: TPlugin = {
  id: 'http-webhook',
  name: 'HTTP webhook',
  description: 'Calls your endpoint, signed.',
  auth_type: 'api_key',
  api_key_required: false,
  settings: [{ name: 'url', label: 'Endpoint URL', type: 'url', required: true }],
  tools: [{ name: 'call', description: 'Send a request to your system.', input_schema: {} }],
  available: true,
  unavailable_reason: null,
};

describe('Settings → Plugins', () => {
  it('connects the HTTP webhook plugin, shows the signing secret once, field errors in words', async () => {
    signIn();
    const posts: Body[] = [];
    let connections: TUserPlugin[] = [];
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
      http.get('/api/plugins/', () => ok([WEBHOOK])),
      http.get('/api/user-plugins/', () => ok(connections)),
      http.post('/api/user-plugins/', async ({ request }) => {
        const body = (await request.json()) as Body;
        posts.push(body);
        const url = (body.settings as Record<string, string>).url ?? '';
        if (!url.startsWith('https://'))
          return fail(400, 'Invalid input.', { 'settings.url': [MCP_ERRORS.httpsRequired] });
        const created: TUserPlugin = {
          id: 7,
          plugin: 'http-webhook',
          plugin_name: 'HTTP webhook',
          name: String(body.name),
          settings: { url },
          status: 'connected',
          last_error: null,
          has_key: true,
          tools: [
            {
              name: 'call',
              model_name: 'plugin7_call',
              description: 'Send a request to your system.',
              input_schema: {},
            },
          ],
          connected_by: 1,
          created_at: '2026-11-24T10:00:00Z',
          updated_at: '2026-11-24T10:00:00Z',
        };
        connections = [created];
        return ok({ ...created, signing_secret: 'whsec-shown-once-0123456789' }, 201);
      }),
    );
    const user = userEvent.setup();
    renderApp('/engage/settings/plugins');
    const catalogue = await screen.findByRole('list', { name: S.plugins.catalogue });
    const webhook = within(catalogue).getByRole('listitem', { name: 'HTTP webhook' });
    expect(within(webhook).getByText(/Send a request to your system/)).toBeInTheDocument();
    await user.click(within(webhook).getByRole('button', { name: S.plugins.connectTitle('HTTP webhook') }));
    const form = screen.getByRole('form', { name: S.plugins.connectTitle('HTTP webhook') });
    expect(within(form).queryByLabelText(S.plugins.apiKey)).toBeNull();
    await user.type(within(form).getByLabelText('Endpoint URL'), 'http://hooks.example.com/titan');
    await user.click(within(form).getByRole('button', { name: S.plugins.connectAction }));
    expect(await within(form).findByText(MCP_ERRORS.httpsRequired)).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Endpoint URL'));
    await user.type(within(form).getByLabelText('Endpoint URL'), 'https://hooks.example.com/titan');
    await user.click(within(form).getByRole('button', { name: S.plugins.connectAction }));
    expect(await screen.findByTestId('signing-secret')).toHaveTextContent('whsec-shown-once-0123456789');
    const list = await screen.findByRole('list', { name: S.plugins.connections });
    const item = within(list).getByRole('listitem', { name: 'HTTP webhook' });
    expect(within(item).getByTestId('connection-status')).toHaveTextContent(S.status.connected);
    expect(posts.at(-1)).toEqual({
      plugin: 'http-webhook',
      name: 'HTTP webhook',
      settings: { url: 'https://hooks.example.com/titan' },
    });
  });

  it('removes a connection only after confirming, saying agents lose its tools', async () => {
    signIn();
    const deletes: number[] = [];
    let connections: TUserPlugin[] = [
      {
        id: 7,
        plugin: 'http-webhook',
        plugin_name: 'HTTP webhook',
        name: 'Order hook',
        settings: { url: 'https://hooks.example.com/titan' },
        status: 'connected',
        last_error: null,
        has_key: true,
        tools: [],
        connected_by: 1,
        created_at: '2026-11-24T10:00:00Z',
        updated_at: '2026-11-24T10:00:00Z',
      },
    ];
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
      http.get('/api/plugins/', () => ok([WEBHOOK])),
      http.get('/api/user-plugins/', () => ok(connections)),
      http.delete('/api/user-plugins/:id/', ({ params }) => {
        deletes.push(Number(params.id));
        connections = connections.filter((c) => c.id !== Number(params.id));
        return ok(null);
      }),
    );
    const user = userEvent.setup();
    renderApp('/engage/settings/plugins');
    const list = await screen.findByRole('list', { name: S.plugins.connections });
    const item = within(list).getByRole('listitem', { name: 'Order hook' });

    await user.click(within(item).getByRole('button', { name: 'Remove Order hook' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Remove Order hook?' });
    expect(dialog).toHaveTextContent('Agents using its tools will no longer be offered them.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(deletes).toEqual([]);

    await user.click(within(item).getByRole('button', { name: 'Remove Order hook' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Remove Order hook?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Order hook was removed.')).toBeInTheDocument();
    expect(deletes).toEqual([7]);
  });

  it('the plugin callback page posts once and goes back to the tab', async () => {
    signIn();
    const callbacks: Body[] = [];
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
      http.get('/api/plugins/', () => ok([WEBHOOK])),
      http.get('/api/user-plugins/', () => ok([])),
      http.post('/api/user-plugins/callback/', async ({ request }) => {
        callbacks.push((await request.json()) as Body);
        return ok({
          id: 8,
          plugin: 'sim-shop',
          plugin_name: 'Sim shop',
          name: 'Shop',
          settings: {},
          status: 'connected',
          last_error: null,
          has_key: true,
          tools: [],
          connected_by: 1,
          created_at: '2026-11-24T10:00:00Z',
          updated_at: '2026-11-24T10:00:00Z',
        } satisfies TUserPlugin);
      }),
    );
    renderApp('/engage/settings/plugins/callback?code=c2&state=s2');
    expect(await screen.findByText(S.plugins.empty)).toBeInTheDocument();
    expect(callbacks).toEqual([{ code: 'c2', state: 's2' }]);
  });
});
