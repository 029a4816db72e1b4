// The widget's routes against a small fake build: loader caching and cross-origin headers, the
// frame page's frame-ancestors per allowed origins, the hosted page winning over the web app's
// history fallback, hashed assets, and 404 pages for unknown chats.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TBusiness, TChatGroup } from '@titan/contracts';
import {
  createTestRuntime,
  createTestStore,
  type TestRuntime,
  type TestStore,
} from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { etagMatches } from '../widget.assets';
import { WIDGET_PAGES } from '../widget.routes';
import { frameAncestors } from '../widget.service';

const dist = vi.hoisted(() => ({ dir: '' }));
vi.mock('../widget.paths', () => ({
  get widgetDistDir() {
    return dist.dir;
  },
}));

const LOADER = '(function(){/* titan loader */})();';
const FRAME_HTML =
  '<!doctype html><html><head><script type="module" src="/widget/assets/frame-Abc123.js"></script></head>' +
  '<body><div id="root"></div></body></html>';

let store: TestStore;
let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let group: TChatGroup;

beforeAll(async () => {
  store = await createTestStore();
  dist.dir = join(store.env.DATA_DIR!, 'widget-dist');
  mkdirSync(join(dist.dir, 'assets'), { recursive: true });
  writeFileSync(join(dist.dir, 'widget.js'), LOADER);
  writeFileSync(join(dist.dir, 'frame.html'), FRAME_HTML);
  writeFileSync(join(dist.dir, 'assets', 'frame-Abc123.js'), 'console.log("frame")');
  const web = join(store.env.DATA_DIR!, 'web-dist');
  mkdirSync(web, { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><html><head></head><body>web app</body></html>');
  rt = await createTestRuntime({ store, env: { WEB_DIST_DIR: web, PUBLIC_URL: 'http://titan.test' } });
  app = rt.app!;
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Embed Co');
  const res = await app.inject({
    method: 'POST',
    url: '/api/msg/chat-groups/',
    headers: as(owner, business),
    payload: { name: 'Support', slug: 'support' },
  });
  group = res.json().result as TChatGroup;
});
afterAll(async () => {
  await rt?.destroy();
  await store?.destroy();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*', ...headers } });

function ancestorsOf(csp: unknown): string {
  return /frame-ancestors ([^;]*)/.exec(String(csp))?.[1] ?? '';
}

async function setOrigins(target: { business?: string[]; group?: string[] }) {
  if (target.business) {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { allowed_origins: target.business },
    });
    expect(res.statusCode).toBe(200);
  }
  if (target.group) {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/msg/chat-groups/${group.id}/`,
      headers: as(owner, business),
      payload: { allowed_origins: target.group },
    });
    expect(res.statusCode).toBe(200);
  }
}

describe('the loader script /widget.js', () => {
  it('is JavaScript any site may load, cached briefly with an ETag', async () => {
    const res = await get('/widget.js', { accept: '*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(LOADER);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 304 without a body when the cached copy is current', async () => {
    const first = await get('/widget.js');
    const etag = String(first.headers.etag);
    const again = await get('/widget.js', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const stale = await get('/widget.js', { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
  });

  it('matches ETags as HTTP lists them', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"a"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('the chat frame page', () => {
  it('may be embedded anywhere while the business and group list no origins', async () => {
    await setOrigins({ business: [], group: [] });
    const res = await get(`/widget/frame/${business.unique_code}/support`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(FRAME_HTML);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(ancestorsOf(res.headers['content-security-policy'])).toBe('*');
    expect(res.headers['x-frame-options']).toBeUndefined();
    // Only the chat's own scripts run in it.
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self';");
  });

  it('may be embedded only by Titan and the allowed origins of the business and the group', async () => {
    await setOrigins({ business: ['https://www.shop.example'], group: ['http://localhost:8080'] });
    const groupFrame = await get(`/widget/frame/${business.unique_code}/support/`);
    expect(groupFrame.statusCode).toBe(200);
    expect(ancestorsOf(groupFrame.headers['content-security-policy'])).toBe(
      "'self' https://www.shop.example http://localhost:8080",
    );
    expect(groupFrame.headers['x-frame-options']).toBeUndefined();

    // Without a group, the business's own list applies.
    const businessFrame = await get(`/widget/frame/${business.unique_code}`);
    expect(businessFrame.statusCode).toBe(200);
    expect(ancestorsOf(businessFrame.headers['content-security-policy'])).toBe(
      "'self' https://www.shop.example",
    );

    await setOrigins({ business: [] });
    const groupOnly = await get(`/widget/frame/${business.unique_code}/support`);
    expect(ancestorsOf(groupOnly.headers['content-security-policy'])).toBe("'self' http://localhost:8080");
    await setOrigins({ group: [] });
  });

  it('answers a small 404 page for an unknown business or group', async () => {
    for (const url of [
      '/widget/frame/no-such-business/support',
      '/widget/frame/no-such-business',
      `/widget/frame/${business.unique_code}/no-such-group`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain(WIDGET_PAGES.notFound);
    }
  });

  it('keeps origins that are not plain origins out of the policy', () => {
    expect(frameAncestors(['https://ok.example', 'https://bad.example; script-src *', 'javascript:x'])).toBe(
      "'self' https://ok.example",
    );
    expect(frameAncestors([])).toBe('*');
  });
});

describe('the hosted group chat page', () => {
  it('serves the chat app itself, not the web app, and only Titan may frame it', async () => {
    await setOrigins({ business: ['https://www.shop.example'] });
    const res = await get(`/messages/chat/${business.unique_code}/g/support`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(FRAME_HTML);
    expect(ancestorsOf(res.headers['content-security-policy'])).toBe("'self'");
    await setOrigins({ business: [] });
    // The web app still answers its own deep links.
    const web = await get('/messages');
    expect(web.body).toContain('web app');
  });

  it('answers a 404 page for an unknown business or group', async () => {
    for (const url of [`/messages/chat/${business.unique_code}/g/nope`, '/messages/chat/nope/g/support']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(WIDGET_PAGES.notFound);
    }
  });
});

describe('the frame assets', () => {
  it('serves hashed files with a year-long immutable cache', async () => {
    const res = await get('/widget/assets/frame-Abc123.js', { accept: '*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("frame")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing one', async () => {
    const res = await get('/widget/assets/missing-1.js', { accept: '*/*' });
    expect(res.statusCode).toBe(404);
  });
});
