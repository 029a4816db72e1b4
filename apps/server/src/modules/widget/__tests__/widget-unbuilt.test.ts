// Without a widget build the server still starts; the widget's routes say so instead of failing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { createBusiness, signUp } from '../../../testing/identity';
import { WIDGET_PAGES } from '../widget.routes';

const dist = vi.hoisted(() => ({ dir: '' }));
vi.mock('../widget.paths', () => ({
  get widgetDistDir() {
    return dist.dir;
  },
}));

let rt: TestRuntime;
let business: TBusiness;

beforeAll(async () => {
  dist.dir = join('/nonexistent', `titan-widget-${process.pid}`);
  rt = await createTestRuntime();
  business = await createBusiness(rt.app!, await signUp(rt.app!, rt.mailer), 'Unbuilt Co');
});
afterAll(() => rt?.destroy());

describe('the widget routes without a build', () => {
  it('answer the loader with a 404 that nobody caches', async () => {
    const res = await rt.app!.inject({ method: 'GET', url: '/widget.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(WIDGET_PAGES.notBuilt);
  });

  it('answer the frame page of a known chat with 503 and of an unknown one with 404', async () => {
    const known = await rt.app!.inject({ method: 'GET', url: `/widget/frame/${business.unique_code}` });
    expect(known.statusCode).toBe(503);
    expect(known.body).toContain(WIDGET_PAGES.notBuilt);
    const unknown = await rt.app!.inject({ method: 'GET', url: '/widget/frame/nobody' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain(WIDGET_PAGES.notFound);
  });

  it('serve no assets', async () => {
    const res = await rt.app!.inject({ method: 'GET', url: '/widget/assets/frame-Abc123.js' });
    expect(res.statusCode).toBe(404);
  });
});
