// Plugins: the catalogue, the generic HTTP webhook plugin against a local plugin server started here
// (signed requests, the secret shown once), an OAuth2 plugin connected through tools/mcp-sim's
// authorization server with its callback, field errors, and another business refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpSim, type McpSim } from '@titan/mcp-sim';
import {
  MCP_ERRORS,
  PLUGIN_ERRORS,
  ZPluginManifest,
  type TBusiness,
  type TPlugin,
  type TUserPlugin,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { callExternalTool, prepareExternalTools } from '../../outside-tools';

type Received = { headers: Record<string, string | string[] | undefined>; body: string; verified: boolean };

let sim: McpSim;
let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let pluginServer: Server;
let pluginUrl: string;
/** The business's endpoint checks the signature with the secret it was given. */
let secret = '';
const received: Received[] = [];

beforeAll(async () => {
  sim = await startMcpSim();
  pluginServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-titan-timestamp'] ?? '');
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
      const given = String(req.headers['x-titan-signature'] ?? '');
      const verified =
        given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      received.push({ headers: req.headers, body, verified });
      if (!verified) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'bad signature' }));
      }
      const { action, data } = JSON.parse(body) as { action: string; data?: { order_id?: string } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ action, order: { id: data?.order_id, status: 'ready for pickup' } }));
    });
  });
  await new Promise<void>((r) => pluginServer.listen(0, '127.0.0.1', r));
  pluginUrl = `http://127.0.0.1:${(pluginServer.address() as AddressInfo).port}/titan-hook`;
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Plugins Inc');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Co') };
  const client = sim.preRegister([`${rt.config.PUBLIC_URL}/engage/settings/plugins/callback`]);
  rt.services.external.pluginManifests = [
    ZPluginManifest.parse({
      id: 'sim-shop',
      name: 'Sim shop',
      description: 'Orders of the simulated shop.',
      auth: {
        type: 'oauth2',
        authorization_endpoint: `${sim.url}/authorize`,
        token_endpoint: `${sim.url}/token`,
        issuer: sim.url,
        scopes: ['orders:read'],
        client_id: client.client_id,
        resource: sim.mcpUrl,
      },
      tools: [
        {
          name: 'get_order',
          description: 'One order by its number.',
          input_schema: {
            type: 'object',
            properties: { order_id: { type: 'string' } },
            required: ['order_id'],
          },
          http: { method: 'GET', url: `${sim.url}/api/orders/{order_id}` },
        },
      ],
    }),
    ZPluginManifest.parse({
      id: 'unconfigured',
      name: 'Unconfigured',
      description: 'No client id.',
      auth: {
        type: 'oauth2',
        authorization_endpoint: 'https://x.example/a',
        token_endpoint: 'https://x.example/t',
      },
      tools: [
        {
          name: 't',
          description: '',
          input_schema: { type: 'object' },
          http: { method: 'GET', url: 'https://x.example/' },
        },
      ],
    }),
  ];
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
  await new Promise((r) => pluginServer?.close(r));
});

async function call(method: string, url: string, payload?: object, s = owner, b = business) {
  return app.inject({ method: method as 'GET', url, headers: as(s, b), ...(payload ? { payload } : {}) });
}

describe('plugins', () => {
  it('lists the catalogue: the HTTP webhook plugin, and which plugins this server cannot offer', async () => {
    const res = await call('GET', '/api/plugins/');
    expect(res.statusCode).toBe(200);
    const catalogue: TPlugin[] = res.json().result;
    expect(catalogue.map((p) => p.id)).toEqual(['http-webhook', 'sim-shop', 'unconfigured']);
    expect(catalogue[0]).toMatchObject({ name: 'HTTP webhook', auth_type: 'api_key', available: true });
    expect(catalogue[2]).toMatchObject({
      available: false,
      unavailable_reason: expect.stringContaining('client id'),
    });
  });

  it('connects the HTTP webhook plugin, shows its signing secret once, and calls the endpoint signed', async () => {
    const res = await call('POST', '/api/user-plugins/', {
      plugin: 'http-webhook',
      name: 'Orders hook',
      settings: { url: pluginUrl },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created: TUserPlugin = res.json().result;
    expect(created).toMatchObject({
      status: 'connected',
      has_key: true,
      name: 'Orders hook',
      settings: { url: pluginUrl },
    });
    expect(created.signing_secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    secret = created.signing_secret!;
    const again = await call('GET', `/api/user-plugins/${created.id}/`);
    expect(again.json().result).not.toHaveProperty('signing_secret');
    expect(again.body).not.toContain(secret);
    expect((await call('GET', '/api/user-plugins/')).body).not.toContain(secret);

    const { tools, unavailable } = await prepareExternalTools(rt.services.external, business.id, [
      { source: 'plugin', server_id: created.id, name: 'call', approval: 'auto' },
    ]);
    expect(unavailable).toEqual([]);
    expect(tools[0]).toMatchObject({ modelName: `plugin${created.id}_call`, source: 'plugin' });
    const out = await callExternalTool(rt.services.external, business.id, tools[0]!, {
      action: 'lookup_order',
      data: { order_id: 'A-7' },
    });
    expect(out).toEqual({
      ok: true,
      output: { action: 'lookup_order', order: { id: 'A-7', status: 'ready for pickup' } },
    });
    expect(received.at(-1)).toMatchObject({
      verified: true,
      body: JSON.stringify({ action: 'lookup_order', data: { order_id: 'A-7' } }),
    });

    // A wrong secret: the endpoint refuses, and the run is told in words.
    secret = 'not-the-secret';
    const refused = await callExternalTool(rt.services.external, business.id, tools[0]!, { action: 'x' });
    expect(refused).toEqual({
      ok: false,
      error: 'The endpoint answered HTTP 401: {"error":"bad signature"}',
    });
  });

  it('says which fields are wrong', async () => {
    const missing = await call('POST', '/api/user-plugins/', { plugin: 'http-webhook', settings: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().result).toEqual({ 'settings.url': [PLUGIN_ERRORS.settingRequired] });
    const http = await call('POST', '/api/user-plugins/', {
      plugin: 'http-webhook',
      settings: { url: 'http://example.com/hook' },
    });
    expect(http.json().result).toEqual({ 'settings.url': [MCP_ERRORS.httpsRequired] });
    const unknown = await call('POST', '/api/user-plugins/', { plugin: 'nope' });
    expect(unknown.json().result).toEqual({ plugin: [PLUGIN_ERRORS.unknownPlugin] });
    const unavailable = await call('POST', '/api/user-plugins/', { plugin: 'unconfigured' });
    expect(unavailable.statusCode).toBe(400);
  });

  it('connects an OAuth2 plugin through the callback, then calls its HTTPS tool with the token', async () => {
    const res = await call('POST', '/api/user-plugins/', { plugin: 'sim-shop' });
    const created: TUserPlugin = res.json().result;
    expect(created).toMatchObject({ status: 'pending_oauth', has_key: false });
    const started = await call('POST', `/api/user-plugins/${created.id}/connect/`);
    expect(started.statusCode, started.body).toBe(200);
    const url = new URL(started.json().result.authorization_url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(
      `${rt.config.PUBLIC_URL}/engage/settings/plugins/callback`,
    );
    const back = await sim.approve(url.toString());
    const body = {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss'),
    };
    const byOther = await call('POST', '/api/user-plugins/callback/', body, other.owner, other.business);
    expect(byOther.statusCode).toBe(400);
    // A code the provider refuses is the caller's error in the provider's words (it was a 502).
    const again = await call('POST', `/api/user-plugins/${created.id}/connect/`);
    const backAgain = await sim.approve(again.json().result.authorization_url);
    const badCode = await call('POST', '/api/user-plugins/callback/', {
      code: 'not-a-code',
      state: backAgain.searchParams.get('state'),
      iss: backAgain.searchParams.get('iss'),
    });
    expect(badCode.statusCode, badCode.body).toBe(400);
    expect(badCode.json().result).toEqual({
      code: ['The provider refused the code: The authorization code is unknown, used or expired.'],
    });
    const done = await call('POST', '/api/user-plugins/callback/', body);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().result).toMatchObject({ status: 'connected', has_key: true });
    const reused = await call('POST', '/api/user-plugins/callback/', body);
    expect(reused.json().result).toEqual({ state: [MCP_ERRORS.stateInvalid] });

    const { tools } = await prepareExternalTools(rt.services.external, business.id, [
      { source: 'plugin', server_id: created.id, name: 'get_order', approval: 'auto' },
    ]);
    const out = await callExternalTool(rt.services.external, business.id, tools[0]!, { order_id: 'A-1003' });
    expect(out).toEqual({ ok: true, output: expect.objectContaining({ id: 'A-1003', status: 'delivered' }) });
    expect(sim.state().calls.at(-1)).toEqual({
      tool: 'GET /api/orders',
      args: { order_id: 'A-1003' },
      via: 'oauth',
    });
  });

  it('answers 404 to another business for every connection route', async () => {
    const res = await call('POST', '/api/user-plugins/', {
      plugin: 'http-webhook',
      settings: { url: pluginUrl },
    });
    const id = res.json().result.id as number;
    for (const [method, url, payload] of [
      ['GET', `/api/user-plugins/${id}/`],
      ['PUT', `/api/user-plugins/${id}/`, { name: 'Taken over' }],
      ['DELETE', `/api/user-plugins/${id}/`],
      ['POST', `/api/user-plugins/${id}/connect/`],
    ] as const) {
      expect(
        (await call(method, url, payload, other.owner, other.business)).statusCode,
        `${method} ${url}`,
      ).toBe(404);
    }
    expect(
      (await call('GET', '/api/user-plugins/', undefined, other.owner, other.business)).json().result,
    ).toEqual([]);
    const removed = await call('DELETE', `/api/user-plugins/${id}/`);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `/api/user-plugins/${id}/`)).statusCode).toBe(404);
  });
});

/** Another server, as whoever edits the settings might run: it records what Titan sends it. */
async function elsewhere() {
  const seen: { authorization?: string; signature?: string; timestamp?: string; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        authorization: req.headers.authorization,
        signature: req.headers['x-titan-signature'] as string | undefined,
        timestamp: req.headers['x-titan-timestamp'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, url: `http://${host}/hook`, seen, close: () => new Promise((r) => server.close(r)) };
}

const signatureWith = (key: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;

describe('plugins: credentials follow their URL', () => {
  beforeAll(() => {
    rt.services.external.pluginManifests!.push(
      ZPluginManifest.parse({
        id: 'key-shop',
        name: 'Key shop',
        description: 'A bearer API key.',
        auth: { type: 'api_key', placement: 'bearer' },
        settings: [{ name: 'api', label: 'API URL', type: 'url', required: true }],
        tools: [
          {
            name: 'orders',
            description: '',
            input_schema: { type: 'object' },
            http: { method: 'GET', url: '{settings.api}' },
          },
        ],
      }),
      ZPluginManifest.parse({
        id: 'hosted-shop',
        name: 'Hosted shop',
        description: 'OAuth, on a host the business names.',
        auth: {
          type: 'oauth2',
          authorization_endpoint: `${sim.url}/authorize`,
          token_endpoint: `${sim.url}/token`,
          issuer: sim.url,
          scopes: ['orders:read'],
          client_id: sim.preRegister([`${rt.config.PUBLIC_URL}/engage/settings/plugins/callback`]).client_id,
          resource: sim.mcpUrl,
        },
        settings: [{ name: 'host', label: 'Shop host', type: 'text', required: true }],
        tools: [
          {
            name: 'get_order',
            description: '',
            input_schema: { type: 'object' },
            http: { method: 'GET', url: 'http://{settings.host}/api/orders/{order_id}' },
          },
        ],
      }),
    );
  });

  const callTool = async (id: number, name: string, input: object) => {
    const { tools } = await prepareExternalTools(rt.services.external, business.id, [
      { source: 'plugin', server_id: id, name, approval: 'auto' },
    ]);
    return callExternalTool(rt.services.external, business.id, tools[0]!, input);
  };

  it('a new URL without the key again drops the stored API key, and it is never sent there', async () => {
    const key = 'sk-owner-key-0123456789';
    const created = await call('POST', '/api/user-plugins/', {
      plugin: 'key-shop',
      settings: { api: pluginUrl },
      api_key: key,
    });
    expect(created.json().result).toMatchObject({ has_key: true, status: 'connected' });
    const id = created.json().result.id as number;
    const other = await elsewhere();
    try {
      const moved = await call('PUT', `/api/user-plugins/${id}/`, { settings: { api: other.url } });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().result).toMatchObject({
        settings: { api: other.url },
        has_key: false,
        status: 'error',
        last_error: PLUGIN_ERRORS.apiKeyRequired,
      });
      await callTool(id, 'orders', {});
      expect(other.seen.some((r) => r.authorization?.includes(key))).toBe(false);
      const [row] = await rt.database.query<{ key_sealed: string | null }>(
        'select key_sealed from plugin_connections where id = $1',
        [id],
      );
      expect(row!.key_sealed).toBeNull();
      // Renamed, or the same settings again: nothing moves, the key given again stays.
      const given = await call('PUT', `/api/user-plugins/${id}/`, { api_key: 'sk-their-own-key-42' });
      expect(given.json().result).toMatchObject({ has_key: true, status: 'connected' });
      const same = await call('PUT', `/api/user-plugins/${id}/`, {
        name: 'Keys',
        settings: { api: other.url },
      });
      expect(same.json().result).toMatchObject({ has_key: true, status: 'connected', name: 'Keys' });
    } finally {
      await other.close();
    }
  });

  it('a new URL of the HTTP webhook plugin makes a new signing secret, shown once; the old one signs nothing there', async () => {
    const created = await call('POST', '/api/user-plugins/', {
      plugin: 'http-webhook',
      settings: { url: pluginUrl },
    });
    const first: TUserPlugin = created.json().result;
    const other = await elsewhere();
    try {
      const moved = await call('PUT', `/api/user-plugins/${first.id}/`, { settings: { url: other.url } });
      expect(moved.statusCode, moved.body).toBe(200);
      const next: TUserPlugin = moved.json().result;
      expect(next).toMatchObject({ has_key: true, status: 'connected' });
      expect(next.signing_secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(next.signing_secret).not.toBe(first.signing_secret);
      expect((await call('GET', `/api/user-plugins/${first.id}/`)).json().result).not.toHaveProperty(
        'signing_secret',
      );
      await callTool(first.id, 'call', { action: 'ping' });
      const got = other.seen.at(-1)!;
      expect(got.signature).toBe(signatureWith(next.signing_secret!, got.timestamp!, got.body));
      expect(got.signature).not.toBe(signatureWith(first.signing_secret!, got.timestamp!, got.body));
    } finally {
      await other.close();
    }
  });

  it('a new host of an OAuth plugin drops its tokens: it waits to be connected again', async () => {
    const simHost = new URL(sim.url).host;
    const created = await call('POST', '/api/user-plugins/', {
      plugin: 'hosted-shop',
      settings: { host: simHost },
    });
    const id = created.json().result.id as number;
    const started = await call('POST', `/api/user-plugins/${id}/connect/`);
    const back = await sim.approve(started.json().result.authorization_url);
    const done = await call('POST', '/api/user-plugins/callback/', {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss'),
    });
    expect(done.json().result).toMatchObject({ status: 'connected', has_key: true });
    const other = await elsewhere();
    try {
      const moved = await call('PUT', `/api/user-plugins/${id}/`, { settings: { host: other.host } });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().result).toMatchObject({ has_key: false, status: 'pending_oauth' });
      await callTool(id, 'get_order', { order_id: 'A-1' });
      expect(other.seen.filter((r) => r.authorization)).toEqual([]);
      const [row] = await rt.database.query<Record<string, unknown>>(
        'select access_token_sealed, refresh_token_sealed from plugin_connections where id = $1',
        [id],
      );
      expect(row).toEqual({ access_token_sealed: null, refresh_token_sealed: null });
    } finally {
      await other.close();
    }
  });

  it('guarded: refuses IPv4-mapped loopback and names resolving inside, on create and on update', async () => {
    const created = await call('POST', '/api/user-plugins/', {
      plugin: 'http-webhook',
      settings: { url: pluginUrl },
    });
    const id = created.json().result.id as number;
    const deps = rt.services.external;
    const saved = { guarded: deps.guarded, resolveHost: deps.resolveHost };
    Object.assign(deps, {
      guarded: true,
      resolveHost: async (host: string) =>
        host === 'hooks.inside.example' ? ['192.168.0.9'] : ['93.184.216.34'],
    });
    try {
      for (const url of [
        'https://[::ffff:127.0.0.1]/hook',
        'https://[::ffff:7f00:1]/hook',
        'https://0x7f.1/hook',
        'https://[fd00::1]/hook',
        'https://hooks.inside.example/hook',
      ]) {
        const res = await call('POST', '/api/user-plugins/', { plugin: 'http-webhook', settings: { url } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().result, url).toEqual({ 'settings.url': [MCP_ERRORS.privateAddress] });
        const put = await call('PUT', `/api/user-plugins/${id}/`, { settings: { url } });
        expect(put.json().result, url).toEqual({ 'settings.url': [MCP_ERRORS.privateAddress] });
      }
    } finally {
      Object.assign(deps, saved);
    }
  });
});
