// The built app in Chromium: it loads, routes, and nothing on the page is blocked or broken.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';

describe.skipIf(!hasChromium)('web app smoke test in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTitan();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a signed-out visit of the root to the sign-in screen, without console errors', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    await page.goto(server.url);
    await page.waitForURL(`${server.url}/login?next=%2Fengage`);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to Titan' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the not-found page for an unknown route', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/this/does/not/exist`);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    await page.close();
  });

  it('applies the stored theme before the app renders', async () => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await context.close();
  });
});
