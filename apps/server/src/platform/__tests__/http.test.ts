import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { NUL_CHARACTER_MESSAGE } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';
import { clearOfWindowEdge } from '../../testing/identity';

let rt: TestRuntime;
let app: FastifyInstance;

beforeAll(async () => {
  rt = await createTestRuntime({ env: { CORS_ORIGINS: 'https://allowed.example' } });
  app = rt.app!;
  // Routes that exist only in this test, to reach the error paths.
  app.get('/api/test/boom/', { config: { public: true } }, async () => {
    throw new Error('secret internal detail: password=hunter2');
  });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/test/echo/',
    {
      config: { public: true },
      schema: {
        body: z.object({ email: z.email(), age: z.number().int().min(18), name: z.string().min(1) }),
        querystring: z.object({ page: z.coerce.number().int().min(1).optional() }),
      },
    },
    async (request) => ({ status: 200, message: 'OK', result: request.body }),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/test/things/:name/',
    {
      config: { public: true },
      schema: { params: z.object({ name: z.string() }), querystring: z.object({ q: z.string().optional() }) },
    },
    async (request) => ({ status: 200, message: 'OK', result: { ...request.params, ...request.query } }),
  );
  // A value the checks in front let through and the database refuses (SQLSTATE 22P02).
  app.get('/api/test/bad-cast/', { config: { public: true } }, async () => {
    await rt.database.db.execute(sql`select ${'someone@example.test'}::int`);
    return null;
  });
  await app.ready();
});
afterAll(() => rt.destroy());

describe('response envelope and errors', () => {
  it('answers health with the envelope and the database kind', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 200,
      message: 'OK',
      result: { status: 'ok', database: { ok: true, kind: process.env.TEST_DB ?? 'pglite' } },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('accepts paths with or without the trailing slash', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers 400 naming a bad query parameter', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo/?page=abc',
      payload: { email: 'a@b.co', age: 30, name: 'Ada' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: 'Invalid input.',
      result: { page: ['A valid number is required.'] },
    });
  });

  it('maps each invalid body field to its own message', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      payload: { email: 'nope', age: 12 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({
      email: ['Enter a valid email address.'],
      age: ['Ensure this value is at least 18.'],
      name: ['This field is required.'],
    });
  });

  it('answers 400 non_field_errors for malformed JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ non_field_errors: ['Malformed JSON body.'] });
  });

  it('treats an empty JSON body as no body, and refuses prototype poisoning', async () => {
    const empty = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result).toEqual({ non_field_errors: ['This field is required.'] });
    const poisoned = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","age":30,"name":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().result).toEqual({ non_field_errors: ['Malformed JSON body.'] });
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 413, message: 'Request body is too large.', result: null });
  });

  it('answers 404 in the envelope for unknown API routes', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/does-not-exist/',
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Not found.', result: null });
  });

  it('answers 500 with a request id and no internals', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/test/boom/',
      headers: { 'x-request-id': 'req-abc-123' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      status: 500,
      message: 'Something went wrong on our side. Please try again.',
      result: null,
      request_id: 'req-abc-123',
    });
    expect(res.body).not.toContain('hunter2');
    expect(res.headers['x-request-id']).toBe('req-abc-123');
  });

  it('replaces an unsafe incoming request id with its own', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/health/',
      headers: { 'x-request-id': 'bad id\nx' },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('input PostgreSQL cannot take', () => {
  const nul = { status: 400, message: 'Invalid input.' };

  it('refuses a NUL in a JSON body with 400 naming each field that holds one', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "age": 30, "name": "Ad\\u0000a", "tags": [{"x": "\\u0000"}]}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ...nul,
      result: { name: [NUL_CHARACTER_MESSAGE], 'tags.0.x': [NUL_CHARACTER_MESSAGE] },
    });
  });

  it('takes an escaped backslash followed by u0000 as the text it is', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "age": 30, "name": "C:\\\\u0000"}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.name).toBe('C:\\u0000');
  });

  it('refuses a NUL in a path or query parameter, encoded or raw, naming the parameter', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/things/a%00b/?q=c%00d' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ...nul,
      result: { name: [NUL_CHARACTER_MESSAGE], q: [NUL_CHARACTER_MESSAGE] },
    });
    const ok = await app.inject({ method: 'GET', url: '/api/test/things/a%2500b/?q=%2500' });
    expect(ok.json().result).toEqual({ name: 'a%00b', q: '%00' });
  });

  it('answers a path that is not validly percent-encoded with 400 in the envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/things/%E0%A4%A/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ...nul,
      result: { non_field_errors: ['The address is not validly percent-encoded.'] },
    });
  });

  it('answers a value the database refuses as invalid (SQLSTATE class 22) with 400, not 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/bad-cast/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ...nul,
      result: { non_field_errors: ['A value in this request is not valid.'] },
    });
  });
});

describe('security', () => {
  it('sends the API strict security headers: nothing may run in or frame an answer', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    // OWASP's REST table exactly: the document-only headers are not sent.
    expect(res.headers['referrer-policy']).toBeUndefined();
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it("sends the browser page's security headers outside the API", async () => {
    const res = await app.inject({ method: 'GET', url: '/no-such-page', headers: { accept: 'text/html' } });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('sends the same security headers on not-found and refused answers', async () => {
    const ok = await app.inject({ method: 'GET', url: '/api/health/' });
    const names = ['cache-control', 'content-security-policy', 'x-content-type-options', 'x-frame-options'];
    const pick = (headers: Record<string, unknown>) => Object.fromEntries(names.map((n) => [n, headers[n]]));
    expect(Object.values(pick(ok.headers)).every((v) => typeof v === 'string')).toBe(true);
    expect(ok.headers['x-powered-by']).toBeUndefined();
    for (const url of ['/api/no-such-route/', '/api/msg/conversations/']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(pick(res.headers), url).toEqual(pick(ok.headers));
    }
  });

  it('keeps CORS closed to origins that are not listed', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/health/',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('opens CORS to the listed origins only', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/health/',
      headers: { origin: 'https://allowed.example', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('https://allowed.example');
  });

  it('rate-limits a route that opts in, with Retry-After', async () => {
    const report = () =>
      app.inject({
        method: 'POST',
        url: '/api/analytics/events/',
        remoteAddress: '203.0.113.9',
        payload: { event: 'ERROR', properties: { message: 'loop' } },
      });
    await clearOfWindowEdge(60);
    for (let i = 0; i < 30; i++) expect((await report()).statusCode).toBe(201);
    const limited = await report();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ status: 429, result: null });
    expect(limited.json().message).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    // Another client is not affected.
    const other = await app.inject({
      method: 'POST',
      url: '/api/analytics/events/',
      remoteAddress: '203.0.113.10',
      payload: { event: 'ERROR', properties: { message: 'fine' } },
    });
    expect(other.statusCode).toBe(201);
  });
});

describe('OpenAPI', () => {
  it('documents routes as OpenAPI 3.1 from the zod schemas', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const health = doc.paths['/api/health/'].get;
    expect(health.responses['200'].content['application/json'].schema.properties.result).toBeDefined();
    expect(doc.paths['/api/analytics/events/'].post.requestBody).toBeDefined();
  });

  it('serves the browsable docs page', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
