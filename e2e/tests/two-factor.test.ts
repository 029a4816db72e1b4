// Two-factor sign-in in Chromium: a passkey added in Settings → Security with a virtual
// authenticator (CDP WebAuthn), an authenticator app set up by scanning (its key read from the
// screen), recovery codes shown once; then signing in with password + TOTP code on the login
// screen's second step, and password-less with the passkey. At 390 px the screen fits.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as OTPAuth from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';

const PASSWORD = 'a long enough passphrase 42';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious or critical axe-core violations on the page as it is. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol: the app's CSP refuses inline script tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
    };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
const person = { first: 'Tess', last: 'Totp', email: `tess.${Date.now()}@example.com` };

describe.skipIf(!hasChromium)('two-factor sign-in in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let session: OwnerSession;
  let secret = '';
  const problems: string[] = [];

  /** `path` in a fresh page of the signed-in session at each size and theme: fits, no serious axe violations. */
  async function checkScreen(path: string, ready: string): Promise<void> {
    const storageState = await context.storageState();
    for (const width of [390, 1440]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const fresh = await browser.newContext({
          storageState,
          viewport: { width, height: 844 },
          colorScheme,
        });
        const view = await fresh.newPage();
        await view.goto(`${server.url}${path}`);
        await view.getByText(ready).first().waitFor();
        await view.evaluate(() => document.fonts.ready.then(() => undefined));
        await view.waitForTimeout(300);
        const overflow = await view.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} ${width} ${colorScheme}`).toBeLessThanOrEqual(0);
        expect(await axeViolations(view), `${path} ${width} ${colorScheme}`).toEqual([]);
        await fresh.close();
      }
    }
  }

  beforeAll(async () => {
    // WebAuthn needs a domain for its relying party: localhost, not 127.0.0.1.
    server = await startTitan({ env: { NODE_ENV: 'development' }, host: 'localhost' });
    browser = await launchBrowser();
    session = await signUpOwner(server.url, person, PASSWORD, 'Two Factor Co');
    context = await signedInContext(browser, server.url, session);
    page = await watchedPage(context, problems, { consoleErrors: true });
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('adds a passkey in Settings → Security', async () => {
    await page.goto(`${server.url}/engage/settings/security`);
    await page.getByLabel('Passkey name').fill('Virtual key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added.').waitFor();
    await page.getByRole('list', { name: 'Passkeys' }).getByText('Virtual key').waitFor();
  });

  it('sets up an authenticator app and shows the recovery codes once', async () => {
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code to add Titan to an authenticator app' }).waitFor();
    secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    await page.getByLabel('6-digit code').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await page.getByText('Authenticator app is on.').waitFor();
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);
  });

  it('fits a phone screen and a desktop, light and dark, without serious axe violations', async () => {
    await checkScreen('/engage/settings/security', 'Signed-in devices');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('signs in with password and a TOTP code on the second step', async () => {
    // Off the app before its cookies go: a signed-in page that loses them redirects itself to
    // /login, which would abort this test's own navigation there.
    await page.goto('about:blank');
    await context.clearCookies();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    // A code of the next step: the one used to turn TOTP on cannot be used again.
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
      timestamp: Date.now() + 30_000,
    });
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/engage'));
    expect(new URL(page.url()).pathname).not.toBe('/login');
  });

  it('takes the passkey as the second step of a password sign-in', async () => {
    // Off the app before its cookies go: a signed-in page that loses them redirects itself to
    // /login, which would abort this test's own navigation there.
    await page.goto('about:blank');
    await context.clearCookies();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/engage'));
  });

  it('lists the changes in Settings → Audit log', async () => {
    const renamed = await callAs(server.url, session, 'PUT', '/api/business/', { name: 'Two Factor Ltd' });
    expect(renamed.status).toBe(200);
    await page.goto(`${server.url}/engage/settings/audit-log`);
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.getByText('business.updated').waitFor();
    await table.locator('li:visible', { hasText: 'Two Factor Co → Two Factor Ltd' }).first().waitFor();
    await page.getByLabel('Object').selectOption('agent');
    await page.getByText('Nothing recorded for these filters.').waitFor();
    await page.getByLabel('Object').selectOption('business');
    await table.getByText('business.updated').waitFor();
    await checkScreen('/engage/settings/audit-log', 'business.updated');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('signs in password-less with the passkey', async () => {
    // Off the app before its cookies go: a signed-in page that loses them redirects itself to
    // /login, which would abort this test's own navigation there.
    await page.goto('about:blank');
    await context.clearCookies();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/engage'));
    await page.goto(`${server.url}/engage/settings/security`);
    await page.getByText('This device', { exact: false }).first().waitFor();
    expect(problems).toEqual([]);
  });
});
