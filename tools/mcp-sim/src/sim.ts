// The simulator: an MCP server over Streamable HTTP (stateless, `@modelcontextprotocol/sdk`) with a
// few business tools, behind its own OAuth 2.1 authorization server as the MCP authorization spec
// describes it — protected resource metadata (RFC 9728), authorization server metadata (RFC 8414),
// dynamic client registration (RFC 7591), client metadata documents, PKCE S256, the `resource`
// parameter (RFC 8707), refresh tokens rotated on every use with reuse revoking the grant (a strict
// server) — and a control API under `/sim/` whose switches expire access tokens, revoke grants, or
// take PKCE away. Also: the same tools behind a static bearer token (`/bearer/mcp`) or none
// (`/open/mcp`), and a small REST API (`/api/orders/:id`) for OAuth plugins.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { BOOKINGS, ORDERS } from './data';

export type McpSimOptions = {
  port?: number;
  host?: string;
  /** The static token of `/bearer/mcp`. Default `sim-mcp-token`. */
  bearerToken?: string;
  /** Seconds an access token lives. Default 3600. */
  accessTokenTtl?: number;
};

export type McpSimSwitches = {
  /** Advertise and accept PKCE S256 (false: metadata lists no method, as servers Titan must refuse). */
  pkce: boolean;
  /** Advertise `client_id_metadata_document_supported` and accept URL client ids. */
  clientMetadataDocuments: boolean;
  /** Accept dynamic client registration at `/register`. */
  dynamicRegistration: boolean;
  accessTokenTtl: number;
};

export type ToolCall = { tool: string; args: unknown; via: 'oauth' | 'bearer' | 'open' };

export type McpSimState = {
  clients: number;
  /** Token requests by grant type, and refused ones by error code. */
  grants: { authorization_code: number; refresh_token: number };
  refused: Record<string, number>;
  activeGrants: number;
  calls: ToolCall[];
  switches: McpSimSwitches;
};

export type McpSim = {
  /** `http://host:port`: also the authorization server's issuer. */
  url: string;
  /** The OAuth-protected MCP endpoint. */
  mcpUrl: string;
  /** The MCP endpoint behind the static bearer token. */
  bearerMcpUrl: string;
  /** The MCP endpoint without authorization. */
  openMcpUrl: string;
  bearerToken: string;
  state(): McpSimState;
  set(switches: Partial<McpSimSwitches>): void;
  /** Every access token expires now (refresh tokens keep working). */
  expireAccessTokens(): void;
  /** Every grant is revoked: its access and refresh tokens stop working (`invalid_grant`). */
  revokeGrants(): void;
  /**
   * What a person clicking "Allow" on the consent page does: follows `authorizationUrl` and answers
   * the redirect it ends on (`redirect_uri?code&state&iss`), or throws with the page's error.
   */
  approve(authorizationUrl: string): Promise<URL>;
  /** Pre-registers a client (as an administrator would) and answers its credentials. */
  preRegister(redirectUris: string[], confidential?: boolean): { client_id: string; client_secret?: string };
  reset(): void;
  close(): Promise<void>;
};

type Client = {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  client_name?: string;
  token_endpoint_auth_method: string;
};
type Grant = { id: string; clientId: string; resource: string; scope: string; revoked: boolean };
type PendingCode = {
  grant: Grant;
  redirectUri: string;
  challenge: string;
  expiresAt: number;
};
type AccessToken = { grant: Grant; expiresAt: number };
type RefreshToken = { grant: Grant; used: boolean };

export const DEFAULT_BEARER_TOKEN = 'sim-mcp-token';
const SCOPES = ['orders:read', 'bookings:read'];
const MAX_BODY = 1024 * 1024;

const token = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export async function startMcpSim(options: McpSimOptions = {}): Promise<McpSim> {
  const bearerToken = options.bearerToken ?? DEFAULT_BEARER_TOKEN;
  const defaults = (): McpSimSwitches => ({
    pkce: true,
    clientMetadataDocuments: false,
    dynamicRegistration: true,
    accessTokenTtl: options.accessTokenTtl ?? 3600,
  });
  let switches = defaults();
  const clients = new Map<string, Client>();
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, AccessToken>();
  const refreshTokens = new Map<string, RefreshToken>();
  const grants = new Map<string, Grant>();
  let counts = { authorization_code: 0, refresh_token: 0 };
  let refused: Record<string, number> = {};
  let calls: ToolCall[] = [];

  let base = '';
  const resourceOf = () => `${base}/mcp`;

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { error: 'server_error', error_description: String(err) });
      else res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  }

  function oauthError(res: ServerResponse, status: number, error: string, description: string) {
    refused[error] = (refused[error] ?? 0) + 1;
    json(res, status, { error, error_description: description });
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) throw new Error('body too large');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function metadata() {
    return {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      ...(switches.dynamicRegistration ? { registration_endpoint: `${base}/register` } : {}),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      scopes_supported: SCOPES,
      ...(switches.pkce ? { code_challenge_methods_supported: ['S256'] } : {}),
      ...(switches.clientMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    };
  }

  function resourceMetadata() {
    return {
      resource: resourceOf(),
      authorization_servers: [base],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Titan MCP simulator',
    };
  }

  /** A client by id: registered, or a client metadata document fetched from its URL. */
  async function clientOf(clientId: string): Promise<Client | null> {
    const known = clients.get(clientId);
    if (known) return known;
    if (!switches.clientMetadataDocuments || !/^https?:\/\//.test(clientId)) return null;
    try {
      const res = await fetch(clientId, { redirect: 'error', signal: AbortSignal.timeout(5000) });
      if (!res.ok) return null;
      const doc = (await res.json()) as Partial<Client>;
      if (doc.client_id !== clientId || !Array.isArray(doc.redirect_uris)) return null;
      return {
        client_id: clientId,
        redirect_uris: doc.redirect_uris,
        client_name: doc.client_name,
        token_endpoint_auth_method: 'none',
      };
    } catch {
      return null;
    }
  }

  function register(body: Record<string, unknown>): Client | string {
    const redirects = body.redirect_uris;
    if (!Array.isArray(redirects) || redirects.length === 0 || !redirects.every((r) => typeof r === 'string'))
      return 'redirect_uris is required';
    const method =
      typeof body.token_endpoint_auth_method === 'string' ? body.token_endpoint_auth_method : 'none';
    if (!['none', 'client_secret_post', 'client_secret_basic'].includes(method))
      return `token_endpoint_auth_method ${method} is not supported`;
    const client: Client = {
      client_id: token('client'),
      redirect_uris: redirects as string[],
      client_name: typeof body.client_name === 'string' ? body.client_name : undefined,
      token_endpoint_auth_method: method,
      ...(method === 'none' ? {} : { client_secret: token('secret') }),
    };
    clients.set(client.client_id, client);
    return client;
  }

  /** The client a token request authenticates as, or why not. */
  async function authenticate(req: IncomingMessage, form: URLSearchParams): Promise<Client | string> {
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [u, p] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(p ?? '');
    }
    if (!id) return 'client_id is required';
    const client = await clientOf(id);
    if (!client) return 'unknown client';
    if (client.client_secret && client.client_secret !== secret) return 'wrong client secret';
    return client;
  }

  function issueTokens(grant: Grant) {
    const access = token('at');
    const refresh = token('rt');
    accessTokens.set(access, { grant, expiresAt: Date.now() + switches.accessTokenTtl * 1000 });
    refreshTokens.set(refresh, { grant, used: false });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: switches.accessTokenTtl,
      refresh_token: refresh,
      scope: grant.scope,
    };
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    const client = await authenticate(req, form);
    if (typeof client === 'string') return oauthError(res, 401, 'invalid_client', client);
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      counts.authorization_code++;
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!pending || pending.expiresAt < Date.now() || pending.grant.clientId !== client.client_id)
        return oauthError(res, 400, 'invalid_grant', 'The authorization code is unknown, used or expired.');
      if (form.get('redirect_uri') !== pending.redirectUri)
        return oauthError(res, 400, 'invalid_grant', 'redirect_uri differs from the authorization request.');
      const verifier = form.get('code_verifier');
      if (!verifier || s256(verifier) !== pending.challenge)
        return oauthError(res, 400, 'invalid_grant', 'The PKCE code_verifier does not match.');
      if (form.get('resource') !== pending.grant.resource)
        return oauthError(res, 400, 'invalid_target', 'resource differs from the authorization request.');
      return json(res, 200, issueTokens(pending.grant));
    }
    if (grantType === 'refresh_token') {
      counts.refresh_token++;
      const presented = form.get('refresh_token') ?? '';
      const found = refreshTokens.get(presented);
      if (!found || found.grant.clientId !== client.client_id || found.grant.revoked)
        return oauthError(res, 400, 'invalid_grant', 'The refresh token is unknown or revoked.');
      if (found.used) {
        // A rotated token presented again: someone kept an old copy. Revoke the whole grant.
        found.grant.revoked = true;
        return oauthError(
          res,
          400,
          'invalid_grant',
          'The refresh token was already used; the grant is revoked.',
        );
      }
      const resource = form.get('resource');
      if (resource !== null && resource !== found.grant.resource)
        return oauthError(res, 400, 'invalid_target', 'resource differs from the grant.');
      found.used = true;
      return json(res, 200, issueTokens(found.grant));
    }
    return oauthError(res, 400, 'unsupported_grant_type', `grant_type ${String(grantType)} is not supported`);
  }

  type AuthorizeRequest = {
    client: Client;
    redirectUri: string;
    state: string | null;
    challenge: string;
    resource: string;
    scope: string;
  };

  async function checkAuthorize(q: URLSearchParams): Promise<AuthorizeRequest | string> {
    const client = await clientOf(q.get('client_id') ?? '');
    if (!client) return 'Unknown client_id.';
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!client.redirect_uris.includes(redirectUri)) return 'redirect_uri is not registered for this client.';
    if (q.get('response_type') !== 'code') return 'response_type must be code.';
    if (!switches.pkce) return 'PKCE is not supported by this server.';
    const challenge = q.get('code_challenge');
    if (!challenge || q.get('code_challenge_method') !== 'S256') return 'PKCE S256 is required.';
    const resource = q.get('resource');
    if (resource !== resourceOf()) return `resource must be ${resourceOf()}.`;
    return {
      client,
      redirectUri,
      state: q.get('state'),
      challenge,
      resource,
      scope: q.get('scope') ?? SCOPES.join(' '),
    };
  }

  function consentPage(q: URLSearchParams, a: AuthorizeRequest): string {
    const hidden = [...q.entries()]
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    return `<!doctype html><html><head><meta charset="utf-8"><title>Authorize — MCP simulator</title></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 3rem auto">
<h1>MCP simulator</h1>
<p><strong>${escapeHtml(a.client.client_name ?? a.client.client_id)}</strong> asks to use your orders and bookings
(${escapeHtml(a.scope)}).</p>
<form method="post" action="/authorize">${hidden}<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></form></body></html>`;
  }

  function redirectAfter(a: AuthorizeRequest, decision: string): string {
    const to = new URL(a.redirectUri);
    if (decision === 'allow') {
      const code = token('code');
      const grant: Grant = {
        id: token('g'),
        clientId: a.client.client_id,
        resource: a.resource,
        scope: a.scope,
        revoked: false,
      };
      grants.set(grant.id, grant);
      codes.set(code, {
        grant,
        redirectUri: a.redirectUri,
        challenge: a.challenge,
        expiresAt: Date.now() + 60_000,
      });
      to.searchParams.set('code', code);
    } else to.searchParams.set('error', 'access_denied');
    if (a.state !== null) to.searchParams.set('state', a.state);
    to.searchParams.set('iss', base);
    return to.toString();
  }

  /** Which access the MCP endpoint at `path` needs, and whether the request has it. */
  function authorized(
    req: IncomingMessage,
    via: ToolCall['via'],
  ): { ok: true } | { ok: false; header: string } {
    if (via === 'open') return { ok: true };
    const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (via === 'bearer') {
      return presented === bearerToken ? { ok: true } : { ok: false, header: 'Bearer error="invalid_token"' };
    }
    const found = accessTokens.get(presented);
    const meta = `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
    if (!presented) return { ok: false, header: `Bearer ${meta}` };
    if (
      !found ||
      found.grant.revoked ||
      found.expiresAt <= Date.now() ||
      found.grant.resource !== resourceOf()
    )
      return { ok: false, header: `Bearer error="invalid_token", ${meta}` };
    return { ok: true };
  }

  function mcpServer(via: ToolCall['via']): McpServer {
    const mcp = new McpServer({ name: 'titan-mcp-sim', version: '0.1.0' });
    const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
    mcp.registerTool(
      'lookup_order',
      {
        description: 'Look up an order by its number: status, items, total and delivery date.',
        inputSchema: { order_id: z.string().describe('The order number, e.g. A-1001') },
      },
      ({ order_id }) => {
        calls.push({ tool: 'lookup_order', args: { order_id }, via });
        const order = ORDERS.find((o) => o.id === order_id);
        if (!order) return { ...text({ error: `No order ${order_id}.` }), isError: true };
        return text(order);
      },
    );
    mcp.registerTool(
      'list_bookings',
      {
        description: 'List the bookings of a day (YYYY-MM-DD), or every upcoming booking.',
        inputSchema: { date: z.string().optional().describe('A day, YYYY-MM-DD') },
      },
      ({ date }) => {
        calls.push({ tool: 'list_bookings', args: { date }, via });
        return text(BOOKINGS.filter((b) => !date || b.starts_at.startsWith(date)));
      },
    );
    mcp.registerTool(
      'find_customer_orders',
      {
        description: 'List the orders of a customer by email address, newest first.',
        inputSchema: { email: z.string().describe("The customer's email address") },
      },
      ({ email }) => {
        calls.push({ tool: 'find_customer_orders', args: { email }, via });
        return text(ORDERS.filter((o) => o.email.toLowerCase() === email.toLowerCase()));
      },
    );
    return mcp;
  }

  async function mcpEndpoint(req: IncomingMessage, res: ServerResponse, via: ToolCall['via']) {
    const auth = authorized(req, via);
    if (!auth.ok) {
      return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': auth.header });
    }
    if (req.method !== 'POST')
      return json(res, 405, { error: 'Only POST: this server is stateless.' }, { allow: 'POST' });
    const body: unknown = JSON.parse((await readBody(req)) || 'null');
    const mcp = mcpServer(via);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname;
    if (
      req.method === 'GET' &&
      (path === '/.well-known/oauth-protected-resource/mcp' ||
        path === '/.well-known/oauth-protected-resource')
    )
      return json(res, 200, resourceMetadata());
    if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server')
      return json(res, 200, metadata());
    if (req.method === 'POST' && path === '/register') {
      if (!switches.dynamicRegistration) return json(res, 404, { error: 'not_found' });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return oauthError(res, 400, 'invalid_client_metadata', 'The body is not JSON.');
      }
      const client = register(body);
      if (typeof client === 'string') return oauthError(res, 400, 'invalid_redirect_uri', client);
      return json(res, 201, { ...client, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (path === '/authorize' && (req.method === 'GET' || req.method === 'POST')) {
      const q = req.method === 'GET' ? url.searchParams : new URLSearchParams(await readBody(req));
      const a = await checkAuthorize(q);
      if (typeof a === 'string') {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(`<!doctype html><p id="error">${escapeHtml(a)}</p>`);
      }
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(consentPage(q, a));
      }
      res.writeHead(302, { location: redirectAfter(a, q.get('decision') ?? 'deny') });
      return void res.end();
    }
    if (req.method === 'POST' && path === '/token') return tokenEndpoint(req, res);
    if (path === '/mcp') return mcpEndpoint(req, res, 'oauth');
    if (path === '/bearer/mcp') return mcpEndpoint(req, res, 'bearer');
    if (path === '/open/mcp') return mcpEndpoint(req, res, 'open');
    const order = /^\/api\/orders\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && order) {
      const auth = authorized(req, 'oauth');
      if (!auth.ok) return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': auth.header });
      const found = ORDERS.find((o) => o.id === decodeURIComponent(order[1]!));
      calls.push({ tool: 'GET /api/orders', args: { order_id: order[1] }, via: 'oauth' });
      return found ? json(res, 200, found) : json(res, 404, { error: `No order ${order[1]}.` });
    }
    // Control API.
    if (req.method === 'GET' && path === '/sim/state') return json(res, 200, sim.state());
    if (req.method === 'POST' && path === '/sim/switches') {
      sim.set(JSON.parse((await readBody(req)) || '{}') as Partial<McpSimSwitches>);
      return json(res, 200, sim.state());
    }
    if (req.method === 'POST' && path === '/sim/expire-access-tokens') {
      sim.expireAccessTokens();
      return json(res, 200, sim.state());
    }
    if (req.method === 'POST' && path === '/sim/revoke') {
      sim.revokeGrants();
      return json(res, 200, sim.state());
    }
    if (req.method === 'POST' && path === '/sim/reset') {
      sim.reset();
      return json(res, 200, sim.state());
    }
    json(res, 404, { error: 'not_found' });
  }

  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  const sim: McpSim = {
    url: base,
    mcpUrl: `${base}/mcp`,
    bearerMcpUrl: `${base}/bearer/mcp`,
    openMcpUrl: `${base}/open/mcp`,
    bearerToken,
    state: () => ({
      clients: clients.size,
      grants: { ...counts },
      refused: { ...refused },
      activeGrants: [...grants.values()].filter((g) => !g.revoked).length,
      calls: [...calls],
      switches: { ...switches },
    }),
    set(next) {
      switches = { ...switches, ...next };
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    revokeGrants() {
      for (const g of grants.values()) g.revoked = true;
    },
    async approve(authorizationUrl) {
      const page = await fetch(authorizationUrl);
      const html = await page.text();
      if (!page.ok)
        throw new Error(/<p id="error">(.*)<\/p>/.exec(html)?.[1] ?? `authorize answered ${page.status}`);
      const form = new URLSearchParams(new URL(authorizationUrl).searchParams);
      form.set('decision', 'allow');
      const res = await fetch(`${base}/authorize`, { method: 'POST', body: form, redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`approve answered ${res.status}`);
      return new URL(location);
    },
    preRegister(redirectUris, confidential = false) {
      const client = register({
        redirect_uris: redirectUris,
        client_name: 'Pre-registered client',
        token_endpoint_auth_method: confidential ? 'client_secret_post' : 'none',
      }) as Client;
      return {
        client_id: client.client_id,
        ...(client.client_secret ? { client_secret: client.client_secret } : {}),
      };
    },
    reset() {
      switches = defaults();
      clients.clear();
      codes.clear();
      accessTokens.clear();
      refreshTokens.clear();
      grants.clear();
      counts = { authorization_code: 0, refresh_token: 0 };
      refused = {};
      calls = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return sim;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
