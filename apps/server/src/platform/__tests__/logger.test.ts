import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawStatement } from '../../db/statement';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';
import { registerErrorHandling } from '../http';
import { AccessLogController, loggerOptions, redactUrl } from '../logger';

/** A Fastify app logging as Titan does in production (or development), into `lines`. */
function appLogging(lines: Record<string, unknown>[], { development = false, level = 'info' } = {}) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ ...loggerOptions({ NODE_ENV: 'production', LOG_LEVEL: 'info' }), level }, sink);
  const app = Fastify({
    loggerInstance: logger,
    logController: new AccessLogController(logger, { development }),
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/invite-user/join/:token', async () => ({ ok: true }));
  app.post('/fails', async (request) => {
    request.log.warn({ body: request.body }, 'about to fail');
    throw new Error('boom');
  });
  return app;
}

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime({ http: false });
});
afterAll(() => rt.destroy());

describe('access log', () => {
  it('writes one line per request, on completion, with who asked what and the outcome', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    const res = await app.inject({
      method: 'GET',
      url: '/ok?x=1',
      headers: { authorization: 'Bearer secret' },
    });
    expect(res.statusCode).toBe(200);
    await app.close();
    const requestLines = lines.filter((l) => l.reqId);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/ok?x=1', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(typeof requestLines[0]!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('in development, keeps requests out of the console at info and writes one short line at debug', async () => {
    const quiet: Record<string, unknown>[] = [];
    let app = appLogging(quiet, { development: true });
    expect((await app.inject({ method: 'GET', url: '/ok' })).statusCode).toBe(200);
    await app.close();
    expect(quiet).toEqual([]);

    const debug: Record<string, unknown>[] = [];
    app = appLogging(debug, { development: true, level: 'debug' });
    await app.inject({ method: 'GET', url: '/invite-user/join/secret-token?x=1' });
    await app.close();
    expect(debug).toHaveLength(1);
    expect(debug[0]).toMatchObject({ level: 20 });
    expect(debug[0]!.msg).toMatch(/^GET \/invite-user\/join\/\[redacted\]\?x=1 200 \d+\.\d ms$/);
    expect(
      Object.keys(debug[0]!).filter((k) => !['level', 'time', 'pid', 'hostname', 'msg'].includes(k)),
    ).toEqual([]);
  });

  it('keeps redacting what the request logs itself', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    const res = await app.inject({
      method: 'POST',
      url: '/fails',
      payload: { password: 'hunter2', name: 'n' },
    });
    expect(res.statusCode).toBe(500);
    await app.close();
    expect(lines.find((l) => l.msg === 'about to fail')).toMatchObject({
      body: { password: '[redacted]', name: 'n' },
    });
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({ res: { statusCode: 500 } });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });
});

describe('access log redaction', () => {
  it('leaves out tokens and signatures carried in URLs', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    await app.inject({ method: 'GET', url: '/ok?token=invite-secret&page=2' });
    await app.inject({ method: 'GET', url: '/invite-user/join/join-secret' });
    await app.close();
    const urls = lines
      .filter((l) => l.msg === 'request completed')
      .map((l) => (l.req as { url: string }).url);
    expect(urls).toEqual(['/ok?token=[redacted]&page=2', '/invite-user/join/[redacted]']);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it.each([
    ['/api/business/users/invitation/?token=abc', '/api/business/users/invitation/?token=[redacted]'],
    ['/files/chat_media/1/u/a.png?exp=123&sig=abc', '/files/chat_media/1/u/a.png?exp=123&sig=[redacted]'],
    [
      '/api/whatsapp/webhook/?hub.mode=subscribe&hub.verify_token=abc&hub.challenge=1',
      '/api/whatsapp/webhook/?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=1',
    ],
    ['/auth/account-confirm-email/abc', '/auth/account-confirm-email/[redacted]'],
    ['/forgot-password/ZW1haWw/abc?x=1', '/forgot-password/[redacted]?x=1'],
    ['/api/msg/conversations/?page=2', '/api/msg/conversations/?page=2'],
  ])('redacts %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('failed statements in the log', () => {
  const email = 'private.person@example.test';
  const hash = '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA';

  /** Runs `fail` in a route of an app logging as in production; answers the log's lines. */
  async function logOf(fail: () => Promise<unknown>) {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    registerErrorHandling(app as unknown as FastifyInstance);
    app.get('/query', async () => fail());
    const res = await app.inject({ method: 'GET', url: '/query' });
    await app.close();
    const text = JSON.stringify(lines);
    expect(text).not.toContain(email);
    expect(text).not.toContain('argon2');
    return { status: res.statusCode, err: lines.find((l) => l.err)!.err as Record<string, unknown> };
  }

  it('logs the SQLSTATE and the statement of a failed drizzle query, never its values', async () => {
    const { status, err } = await logOf(() =>
      rt.database.db.execute(sql`select id from users where email = ${email} and no_such = ${hash}`),
    );
    expect(status).toBe(500);
    expect(err).toMatchObject({
      sqlstate: '42703',
      statement: 'select … from users',
      message: 'database error 42703 in select … from users',
    });
    expect(err).not.toHaveProperty('params');
  });

  it('logs a failed prepared statement by its name', async () => {
    const statement = rawStatement(
      rt.database.db,
      { toSQL: () => ({ sql: 'select $1::int', params: [email] }) },
      'titan_test_cast',
    );
    const { status, err } = await logOf(() => statement({}));
    expect(status).toBe(400);
    expect(err).toMatchObject({ sqlstate: '22P02', statement: 'titan_test_cast' });
  });
});
