// The OpenAPI document as a client generator reads it: valid (swagger-parser), clean under the
// repository's Redocly ruleset (apps/server/redocly.yaml), every protected operation with its
// security, every body with its schema, and real answers of every area — successes and errors —
// matching the status and schema it documents, so the document and the behaviour cannot drift.
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RouteOptions } from 'fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createBusiness, signUp, type Session } from '../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';
import { openapiPath } from '../openapi';

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; $ref?: string }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

/** POSTs that take no body: actions named by their path. A new one must be added here on purpose. */
const NO_BODY = new Set([
  // Erase one customer: the id says everything (the confirmation is the screen's).
  'post /api/business/customer-directory/{id}/erase/',
  // Double opt-in: the token in the path is the whole confirmation; POST so a link scanner's GET confirms nothing.
  'post /api/public/confirm/{token}/',
  'post /api/msg/widget-settings/rotate-secret/',
  'post /api/business/customer-directory/{id}/end-session/',
  'post /api/broadcasts/{id}/cancel/',
  'post /api/campaigns/{id}/schedule/',
  'post /api/campaigns/{id}/pause/',
  'post /api/campaigns/{id}/resume/',
  'post /api/campaigns/{id}/cancel/',
  'post /api/journeys/{id}/publish/',
  'post /api/journeys/{id}/pause/',
  'post /api/whatsapp/template/sync/',
  'post /api/email/domains/{id}/verify/',
  'post /api/config/llm/test/',
  'post /api/config/mcp-servers/{id}/connect/',
  'post /api/user-plugins/{id}/connect/',
  'post /api/chargebee/portal-session/',
  'post /api/chargebee/pricing-page-session/',
  'post /api/auth/2fa/totp/setup/',
  'post /api/auth/2fa/recovery-codes/',
  'post /api/webhooks/endpoints/deliveries/{id}/replay/',
  'post /api/webhooks/endpoints/{id}/replay-failed/',
  'post /api/webhooks/endpoints/{id}/test/',
]);

const serverDir = join(__dirname, '..', '..', '..');
const routes: RouteOptions[] = [];
let rt: TestRuntime;
let doc: Doc;
let resolved: Doc;
let owner: Session;
let headers: Record<string, string>;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);

beforeAll(async () => {
  rt = await createTestRuntime({ onRoute: (route) => void routes.push(route) });
  const res = await rt.app!.inject({ method: 'GET', url: '/api/docs/json' });
  doc = res.json();
  resolved = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as Doc;
  owner = await signUp(rt.app!, rt.mailer);
  const business = await createBusiness(rt.app!, owner);
  headers = as(owner, business);
});
afterAll(() => rt.destroy());

const methodsOf = (route: RouteOptions) =>
  (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toLowerCase());
/** The documented path of a route (`*` named as the route says). */
function pathOf(route: RouteOptions): string {
  const path = openapiPath(route.url);
  return path.replace('{*}', `{${route.config?.openapi?.wildcard ?? 'path'}}`);
}
const apiRoutes = () =>
  routes.flatMap((route) =>
    methodsOf(route)
      // Not HTTP operations: the docs themselves and the realtime WebSocket.
      .filter(
        (m) =>
          m !== 'head' && !route.url.startsWith('/api/docs') && !(route as { websocket?: boolean }).websocket,
      )
      .filter(
        () =>
          route.url.startsWith('/api/') ||
          route.url.startsWith('/files/') ||
          route.url.startsWith('/public/'),
      )
      .map((method) => ({ method, route, path: pathOf(route) })),
  );

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('passes the repository’s Redocly ruleset', async () => {
    const config = await loadConfig({ configPath: join(serverDir, 'redocly.yaml') });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: join(serverDir, 'openapi.json'),
      config,
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(errors, errors.slice(0, 30).join('\n')).toEqual([]);
  });

  it('documents every API route, with a summary, tags and no `*` path parameter', () => {
    const missing: string[] = [];
    for (const { method, path } of apiRoutes()) {
      const op = doc.paths[path]?.[method];
      if (!op) missing.push(`${method} ${path}: not documented`);
      else if (!op.summary || !op.tags?.length || !op.operationId)
        missing.push(`${method} ${path}: no summary/tags`);
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.includes('*'))).toEqual([]);
  });

  it('says which credentials every operation takes: none only for public routes', () => {
    const wrong: string[] = [];
    for (const { method, route, path } of apiRoutes()) {
      const op = doc.paths[path]![method]!;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const config = route.config ?? {};
      if (!config.public && !schemes.includes('bearer'))
        wrong.push(`${method} ${path}: protected, no bearer`);
      if (config.public && !config.openapi?.visitor && schemes.length)
        wrong.push(`${method} ${path}: public`);
      if (config.openapi?.visitor && !schemes.includes('visitor')) wrong.push(`${method} ${path}: visitor`);
      const businessHeader = op.parameters?.some((p) => p.$ref === '#/components/parameters/BusinessCode');
      if (Boolean(config.business) !== Boolean(businessHeader))
        wrong.push(`${method} ${path}: X-Business-Code`);
      if (!op.security) wrong.push(`${method} ${path}: no security at all`);
      if (!config.public) {
        for (const status of ['401', '403'])
          if (!op.responses[status]) wrong.push(`${method} ${path}: no ${status}`);
      }
    }
    expect(wrong).toEqual([]);
    // An API key is offered where a key may call (business routes within the key's permissions).
    expect(doc.paths['/api/agents/send-mail/']!.post!.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/users/profile/']!.get!.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/auth/login/']!.post!.security).toEqual([]);
  });

  it('has a request body on every route that takes one, multipart uploads with their file', () => {
    const wrong: string[] = [];
    for (const { method, route, path } of apiRoutes()) {
      if (!['post', 'put', 'patch'].includes(method)) continue;
      const op = doc.paths[path]![method]!;
      const takesBody = Boolean(route.schema?.body || route.config?.openapi?.body);
      if (takesBody && !op.requestBody) wrong.push(`${method} ${path}: body not documented`);
      if (!op.requestBody && !NO_BODY.has(`${method} ${path}`)) wrong.push(`${method} ${path}: no body`);
    }
    expect(wrong).toEqual([]);
    for (const path of ['/api/upload/', '/api/business/customer-directory/import/', '/api/whatsapp/media/']) {
      const multipart = doc.paths[path]!.post!.requestBody!.content['multipart/form-data']!.schema!;
      expect(multipart).toMatchObject({
        properties: { file: { type: 'string', format: 'binary' } },
        required: expect.arrayContaining(['file']),
      });
    }
  });

  it('documents the SMS status webhook as it answers: 204 with no body', () => {
    const op = doc.paths['/api/sms/webhook/status/']!.post!;
    expect(Object.keys(op.responses).sort()).toEqual(['204', '400', '403']);
    expect(op.responses['204']!.content).toBeUndefined();
    expect(op.requestBody!.content['application/x-www-form-urlencoded']).toBeDefined();
  });
});

/** Sends a request and checks its answer against the document: status documented, body valid. */
async function checked(
  path: string,
  options: InjectOptions & { method: string },
): Promise<LightMyRequestResponse> {
  const res = await rt.app!.inject(options);
  const op = resolved.paths[path]?.[options.method.toLowerCase()];
  expect(op, `${options.method} ${path} is documented`).toBeDefined();
  const response = op!.responses[String(res.statusCode)];
  expect(
    response,
    `${options.method} ${options.url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
  ).toBeDefined();
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (!response!.content) {
    expect(res.body).toBe('');
    return res;
  }
  const media = response!.content[type];
  expect(media, `${options.method} ${options.url} ${res.statusCode} as ${type}`).toBeDefined();
  if (type === 'application/json') {
    const validate = ajv.compile(media!.schema!);
    const valid = validate(res.json());
    expect(
      valid,
      `${options.method} ${options.url} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`,
    ).toBe(true);
  }
  return res;
}

describe('real answers match the document', () => {
  it('identity and team', async () => {
    await checked('/api/health/', { method: 'GET', url: '/api/health/' });
    await checked('/api/auth/login/', { method: 'POST', url: '/api/auth/login/', payload: { email: 'x' } });
    await checked('/api/auth/login/', {
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: owner.email, password: 'wrong password here' },
    });
    await checked('/api/users/profile/', { method: 'GET', url: '/api/users/profile/', headers });
    await checked('/api/users/profile/', { method: 'GET', url: '/api/users/profile/' });
    await checked('/api/business/', { method: 'GET', url: '/api/business/', headers });
    await checked('/api/business/', {
      method: 'GET',
      url: '/api/business/',
      headers: { authorization: headers.authorization! },
    });
    await checked('/api/business/', {
      method: 'GET',
      url: '/api/business/',
      headers: { ...headers, 'x-business-code': 'not-mine' },
    });
    await checked('/api/business/users/', { method: 'GET', url: '/api/business/users/', headers });
    await checked('/api/users/presence/', {
      method: 'PUT',
      url: '/api/users/presence/',
      headers,
      payload: { status: 'away' },
    });
    await checked('/api/users/presence/', {
      method: 'PUT',
      url: '/api/users/presence/',
      headers,
      payload: { status: 'busy' },
    });
    const key = await checked('/api/auth/api-keys/', {
      method: 'POST',
      url: '/api/auth/api-keys/',
      headers,
      payload: { name: 'client' },
    });
    const apiKey = { authorization: `Api-Key ${key.json().result.key}` };
    // A key where keys are not taken, and where they are.
    expect(
      (await checked('/api/users/profile/', { method: 'GET', url: '/api/users/profile/', headers: apiKey }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await checked('/api/msg/conversations/', {
          method: 'GET',
          url: '/api/msg/conversations/',
          headers: apiKey,
        })
      ).statusCode,
    ).toBe(200);
    await checked('/api/auth/api-keys/{id}/', {
      method: 'DELETE',
      url: '/api/auth/api-keys/999999/',
      headers,
    });
  });

  it('inbox, chat groups and the public chat', async () => {
    await checked('/api/msg/conversations/', { method: 'GET', url: '/api/msg/conversations/', headers });
    await checked('/api/msg/conversations/', {
      method: 'GET',
      url: '/api/msg/conversations/?status=nope',
      headers,
    });
    await checked('/api/msg/conversations/{id}/', {
      method: 'GET',
      url: '/api/msg/conversations/999999/',
      headers,
    });
    await checked('/api/msg/chat-groups/', { method: 'GET', url: '/api/msg/chat-groups/', headers });
    await checked('/api/msg/chat-groups/', {
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers,
      payload: {},
    });
    await checked('/api/msg/widget-settings/', { method: 'GET', url: '/api/msg/widget-settings/', headers });
    await checked('/api/public/conversations/', { method: 'GET', url: '/api/public/conversations/' });
    await checked('/api/public/business/{business_code}/', {
      method: 'GET',
      url: `/api/public/business/${headers['x-business-code']}/`,
    });
  });

  it('labels and canned responses', async () => {
    const label = await checked('/api/msg/labels/', {
      method: 'POST',
      url: '/api/msg/labels/',
      headers,
      payload: { name: 'Docs', color: '#3b82f6' },
    });
    await checked('/api/msg/labels/', {
      method: 'POST',
      url: '/api/msg/labels/',
      headers,
      payload: { name: 'docs', color: 'blue' },
    });
    await checked('/api/msg/labels/', { method: 'GET', url: '/api/msg/labels/', headers });
    await checked('/api/msg/labels/{id}/', {
      method: 'PUT',
      url: `/api/msg/labels/${label.json().result.id}/`,
      headers,
      payload: { color: '#22c55e' },
    });
    await checked('/api/msg/conversations/', {
      method: 'GET',
      url: `/api/msg/conversations/?label=${label.json().result.id}&label=999999`,
      headers,
    });
    await checked('/api/msg/labels/{id}/', { method: 'DELETE', url: '/api/msg/labels/999999/', headers });
    const canned = await checked('/api/msg/canned-responses/', {
      method: 'POST',
      url: '/api/msg/canned-responses/',
      headers,
      payload: { short_code: 'docs', content: 'Hi {{ customer.name }}' },
    });
    await checked('/api/msg/canned-responses/', {
      method: 'GET',
      url: '/api/msg/canned-responses/?search=do',
      headers,
    });
    await checked('/api/msg/canned-responses/{id}/', {
      method: 'PUT',
      url: `/api/msg/canned-responses/${canned.json().result.id}/`,
      headers,
      payload: { attachment_id: 'no-such-key' },
    });
    await checked('/api/msg/canned-responses/{id}/render/', {
      method: 'POST',
      url: `/api/msg/canned-responses/${canned.json().result.id}/render/`,
      headers,
      payload: { conversation_id: 999999 },
    });
  });

  it('the audience: directory, lists, imports, QR form', async () => {
    const base = '/api/business/customer-directory/';
    await checked(base, { method: 'GET', url: base, headers });
    await checked(`${base}{id}/`, { method: 'GET', url: `${base}999999/`, headers });
    await checked(`${base}download/`, { method: 'GET', url: `${base}download/`, headers });
    await checked('/api/business/customer-lists/', {
      method: 'GET',
      url: '/api/business/customer-lists/',
      headers,
    });
    await checked('/api/business/customer-lists/', {
      method: 'POST',
      url: '/api/business/customer-lists/',
      headers,
      payload: {},
    });
    await checked(`${base}import/`, { method: 'POST', url: `${base}import/`, headers, payload: {} });
    await checked('/api/business/qr-schema/', { method: 'GET', url: '/api/business/qr-schema/', headers });
  });

  it('files: a multipart upload', async () => {
    const boundary = 'titanopenapi';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="prefix"\r\n\r\npublic/business/logo\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await checked('/api/upload/', {
      method: 'POST',
      url: '/api/upload/',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(201);
    await checked('/api/upload/', { method: 'POST', url: '/api/upload/', headers, payload: {} });
  });

  it('engage: logs, templates, domains, metrics, sending', async () => {
    for (const log of ['/api/email/events/', '/api/sms/events/', '/api/whatsapp/events/'])
      await checked(log, { method: 'GET', url: log, headers });
    await checked('/api/email/events/', { method: 'GET', url: '/api/email/events/?agent_id=x', headers });
    await checked('/api/sms/events/download/', { method: 'GET', url: '/api/sms/events/download/', headers });
    await checked('/api/template/', { method: 'GET', url: '/api/template/', headers });
    await checked('/api/template/', { method: 'POST', url: '/api/template/', headers, payload: {} });
    await checked('/api/template/{id}/', { method: 'DELETE', url: '/api/template/999999/', headers });
    await checked('/api/email/domains/', { method: 'GET', url: '/api/email/domains/', headers });
    await checked('/api/metrics/engage/', { method: 'GET', url: '/api/metrics/engage/', headers });
    await checked('/api/metrics/email-metrics/', {
      method: 'GET',
      url: '/api/metrics/email-metrics/',
      headers,
    });
    await checked('/api/agents/send-sms/', {
      method: 'POST',
      url: '/api/agents/send-sms/',
      headers,
      payload: { to: '+12015550123', body: 'hello' },
    });
    await checked('/api/sms/webhook/status/', {
      method: 'POST',
      url: '/api/sms/webhook/status/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'AccountSid=AC1&MessageSid=SM1&MessageStatus=delivered',
    });
  });

  it('agents, models, outside tools and billing', async () => {
    await checked('/api/agents/', { method: 'GET', url: '/api/agents/', headers });
    await checked('/api/agents/{id}/', { method: 'GET', url: '/api/agents/999999/', headers });
    await checked('/api/agents/{id}/', { method: 'DELETE', url: '/api/agents/999999/', headers });
    await checked('/api/config/llm/', { method: 'GET', url: '/api/config/llm/', headers });
    await checked('/api/config/mcp-servers/', { method: 'GET', url: '/api/config/mcp-servers/', headers });
    await checked('/api/plugins/', { method: 'GET', url: '/api/plugins/', headers });
    await checked('/api/chargebee/subscription/', {
      method: 'GET',
      url: '/api/chargebee/subscription/',
      headers,
    });
  });
});

describe('list routes refuse query parameters they do not know', () => {
  it('with 400 naming the parameter, on every list route (from the route table)', async () => {
    const lists = apiRoutes().filter(({ method, path }) => {
      if (method !== 'get') return false;
      const op = resolved.paths[path]?.[method];
      const result = (op?.responses['200']?.content?.['application/json']?.schema as Schema | undefined)
        ?.properties as Record<string, Schema> | undefined;
      const shape = result?.result;
      const isList = shape?.type === 'array' || Boolean((shape?.properties as Schema | undefined)?.results);
      return isList || path.endsWith('/download/');
    });
    expect(lists.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { path } of lists) {
      const url = `${path.replace(/\{[^}]+\}/g, '1')}?nonsense_param=1`;
      const res = await rt.app!.inject({ method: 'GET', url, headers });
      const fields = res.statusCode === 400 ? Object.keys(res.json().result ?? {}) : [];
      if (res.statusCode !== 400 || !fields.includes('nonsense_param'))
        wrong.push(`${path} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });
});
