// The simulator as Titan sees it: the SDK's own OAuth helpers and Streamable HTTP client against it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMcpSim, type McpSim } from '../index';

let sim: McpSim;
const REDIRECT = 'http://localhost:3000/engage/settings/mcp-servers/callback';

beforeAll(async () => {
  sim = await startMcpSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function connect(url: string, token?: string) {
  const client = new Client({ name: 'test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

async function authorize() {
  const resource = await discoverOAuthProtectedResourceMetadata(sim.mcpUrl);
  const metadata = (await discoverAuthorizationServerMetadata(resource.authorization_servers![0]!))!;
  const client = await registerClient(sim.url, {
    metadata,
    clientMetadata: { redirect_uris: [REDIRECT], client_name: 'Titan', token_endpoint_auth_method: 'none' },
  });
  const { authorizationUrl, codeVerifier } = await startAuthorization(sim.url, {
    metadata,
    clientInformation: client,
    redirectUrl: REDIRECT,
    state: 'st-1',
    resource: new URL(resource.resource),
  });
  const back = await sim.approve(authorizationUrl.toString());
  expect(back.searchParams.get('state')).toBe('st-1');
  expect(back.searchParams.get('iss')).toBe(sim.url);
  const tokens = await exchangeAuthorization(sim.url, {
    metadata,
    clientInformation: client,
    authorizationCode: back.searchParams.get('code')!,
    codeVerifier,
    redirectUri: REDIRECT,
    resource: new URL(resource.resource),
  });
  return { metadata, client, tokens, resource };
}

describe('mcp-sim', () => {
  it('publishes resource and authorization server metadata with PKCE S256 and registration', async () => {
    const resource = await discoverOAuthProtectedResourceMetadata(sim.mcpUrl);
    expect(resource).toMatchObject({ resource: sim.mcpUrl, authorization_servers: [sim.url] });
    const metadata = await discoverAuthorizationServerMetadata(sim.url);
    expect(metadata).toMatchObject({
      issuer: sim.url,
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${sim.url}/register`,
    });
  });

  it('answers 401 with the resource metadata address, then serves tools to an OAuth token', async () => {
    const res = await fetch(sim.mcpUrl, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('/.well-known/oauth-protected-resource/mcp');
    const { tokens } = await authorize();
    const client = await connect(sim.mcpUrl, tokens.access_token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['lookup_order', 'list_bookings', 'find_customer_orders']);
    const out = await client.callTool({ name: 'lookup_order', arguments: { order_id: 'A-1001' } });
    expect(JSON.stringify(out.content)).toContain('Stoneware mug');
    expect(sim.state().calls).toEqual([{ tool: 'lookup_order', args: { order_id: 'A-1001' }, via: 'oauth' }]);
    await client.close();
  });

  it('rotates refresh tokens; a reused one revokes the grant', async () => {
    const { metadata, client, tokens, resource } = await authorize();
    const next = await refreshAuthorization(sim.url, {
      metadata,
      clientInformation: client,
      refreshToken: tokens.refresh_token!,
      resource: new URL(resource.resource),
    });
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    await expect(
      refreshAuthorization(sim.url, {
        metadata,
        clientInformation: client,
        refreshToken: tokens.refresh_token!,
      }),
    ).rejects.toThrow(/already used/);
    await expect(
      refreshAuthorization(sim.url, {
        metadata,
        clientInformation: client,
        refreshToken: next.refresh_token!,
      }),
    ).rejects.toThrow(/revoked/);
    expect(sim.state().refused.invalid_grant).toBe(2);
  });

  it('switches: expired access tokens are refused, revoked grants cannot refresh, PKCE can be taken away', async () => {
    const { metadata, client, tokens } = await authorize();
    sim.expireAccessTokens();
    await expect(connect(sim.mcpUrl, tokens.access_token)).rejects.toThrow();
    sim.revokeGrants();
    await expect(
      refreshAuthorization(sim.url, {
        metadata,
        clientInformation: client,
        refreshToken: tokens.refresh_token!,
      }),
    ).rejects.toThrow(/revoked/);
    sim.set({ pkce: false });
    expect(await discoverAuthorizationServerMetadata(sim.url)).not.toHaveProperty(
      'code_challenge_methods_supported',
    );
  });

  it('serves the bearer endpoint only with its token, and the open one to anyone', async () => {
    await expect(connect(sim.bearerMcpUrl, 'wrong')).rejects.toThrow();
    const client = await connect(sim.bearerMcpUrl, sim.bearerToken);
    const out = await client.callTool({ name: 'list_bookings', arguments: { date: '2026-12-01' } });
    expect(JSON.stringify(out.content)).toContain('B-202');
    await client.close();
    const open = await connect(sim.openMcpUrl);
    expect((await open.listTools()).tools).toHaveLength(3);
    await open.close();
  });
});
