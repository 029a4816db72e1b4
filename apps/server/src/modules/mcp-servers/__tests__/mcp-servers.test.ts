// MCP servers against tools/mcp-sim: bearer and OAuth connections end to end (discovery, dynamic
// and pre-registered clients, PKCE, resource, state, issuer), tokens sealed and never answered,
// refresh ahead of a run, concurrent refreshes collapsing into one, a revoked grant marking the
// connection expired once, SSRF refusals, and another business refused.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMcpSim, type McpSim } from '@titan/mcp-sim';
import { MCP_ERRORS, type TBusiness, type TMcpServer } from '@titan/contracts';
import { createTestRuntime, testDbKind, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import {
  callExternalTool,
  listExternalTools,
  prepareExternalTools,
  type ExternalToolDeps,
} from '../../outside-tools';
import { outboundErrorWords, outboundUrlProblem, safeFetch } from '../../../platform/safe-fetch';

let sim: McpSim;
let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let deps: ExternalToolDeps;

beforeAll(async () => {
  sim = await startMcpSim();
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  deps = rt.services.external;
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Tools Inc');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Co') };
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
});
beforeEach(() => sim.reset());

async function call(method: string, url: string, payload?: object, s = owner, b = business) {
  return app.inject({ method: method as 'GET', url, headers: as(s, b), ...(payload ? { payload } : {}) });
}

let seq = 0;
async function register(body: Record<string, unknown>): Promise<TMcpServer> {
  const res = await call('POST', '/api/config/mcp-servers/', { name: `Shop ${++seq}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result;
}

/** Connect, approve at the simulator, post what came back as the callback page does. */
async function connectOAuth(server: TMcpServer, s = owner, b = business) {
  const started = await call('POST', `/api/config/mcp-servers/${server.id}/connect/`, undefined, s, b);
  expect(started.statusCode, started.body).toBe(200);
  const authorizationUrl = new URL(started.json().result.authorization_url);
  const back = await sim.approve(authorizationUrl.toString());
  return { authorizationUrl, back };
}

async function callback(back: URL, s = owner, b = business) {
  return call(
    'POST',
    '/api/config/mcp-servers/callback/',
    {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss'),
    },
    s,
    b,
  );
}

async function connected(): Promise<TMcpServer> {
  const server = await register({ url: sim.mcpUrl, auth: 'oauth' });
  const { back } = await connectOAuth(server);
  const done = await callback(back);
  expect(done.statusCode, done.body).toBe(200);
  return done.json().result;
}

const stored = async (id: number) =>
  (
    await rt.database.query<{
      access_token_sealed: string | null;
      refresh_token_sealed: string | null;
      status: string;
    }>('select access_token_sealed, refresh_token_sealed, status from mcp_servers where id = $1', [id])
  )[0]!;

const expireSoon = (id: number, seconds: number) =>
  rt.database.query(
    `update mcp_servers set token_expires_at = now() + make_interval(secs => $2) where id = $1`,
    [id, seconds],
  );

describe('MCP servers: bearer and none', () => {
  it('connects with a bearer token, lists and caches the tools, never answers the token', async () => {
    const server = await register({ url: sim.bearerMcpUrl, auth: 'bearer', token: sim.bearerToken });
    expect(server).toMatchObject({ status: 'connected', last_error: null, has_token: true, auth: 'bearer' });
    expect(server.tools.map((t) => t.name)).toEqual([
      'lookup_order',
      'list_bookings',
      'find_customer_orders',
    ]);
    expect(server.tools[0]).toMatchObject({
      model_name: `mcp${server.id}_lookup_order`,
      description: expect.stringContaining('Look up an order'),
      input_schema: expect.objectContaining({ type: 'object' }),
    });
    const list = await call('GET', '/api/config/mcp-servers/');
    expect(list.body).not.toContain(sim.bearerToken);
    const tools = await call('GET', `/api/config/mcp-servers/${server.id}/tools/`);
    expect(tools.json().result).toHaveLength(3);
    const [row] = await rt.database.query<{ bearer_token_sealed: string }>(
      'select bearer_token_sealed from mcp_servers where id = $1',
      [server.id],
    );
    expect(row!.bearer_token_sealed).not.toContain(sim.bearerToken);
  });

  it('says in words why a wrong token or a dead URL did not connect', async () => {
    const wrong = await register({ url: sim.bearerMcpUrl, auth: 'bearer', token: 'nope' });
    expect(wrong).toMatchObject({
      status: 'error',
      last_error: 'The server refused Titan’s credentials (HTTP 401).',
    });
    const dead = await register({ url: 'http://127.0.0.1:47123/mcp', auth: 'none' });
    expect(dead).toMatchObject({
      status: 'error',
      last_error: 'The server could not be reached (connection refused).',
    });
    const missing = await call('POST', '/api/config/mcp-servers/', {
      name: 'x',
      url: sim.bearerMcpUrl,
      auth: 'bearer',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().result).toEqual({ token: [MCP_ERRORS.tokenRequired] });
  });

  it('connects a server without authorization, and refuses a second server of the same name', async () => {
    const open = await register({ name: 'Open one', url: sim.openMcpUrl, auth: 'none' });
    expect(open.status).toBe('connected');
    const again = await call('POST', '/api/config/mcp-servers/', {
      name: 'open ONE',
      url: sim.openMcpUrl,
      auth: 'none',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().result).toEqual({ name: [MCP_ERRORS.nameTaken] });
  });
});

describe('MCP servers: OAuth', () => {
  it('discovers, registers dynamically, sends PKCE S256, resource and state, and connects on the callback', async () => {
    const server = await register({ url: sim.mcpUrl, auth: 'oauth' });
    expect(server).toMatchObject({ status: 'pending_oauth', has_token: false, tools: [] });
    const { authorizationUrl, back } = await connectOAuth(server);
    const q = authorizationUrl.searchParams;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${sim.url}/authorize`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('resource')).toBe(sim.mcpUrl);
    expect(q.get('redirect_uri')).toBe(`${rt.config.PUBLIC_URL}/engage/settings/mcp-servers/callback`);
    expect(q.get('state')!.length).toBeGreaterThan(30);
    expect(sim.state().clients).toBe(1);

    const done = await callback(back);
    expect(done.statusCode, done.body).toBe(200);
    const result: TMcpServer = done.json().result;
    expect(result).toMatchObject({
      status: 'connected',
      oauth_registration: 'dynamic',
      has_token: true,
      last_error: null,
    });
    expect(result.tools).toHaveLength(3);
    expect(sim.state().grants.authorization_code).toBe(1);
    // Sealed at rest, never answered.
    const row = await stored(server.id);
    expect(row.access_token_sealed).toMatch(/^v1\./);
    expect(row.refresh_token_sealed).toMatch(/^v1\./);
    expect(done.body).not.toMatch(/"(at|rt)_/);
    expect(JSON.stringify(row)).not.toMatch(/\b(at|rt)_[A-Za-z0-9_-]{20}/);
  });

  it('uses a pre-registered client first, with the same redirect URI', async () => {
    const redirect = `${rt.config.PUBLIC_URL}/engage/settings/mcp-servers/callback`;
    const client = sim.preRegister([redirect], true);
    const server = await register({
      url: sim.mcpUrl,
      auth: 'oauth',
      oauth_client: client.client_id,
      oauth_client_secret: client.client_secret,
    });
    const { authorizationUrl, back } = await connectOAuth(server);
    expect(authorizationUrl.searchParams.get('client_id')).toBe(client.client_id);
    expect(sim.state().clients).toBe(1); // no dynamic registration
    const done = await callback(back);
    expect(done.json().result).toMatchObject({ status: 'connected', oauth_registration: 'pre_registered' });
  });

  it('refuses a state used twice, another person’s state, another business’s state and a wrong issuer', async () => {
    const server = await register({ url: sim.mcpUrl, auth: 'oauth' });
    const { back } = await connectOAuth(server);
    // Someone else in the same business, and another business, cannot use it (and do not use it up).
    const colleague = await addMember(app, rt.mailer, owner, business, 'admin');
    const byColleague = await callback(back, colleague, business);
    expect(byColleague.statusCode).toBe(400);
    expect(byColleague.json().result).toEqual({ state: [MCP_ERRORS.stateInvalid] });
    const byOther = await callback(back, other.owner, other.business);
    expect(byOther.statusCode).toBe(400);
    // A wrong issuer is refused.
    const forged = new URL(back);
    forged.searchParams.set('iss', 'https://evil.example');
    const wrongIss = await callback(forged);
    expect(wrongIss.statusCode).toBe(400);
    expect(wrongIss.json().result).toEqual({ iss: [MCP_ERRORS.issuerMismatch] });
    // That used the state: connect again, and the fresh state works once, not twice.
    const second = await connectOAuth(server);
    expect((await callback(second.back)).statusCode).toBe(200);
    const reused = await callback(second.back);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().result).toEqual({ state: [MCP_ERRORS.stateInvalid] });
  });

  it('answers a code the authorization server refuses as the caller’s error (400), and Titan refused as a client as 502', async () => {
    const server = await register({ url: sim.mcpUrl, auth: 'oauth' });
    const { back } = await connectOAuth(server);
    const forged = new URL(back);
    forged.searchParams.set('code', 'not-a-code');
    const res = await callback(forged);
    const words =
      'The authorization server refused the code: The authorization code is unknown, used or expired.';
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().result).toEqual({ code: [words] });
    expect((await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result).toMatchObject({
      status: 'error',
      last_error: words,
    });
    // A client secret the server no longer takes is not the code's fault: the server refused Titan.
    const redirect = `${rt.config.PUBLIC_URL}/engage/settings/mcp-servers/callback`;
    const client = sim.preRegister([redirect], true);
    const misconfigured = await register({
      url: sim.mcpUrl,
      auth: 'oauth',
      oauth_client: client.client_id,
      oauth_client_secret: 'not-the-secret',
    });
    const second = await connectOAuth(misconfigured);
    const refused = await callback(second.back);
    expect(refused.statusCode, refused.body).toBe(502);
  });

  it('refuses an authorization server without PKCE S256, saying why', async () => {
    sim.set({ pkce: false });
    const server = await register({ url: sim.mcpUrl, auth: 'oauth' });
    const res = await call('POST', `/api/config/mcp-servers/${server.id}/connect/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(MCP_ERRORS.noPkce);
    expect((await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result).toMatchObject({
      status: 'error',
      last_error: MCP_ERRORS.noPkce,
    });
  });

  it('uses a client metadata document where the server accepts one', async () => {
    sim.set({ clientMetadataDocuments: true });
    const server = await register({ url: sim.mcpUrl, auth: 'oauth' });
    const res = await call('POST', `/api/config/mcp-servers/${server.id}/connect/`);
    const url = new URL(res.json().result.authorization_url);
    expect(url.searchParams.get('client_id')).toBe(
      `${rt.config.PUBLIC_URL}/api/config/mcp-servers/client-metadata.json`,
    );
    expect(sim.state().clients).toBe(0);
    const doc = await app.inject({ method: 'GET', url: '/api/config/mcp-servers/client-metadata.json' });
    expect(doc.json()).toMatchObject({
      client_id: `${rt.config.PUBLIC_URL}/api/config/mcp-servers/client-metadata.json`,
      redirect_uris: [`${rt.config.PUBLIC_URL}/engage/settings/mcp-servers/callback`],
    });
  });
});

describe('MCP servers as agent tools', () => {
  it('offers the tools and calls one; refreshes ahead of a run when the token would expire during it', async () => {
    const server = await connected();
    const listed = await listExternalTools(deps, business.id);
    expect(listed.filter((t) => t.serverId === server.id).map((t) => t.modelName)).toContain(
      `mcp${server.id}_lookup_order`,
    );
    await expireSoon(server.id, 120);
    const before = await stored(server.id);
    const { tools, unavailable } = await prepareExternalTools(deps, business.id, [
      { source: 'mcp', server_id: server.id, name: 'lookup_order', approval: 'review' },
    ]);
    expect(unavailable).toEqual([]);
    expect(tools).toEqual([expect.objectContaining({ name: 'lookup_order', approval: 'review' })]);
    expect(sim.state().grants.refresh_token).toBe(1);
    const after = await stored(server.id);
    expect(after.refresh_token_sealed).not.toBe(before.refresh_token_sealed); // the rotated one is stored
    const result = await callExternalTool(deps, business.id, tools[0]!, { order_id: 'A-1001' });
    expect(result).toEqual({
      ok: true,
      output: expect.objectContaining({ id: 'A-1001', status: 'shipped' }),
    });
    expect(sim.state().calls).toEqual([{ tool: 'lookup_order', args: { order_id: 'A-1001' }, via: 'oauth' }]);
  });

  it('collapses concurrent refreshes into one (the strict server would revoke the grant otherwise)', async () => {
    const server = await connected();
    await expireSoon(server.id, 30);
    const allowed = [
      { source: 'mcp' as const, server_id: server.id, name: 'list_bookings', approval: 'auto' as const },
    ];
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => prepareExternalTools(deps, business.id, allowed)),
    );
    for (const run of runs) expect(run.unavailable).toEqual([]);
    expect(sim.state().grants.refresh_token).toBe(1);
    expect(sim.state().refused).toEqual({});
    const out = await callExternalTool(deps, business.id, runs[0]!.tools[0]!, { date: '2026-12-01' });
    expect(out.ok).toBe(true);
  });

  it.skipIf(testDbKind !== 'postgres')(
    'collapses refreshes from two processes on one database into one',
    async () => {
      const server = await connected();
      await expireSoon(server.id, 30);
      const second = await createTestRuntime({ store: rt.store, http: false });
      try {
        const allowed = [
          { source: 'mcp' as const, server_id: server.id, name: 'lookup_order', approval: 'auto' as const },
        ];
        const runs = await Promise.all(
          [deps, second.services.external, deps, second.services.external].map((d) =>
            prepareExternalTools(d, business.id, allowed),
          ),
        );
        for (const run of runs) expect(run.unavailable).toEqual([]);
        expect(sim.state().grants.refresh_token).toBe(1);
        expect(sim.state().refused).toEqual({});
      } finally {
        await second.destroy();
      }
    },
    60_000,
  );

  it('a 401 from an expired access token refreshes once and the call goes through', async () => {
    const server = await connected();
    const { tools } = await prepareExternalTools(deps, business.id, [
      { source: 'mcp', server_id: server.id, name: 'lookup_order', approval: 'auto' },
    ]);
    sim.expireAccessTokens();
    const out = await callExternalTool(deps, business.id, tools[0]!, { order_id: 'A-1002' });
    expect(out).toEqual({ ok: true, output: expect.objectContaining({ id: 'A-1002' }) });
    expect(sim.state().grants.refresh_token).toBe(1);
  });

  it('a revoked grant marks the server expired with words, tells the run, and is not retried', async () => {
    const server = await connected();
    sim.revokeGrants();
    await expireSoon(server.id, 10);
    const allowed = [
      { source: 'mcp' as const, server_id: server.id, name: 'lookup_order', approval: 'auto' as const },
    ];
    const first = await prepareExternalTools(deps, business.id, allowed);
    expect(first.tools).toEqual([]);
    expect(first.unavailable).toEqual([
      { tool: allowed[0], reason: `${server.name}: ${MCP_ERRORS.expired}` },
    ]);
    const shown = (await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result;
    expect(shown).toMatchObject({ status: 'expired', last_error: MCP_ERRORS.expired });
    const second = await prepareExternalTools(deps, business.id, allowed);
    expect(second.unavailable).toHaveLength(1);
    expect(sim.state().grants.refresh_token).toBe(1); // no retry loop
    expect((await listExternalTools(deps, business.id)).some((t) => t.serverId === server.id)).toBe(false);
    // Nobody watches a scheduled run: the owner is told by mail, once, with where to reconnect.
    const told = (await rt.mailer.listOutbox(owner.email)).filter(
      (m) => m.subject === `Reconnect ${server.name} in Titan`,
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain(`“${server.name}”: its authorization was revoked or has expired`);
    expect(told[0]!.links).toContain('http://localhost:3000/engage/settings/mcp-servers');
  });

  it('asks a server whose last attempt failed again when a run starts', async () => {
    const server = await register({ url: sim.bearerMcpUrl, auth: 'bearer', token: sim.bearerToken });
    await rt.database.query(`update mcp_servers set status = 'error', last_error = 'down' where id = $1`, [
      server.id,
    ]);
    const { tools, unavailable } = await prepareExternalTools(deps, business.id, [
      { source: 'mcp', server_id: server.id, name: 'list_bookings', approval: 'auto' },
    ]);
    expect(unavailable).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual(['list_bookings']);
    const shown = (await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result;
    expect(shown).toMatchObject({ status: 'connected', last_error: null });
  });

  it('offers nothing of another business’s server', async () => {
    const server = await register({ url: sim.openMcpUrl, auth: 'none' });
    const theirs = await prepareExternalTools(deps, other.business.id, [
      { source: 'mcp', server_id: server.id, name: 'lookup_order', approval: 'auto' },
    ]);
    expect(theirs.tools).toEqual([]);
    expect(theirs.unavailable[0]!.reason).toBe('No connected MCP server or plugin with this id.');
    const out = await callExternalTool(
      deps,
      other.business.id,
      {
        source: 'mcp',
        serverId: server.id,
        name: 'lookup_order',
        modelName: 'x',
        description: '',
        inputSchema: {},
        approval: 'auto',
      },
      {},
    );
    expect(out).toEqual({ ok: false, error: 'No connected MCP server or plugin with this id.' });
  });
});

describe('MCP servers: credentials follow their URL', () => {
  /** Another server, as whoever edits the settings might run: it records what Titan sends it. */
  async function elsewhere() {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    return { url, seen, close: () => new Promise((r) => server.close(r)) };
  }

  it('a new URL without the token again drops the stored token, and it is never sent there', async () => {
    const server = await register({ url: sim.bearerMcpUrl, auth: 'bearer', token: sim.bearerToken });
    expect(server.has_token).toBe(true);
    const other = await elsewhere();
    try {
      const moved = await call('PUT', `/api/config/mcp-servers/${server.id}/`, { url: other.url });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().result).toMatchObject({
        url: other.url,
        has_token: false,
        status: 'error',
        last_error: MCP_ERRORS.tokenRequired,
        tools: [],
      });
      // Nothing asks the new URL without its token: neither a refresh of the tools nor a run.
      await call('GET', `/api/config/mcp-servers/${server.id}/tools/?refresh=true`);
      await prepareExternalTools(deps, business.id, [
        { source: 'mcp', server_id: server.id, name: 'lookup_order', approval: 'auto' },
      ]);
      expect(other.seen).toEqual([]);
      expect((await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result.last_error).toBe(
        MCP_ERRORS.tokenRequired,
      );
      const [row] = await rt.database.query<{ bearer_token_sealed: string | null }>(
        'select bearer_token_sealed from mcp_servers where id = $1',
        [server.id],
      );
      expect(row!.bearer_token_sealed).toBeNull();
      // Back at the first URL the old token is gone too: it is given again.
      const back = await call('PUT', `/api/config/mcp-servers/${server.id}/`, { url: sim.bearerMcpUrl });
      expect(back.json().result).toMatchObject({ has_token: false, status: 'error' });
      const given = await call('PUT', `/api/config/mcp-servers/${server.id}/`, { token: sim.bearerToken });
      expect(given.json().result).toMatchObject({ has_token: true, status: 'connected' });
      // The same URL again, or a new name: the token stays.
      const same = await call('PUT', `/api/config/mcp-servers/${server.id}/`, {
        url: sim.bearerMcpUrl,
        name: `Renamed ${server.id}`,
      });
      expect(same.json().result).toMatchObject({ has_token: true, status: 'connected' });
    } finally {
      await other.close();
    }
  });

  it('a new URL of an OAuth server drops its tokens, grant and client registration', async () => {
    const server = await connected();
    expect(server).toMatchObject({ has_token: true, oauth_registration: 'dynamic' });
    const other = await elsewhere();
    try {
      const moved = await call('PUT', `/api/config/mcp-servers/${server.id}/`, { url: other.url });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().result).toMatchObject({
        has_token: false,
        oauth_registration: null,
        status: 'pending_oauth',
        token_expires_at: null,
      });
      expect(other.seen).toEqual([]);
      const [row] = await rt.database.query<Record<string, unknown>>(
        'select access_token_sealed, refresh_token_sealed, client_secret_sealed, oauth from mcp_servers where id = $1',
        [server.id],
      );
      expect(row).toEqual({
        access_token_sealed: null,
        refresh_token_sealed: null,
        client_secret_sealed: null,
        oauth: null,
      });
    } finally {
      await other.close();
    }
  });
});

describe('MCP servers: SSRF and tenancy', () => {
  it('refuses http:// beyond localhost and Titan itself', async () => {
    for (const [url, message] of [
      ['http://example.com/mcp', MCP_ERRORS.httpsRequired],
      [`${rt.config.PUBLIC_URL}/api/mcp`, MCP_ERRORS.titanItself],
      ['ftp://example.com/mcp', MCP_ERRORS.urlInvalid],
    ] as const) {
      const res = await call('POST', '/api/config/mcp-servers/', { name: `ssrf ${url}`, url, auth: 'none' });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().result, url).toEqual({ url: [message] });
    }
  });

  it('guarded: https only, never private, loopback or link-local addresses after resolution', async () => {
    const prod = {
      guarded: true,
      publicUrl: 'https://titan.example.com',
      resolveHost: async (host: string) =>
        ({
          'internal.example.com': ['10.1.2.3'],
          'mcp.example.com': ['93.184.216.34'],
          'sneaky.example.com': ['93.184.216.34', '127.0.0.1'],
        })[host] ?? [],
    };
    expect(await outboundUrlProblem(prod, 'http://localhost:4040/mcp')).toBe(MCP_ERRORS.httpsRequired);
    expect(await outboundUrlProblem(prod, 'https://127.0.0.1/mcp')).toBe(MCP_ERRORS.privateAddress);
    expect(await outboundUrlProblem(prod, 'https://[::1]/mcp')).toBe(MCP_ERRORS.privateAddress);
    expect(await outboundUrlProblem(prod, 'https://169.254.169.254/latest')).toBe(MCP_ERRORS.privateAddress);
    expect(await outboundUrlProblem(prod, 'https://192.168.1.10/mcp')).toBe(MCP_ERRORS.privateAddress);
    expect(await outboundUrlProblem(prod, 'https://internal.example.com/mcp')).toBe(
      MCP_ERRORS.privateAddress,
    );
    expect(await outboundUrlProblem(prod, 'https://sneaky.example.com/mcp')).toBe(MCP_ERRORS.privateAddress);
    expect(await outboundUrlProblem(prod, 'https://nowhere.example.com/mcp')).toBe(MCP_ERRORS.privateAddress);
    expect(await outboundUrlProblem(prod, 'https://titan.example.com/api/')).toBe(MCP_ERRORS.titanItself);
    expect(await outboundUrlProblem(prod, 'https://mcp.example.com/mcp')).toBeNull();
  });

  it('guarded: a name that passed the check but resolves to a loopback address when connecting is refused', async () => {
    // The check saw a public address; by the time the socket opens the name says 127.0.0.1: rebinding.
    let lookups = 0;
    const prod = {
      guarded: true,
      publicUrl: 'https://titan.example.com',
      resolveHost: async () => (++lookups === 1 ? ['93.184.216.34'] : ['127.0.0.1']),
    };
    const err = await safeFetch(prod)('https://rebind.example.com:4443/mcp').then(
      () => null,
      (e: unknown) => e,
    );
    expect(outboundErrorWords(err)).toBe(MCP_ERRORS.privateAddress);
    expect(lookups).toBe(2);
  });

  it('guarded: refuses IPv4-mapped loopback and names resolving inside, on create and on update', async () => {
    const server = await register({ url: sim.openMcpUrl, auth: 'none' });
    const saved = { guarded: deps.guarded, resolveHost: deps.resolveHost };
    Object.assign(deps, {
      guarded: true,
      resolveHost: async (host: string) => (host === 'mcp.inside.example' ? ['10.0.0.7'] : ['93.184.216.34']),
    });
    try {
      for (const url of [
        'https://[::ffff:127.0.0.1]/mcp',
        'https://[::ffff:7f00:1]:8443/mcp',
        'https://[::127.0.0.1]/mcp',
        'https://2130706433/mcp',
        'https://[::ffff:169.254.169.254]/latest',
        'https://mcp.inside.example/mcp',
      ]) {
        const created = await call('POST', '/api/config/mcp-servers/', {
          name: `ssrf ${url}`,
          url,
          auth: 'none',
        });
        expect(created.statusCode, url).toBe(400);
        expect(created.json().result, url).toEqual({ url: [MCP_ERRORS.privateAddress] });
        const updated = await call('PUT', `/api/config/mcp-servers/${server.id}/`, { url });
        expect(updated.statusCode, url).toBe(400);
        expect(updated.json().result, url).toEqual({ url: [MCP_ERRORS.privateAddress] });
      }
    } finally {
      Object.assign(deps, saved);
    }
    expect((await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result.url).toBe(
      sim.openMcpUrl,
    );
  });
  it('answers 404 to another business for every server route, and leaves the server as it was', async () => {
    const server = await register({ url: sim.openMcpUrl, auth: 'none' });
    for (const [method, url, body] of [
      ['GET', `/api/config/mcp-servers/${server.id}/`],
      ['PUT', `/api/config/mcp-servers/${server.id}/`, { name: 'Taken over' }],
      ['DELETE', `/api/config/mcp-servers/${server.id}/`],
      ['POST', `/api/config/mcp-servers/${server.id}/connect/`],
      ['GET', `/api/config/mcp-servers/${server.id}/tools/`],
    ] as const) {
      const res = await call(method, url, body, other.owner, other.business);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirs = await call('GET', '/api/config/mcp-servers/', undefined, other.owner, other.business);
    expect(theirs.json().result).toEqual([]);
    expect((await call('GET', `/api/config/mcp-servers/${server.id}/`)).json().result.name).toBe(server.name);
  });

  it('lets agents read servers but not change them', async () => {
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await call('GET', '/api/config/mcp-servers/', undefined, agent)).statusCode).toBe(200);
    const res = await call(
      'POST',
      '/api/config/mcp-servers/',
      { name: 'x', url: sim.openMcpUrl, auth: 'none' },
      agent,
    );
    expect(res.statusCode).toBe(403);
  });
});
