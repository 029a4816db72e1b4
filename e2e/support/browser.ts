// Debian's Chromium driven by playwright-core; browser suites skip when it is not installed
// (and CI fails: see global-setup.ts).
import { existsSync } from 'node:fs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** The session cookies the web app keeps after signing in. */
type SignedIn = { access: string; refresh: string; businessCode: string };

/** A browser context already signed in to `serverUrl` as `session`'s user, in its business. */
export async function signedInContext(
  browser: Browser,
  serverUrl: string,
  session: SignedIn,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addCookies([
    { name: 'auth_token', value: session.access, url: serverUrl },
    { name: 'refresh_token', value: session.refresh, url: serverUrl },
    { name: 'business_code', value: session.businessCode, url: serverUrl },
  ]);
  return context;
}

/** Every `problems` list a watched page writes to (see `support/retry.ts`). */
export const watchedProblemLists = new Set<string[]>();

/** A new page whose uncaught errors (and, with `consoleErrors`, console errors) land in `problems`. */
export async function watchedPage(
  context: BrowserContext,
  problems: string[],
  { consoleErrors = false }: { consoleErrors?: boolean } = {},
): Promise<Page> {
  const page = await context.newPage();
  watchedProblemLists.add(problems);
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  if (consoleErrors)
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
  return page;
}
