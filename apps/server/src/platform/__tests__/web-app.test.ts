import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestStore,
  createTestRuntime,
  type TestRuntime,
  type TestStore,
} from '../../testing/test-runtime';
import { readIndexHtml } from '../web-app';

const THEME_SCRIPT = "document.documentElement.classList.toggle('dark', true)";
let store: TestStore;
let rt: TestRuntime;

beforeAll(async () => {
  store = await createTestStore();
  const dist = join(store.env.DATA_DIR!, 'web-dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/index-Abc123.js"></script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(dist, 'assets', 'index-Abc123.js'), 'console.log("app")');
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  rt = await createTestRuntime({
    store,
    env: {
      WEB_DIST_DIR: dist,
      AUTH_SITE_URL: 'https://auth.example.com/?a=1&b="2"',
      COOKIE_DOMAIN: '.example.com',
    },
  });
});
afterAll(async () => {
  await rt.destroy();
  await store.destroy();
});

const page = (url: string) => rt.app!.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });

describe('serving the built web app', () => {
  it('serves index.html at the root and for deep links (history fallback), never cached', async () => {
    for (const url of ['/', '/engage', '/messages/settings/embed/b/acme/', '/no/such/screen']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('tells the web app where logout lands, escaped', async () => {
    const res = await page('/');
    expect(res.body).toContain(
      '<meta name="titan-auth-site-url" content="https://auth.example.com/?a=1&amp;b=&quot;2&quot;" />',
    );
  });

  it('tells the web app the development outbox is on only when it is', async () => {
    // This runtime keeps mail in the outbox (test, no SMTP_URL, loopback bind).
    expect((await page('/signup')).body).toContain('<meta name="titan-dev-outbox" content="on" />');
    const dist = join(store.env.DATA_DIR!, 'web-dist');
    expect(readIndexHtml(dist, { authSiteUrl: '/login', devOutbox: false })).not.toContain(
      'titan-dev-outbox',
    );
  });

  it('tells the web app the cookie domain set at start (COOKIE_DOMAIN), not at build', async () => {
    const res = await page('/engage');
    expect(res.body).toContain('<meta name="titan-cookie-domain" content=".example.com" />');
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await page('/assets/index-Abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("app")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates files that are not hashed', async () => {
    const res = await page('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers /favicon.ico with the Titan mark, for pages that name no icon', async () => {
    const res = await page('/favicon.ico');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('serves the app to a GET of / or an app route that asks for no HTML, as curl does', async () => {
    for (const url of ['/', '/login', '/inbox/conversations/12']) {
      for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }]) {
        const res = await rt.app!.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('<div id="root">');
      }
    }
    const post = await rt.app!.inject({ method: 'POST', url: '/login', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('answers a JSON 404, not the app, for missing assets and API paths', async () => {
    for (const url of ['/assets/missing-123.js', '/api/nothing/', '/api', '/widget/assets/missing-1.js']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ status: 404, message: 'Not found.', result: null });
    }
  });

  it('allows the inline theme script by hash in the CSP, and nothing else inline', async () => {
    const res = await page('/');
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
