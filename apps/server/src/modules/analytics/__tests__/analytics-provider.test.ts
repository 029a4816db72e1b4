// The optional analytics provider's web config (spec: an app id, an API-key header, 60 s timeout,
// retries on 429/500/503/504 with backoff), against a local HTTP server answering 503 then 200.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { fetchWebConfig, type AnalyticsProviderConfig } from '../analytics.provider';

let server: Server;
let base: string;
let answers: number[] = [];
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const status = answers.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? JSON.stringify({ tracking: true, sample_rate: 0.5 }) : '{"error":"busy"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const config = (over: Partial<AnalyticsProviderConfig> = {}): AnalyticsProviderConfig => ({
  ANALYTICS_PROVIDER_URL: base,
  ANALYTICS_APP_ID: 'titan-web',
  ANALYTICS_API_KEY: 'ak_test_123',
  ANALYTICS_API_KEY_HEADER: 'X-API-Key',
  ...over,
});
const outbound = { guarded: false, publicUrl: 'http://titan.test' };

describe('the analytics web config', () => {
  it('is first-party when no provider is set up', async () => {
    expect(await fetchWebConfig({ config: config({ ANALYTICS_APP_ID: undefined }), outbound })).toEqual({
      provider: 'first_party',
    });
  });

  it('retries 503 with backoff, then answers the config; the key travels in its header', async () => {
    answers = [503, 429];
    seen.length = 0;
    const waits: number[] = [];
    const answer = await fetchWebConfig({
      config: config(),
      outbound,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(answer).toEqual({
      provider: 'external',
      app_id: 'titan-web',
      config: { tracking: true, sample_rate: 0.5 },
    });
    expect(seen).toHaveLength(3);
    expect(seen[0]!.url).toBe('/v1/apps/titan-web/web-config');
    expect(seen.every((s) => s.headers['x-api-key'] === 'ak_test_123')).toBe(true);
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after four attempts, and does not retry what retrying cannot fix', async () => {
    answers = [500, 504, 503, 503];
    seen.length = 0;
    const down = await fetchWebConfig({ config: config(), outbound, sleep: async () => {} });
    expect(down).toMatchObject({
      provider: 'external',
      config: null,
      error: 'The analytics provider answered HTTP 503.',
    });
    expect(seen).toHaveLength(4);
    answers = [401];
    seen.length = 0;
    const refused = await fetchWebConfig({ config: config(), outbound, sleep: async () => {} });
    expect(refused).toMatchObject({ config: null, error: 'The analytics provider answered HTTP 401.' });
    expect(seen).toHaveLength(1);
  });

  it('goes through the outbound guard', async () => {
    const guarded = await fetchWebConfig({
      config: config(),
      outbound: { guarded: true, publicUrl: 'https://titan.test' },
      sleep: async () => {},
    });
    expect(guarded).toMatchObject({ config: null, error: 'The analytics provider could not be reached.' });
  });
});

describe('GET /api/analytics/web-config/', () => {
  let rt: TestRuntime;
  afterAll(async () => rt?.destroy());
  it('answers the provider’s config after a 503, with no session', async () => {
    rt = await createTestRuntime({
      env: { ANALYTICS_PROVIDER_URL: base, ANALYTICS_APP_ID: 'titan-web', ANALYTICS_API_KEY: 'ak_test_123' },
    });
    answers = [503];
    const res = await rt.app!.inject({ method: 'GET', url: '/api/analytics/web-config/' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual({
      provider: 'external',
      app_id: 'titan-web',
      config: { tracking: true, sample_rate: 0.5 },
    });
  });
});
