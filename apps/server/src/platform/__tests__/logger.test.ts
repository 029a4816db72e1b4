import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessLogController, loggerOptions } from '../logger';

/** A Fastify app logging as Titan does in production, into `lines`. */
function appLogging(lines: Record<string, unknown>[]) {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino(loggerOptions({ NODE_ENV: 'production', LOG_LEVEL: 'info' }), sink);
  const app = Fastify({ loggerInstance: logger, logController: new AccessLogController(logger) });
  app.get('/ok', async () => ({ ok: true }));
  app.post('/fails', async (request) => {
    request.log.warn({ body: request.body }, 'about to fail');
    throw new Error('boom');
  });
  return app;
}

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
