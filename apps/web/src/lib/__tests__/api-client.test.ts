import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok } from '../../test/api';
import { server } from '../../test/server';
import { publicClient } from '../api-client';
import { deleteCookie } from '../cookies';
import { BUSINESS_CODE_COOKIE, saveBusinessCode } from '../session/tokens';

/** Answers every method on /api/echo/ with the request's Content-Type and body. */
function echo() {
  const seen: Array<{ method: string; type: string | null; body: string }> = [];
  server.use(
    http.all('/api/echo/', async ({ request }) => {
      seen.push({
        method: request.method,
        type: request.headers.get('content-type'),
        body: await request.text(),
      });
      return ok(null);
    }),
  );
  return seen;
}

describe('the API clients', () => {
  it('send JSON with its content type', async () => {
    const seen = echo();
    await publicClient.post('/api/echo/', { a: 1 });
    await publicClient.put('/api/echo/', { b: 2 });
    expect(seen).toEqual([
      { method: 'POST', type: 'application/json', body: '{"a":1}' },
      { method: 'PUT', type: 'application/json', body: '{"b":2}' },
    ]);
  });

  it('claim no content type for a request without a body (the server refuses an empty JSON body)', async () => {
    const seen = echo();
    await publicClient.delete('/api/echo/');
    await publicClient.post('/api/echo/');
    await publicClient.get('/api/echo/');
    expect(seen).toEqual([
      { method: 'DELETE', type: null, body: '' },
      { method: 'POST', type: null, body: '' },
      { method: 'GET', type: null, body: '' },
    ]);
  });

  it('carry X-Business-Code when the business code cookie is set, the public client too', async () => {
    const seen: Array<string | null> = [];
    server.use(
      http.all('/api/echo/', ({ request }) => {
        seen.push(request.headers.get('x-business-code'));
        return ok(null);
      }),
    );
    await publicClient.get('/api/echo/');
    saveBusinessCode('ACME1234');
    try {
      await publicClient.get('/api/echo/');
      await publicClient.post('/api/echo/', { a: 1 });
    } finally {
      deleteCookie(BUSINESS_CODE_COOKIE);
    }
    expect(seen).toEqual([null, 'ACME1234', 'ACME1234']);
  });
});
