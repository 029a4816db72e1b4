// Identity, businesses and team in Chromium against the built server: sign-up with email
// verification, login, creating a business, inviting a second person who joins as agent, a silent
// access-token refresh, and logout.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, watchedPage } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';

type TMail = { to: string; subject: string; links: string[] };

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Olive', last: 'Owner', email: `olive.${Date.now()}@example.com` };
const agent = { first: 'Arlo', last: 'Agent', email: `arlo.${Date.now()}@example.com` };
const BUSINESS = 'Acme Browser Test';

/** An unsigned JWT whose `exp` is in the past: the app must refresh rather than send it. */
function expiredJwt(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: '1', typ: 'access', iat: now - 1000, exp: now - 100 })}.x`;
}

function jwtExpiry(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    exp: number;
  };
  return payload.exp * 1000;
}

describe.skipIf(!hasChromium)('identity, business and team in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let ownerContext: BrowserContext;
  let agentContext: BrowserContext;
  let ownerPage: Page;
  let agentPage: Page;
  const problems: string[] = [];

  /** The newest mail to `to` with a link containing `fragment`, as a URL on this server. */
  async function mailLink(to: string, fragment: string): Promise<string> {
    let link: string | undefined;
    await expect
      .poll(async () => {
        const res = await fetch(`${server.url}/api/dev/outbox/?to=${encodeURIComponent(to)}`);
        const body = (await res.json()) as { result: TMail[] };
        link = body.result.flatMap((mail) => mail.links).find((href) => href.includes(fragment));
        return link;
      })
      .toBeTruthy();
    // Mail links carry PUBLIC_URL; the browser must stay on the server's own origin for its cookies.
    const url = new URL(link ?? '');
    return `${server.url}${url.pathname}${url.search}`;
  }

  const newPage = (context: BrowserContext): Promise<Page> =>
    watchedPage(context, problems, { consoleErrors: true });

  async function cookieValue(context: BrowserContext, name: string): Promise<string | undefined> {
    return (await context.cookies(server.url)).find((c) => c.name === name)?.value;
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    browser = await launchBrowser();
    ownerContext = await browser.newContext();
    agentContext = await browser.newContext();
    ownerPage = await newPage(ownerContext);
    agentPage = await newPage(agentContext);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs up, verifies the email from the outbox and logs in', async () => {
    await ownerPage.goto(`${server.url}/signup`);
    await ownerPage.getByLabel('First name').fill(owner.first);
    await ownerPage.getByLabel('Last name').fill(owner.last);
    await ownerPage.getByLabel('Email').fill(owner.email);
    await ownerPage.getByLabel('Password').fill(PASSWORD);
    await ownerPage.getByRole('button', { name: 'Sign up' }).click();
    await ownerPage.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    await ownerPage.goto(await mailLink(owner.email, '/auth/account-confirm-email/'));
    await ownerPage.getByRole('heading', { name: 'Your email is verified' }).waitFor();
    await ownerPage.getByRole('link', { name: 'Log in' }).click();

    await ownerPage.waitForURL(/\/login\?/);
    expect(await ownerPage.getByLabel('Email').inputValue()).toBe(owner.email);
    await ownerPage.getByLabel('Password').fill(PASSWORD);
    await ownerPage.getByRole('button', { name: 'Log in' }).click();

    // Signed in without a business: the guard asks for one.
    await ownerPage.waitForURL(`${server.url}/register-business`);
    expect(await cookieValue(ownerContext, 'auth_token')).toMatch(/^ey/);
    expect(await cookieValue(ownerContext, 'refresh_token')).toBeTruthy();
  });

  it('creates a business and lands in its dashboard', async () => {
    await ownerPage.getByLabel('Business name').fill(BUSINESS);
    await ownerPage.getByRole('button', { name: 'Create business' }).click();

    await ownerPage.waitForURL(`${server.url}/engage`);
    await ownerPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await ownerPage.getByText(BUSINESS).waitFor();
    expect(await cookieValue(ownerContext, 'business_code')).toBeTruthy();
  });

  it('invites a second person by email', async () => {
    await ownerPage.getByRole('link', { name: 'Settings' }).click();
    await ownerPage.getByRole('link', { name: 'Team' }).click();
    await ownerPage.waitForURL(`${server.url}/engage/settings/team`);
    const invite = ownerPage.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill(agent.email);
    await invite.getByLabel('Role').selectOption('agent');
    await invite.getByRole('button', { name: 'Send invitation' }).click();

    await ownerPage.getByRole('table', { name: 'Open invitations' }).getByText(agent.email).waitFor();
  });

  it('lets the invited person sign up, verify, log in, accept and land in the business as agent', async () => {
    const invitation = await mailLink(agent.email, '/invite-user/join/');
    await agentPage.goto(invitation);
    await agentPage.getByRole('heading', { name: `Join ${BUSINESS} on Titan` }).waitFor();
    await agentPage.getByText(`This invitation is for ${agent.email}, to join as Agent.`).waitFor();
    await agentPage.getByRole('link', { name: 'Create an account' }).click();

    await agentPage.waitForURL(/\/signup\?/);
    expect(await agentPage.getByLabel('Email').inputValue()).toBe(agent.email);
    await agentPage.getByLabel('First name').fill(agent.first);
    await agentPage.getByLabel('Last name').fill(agent.last);
    await agentPage.getByLabel('Password').fill(PASSWORD);
    await agentPage.getByRole('button', { name: 'Sign up' }).click();
    await agentPage.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    await agentPage.goto(await mailLink(agent.email, '/auth/account-confirm-email/'));
    await agentPage.getByRole('heading', { name: 'Your email is verified' }).waitFor();
    await agentPage.getByRole('link', { name: 'Log in' }).click();
    await agentPage.waitForURL(/\/login\?/);
    await agentPage.getByLabel('Password').fill(PASSWORD);
    await agentPage.getByRole('button', { name: 'Log in' }).click();

    // Back on the invitation, now signed in with the invited address.
    await agentPage.waitForURL(invitation);
    await agentPage.getByRole('button', { name: 'Accept invitation' }).click();
    await agentPage.waitForURL(`${server.url}/engage`);
    await agentPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await cookieValue(agentContext, 'business_code')).toBe(
      await cookieValue(ownerContext, 'business_code'),
    );

    await agentPage.goto(`${server.url}/engage/settings/team`);
    const members = agentPage.getByRole('table', { name: 'Members' });
    await members.getByText(agent.email).waitFor();
    const rows = members.getByRole('row');
    expect(await rows.count()).toBe(3);
    expect(await rows.filter({ hasText: owner.email }).textContent()).toContain('Owner');
    expect(await rows.filter({ hasText: agent.email }).textContent()).toContain('Agent');
    // An agent cannot manage the team: no invite form, no role menus, no removal.
    expect(await agentPage.getByRole('form', { name: 'Invite someone' }).count()).toBe(0);
    expect(await members.getByRole('combobox').count()).toBe(0);

    // The owner sees the same two people, with the roles owner and agent.
    await ownerPage.reload();
    const ownerView = ownerPage.getByRole('table', { name: 'Members' });
    await ownerView.getByText(agent.email).waitFor();
    expect(await ownerView.getByLabel(`Role for ${agent.first} ${agent.last}`).inputValue()).toBe('agent');
    expect(await ownerView.getByLabel(`Role for ${owner.first} ${owner.last}`).inputValue()).toBe('owner');
  });

  it('refreshes an expired access token without the user noticing', async () => {
    const before = await cookieValue(agentContext, 'auth_token');
    await agentContext.addCookies([{ name: 'auth_token', value: expiredJwt(), url: server.url }]);
    const refreshes: string[] = [];
    const refreshBusinessCodes: Array<string | undefined> = [];
    const sentExpired: string[] = [];
    const expired = await cookieValue(agentContext, 'auth_token');
    agentPage.on('request', (request) => {
      if (request.url().endsWith('/api/auth/refresh/')) {
        refreshes.push(request.url());
        // The refresh is a public request: it carries X-Business-Code too (spec sections 6 and 7).
        refreshBusinessCodes.push(request.headers()['x-business-code']);
      }
      if (request.headers()['authorization'] === `Bearer ${expired}`) sentExpired.push(request.url());
    });

    await agentPage.goto(`${server.url}/engage/settings/team`);
    await agentPage.getByRole('table', { name: 'Members' }).getByText(owner.email).waitFor();

    const after = (await cookieValue(agentContext, 'auth_token')) ?? '';
    expect(after).not.toBe(expired);
    expect(after).not.toBe(before);
    expect(jwtExpiry(after)).toBeGreaterThan(Date.now() + 60_000);
    expect(refreshes).toHaveLength(1);
    expect(refreshBusinessCodes).toEqual([await cookieValue(agentContext, 'business_code')]);
    expect(refreshBusinessCodes[0]).toBeTruthy();
    expect(sentExpired).toEqual([]);
  });

  it('logs out: revokes the session, clears cookies and local storage, and lands on /login', async () => {
    const refreshToken = await cookieValue(agentContext, 'refresh_token');
    const logoutCalls: string[] = [];
    agentPage.on('request', (request) => {
      if (request.url().endsWith('/api/auth/logout/')) logoutCalls.push(request.method());
    });
    await agentPage.evaluate(() => window.localStorage.setItem('some-key', 'some value'));

    await agentPage.getByRole('button', { name: 'Account menu' }).click();
    await agentPage.getByRole('menuitem', { name: 'Log out' }).click();

    await agentPage.waitForURL(`${server.url}/login`);
    await agentPage.getByRole('heading', { name: 'Log in to Titan' }).waitFor();
    expect(logoutCalls).toEqual(['POST']);
    expect(await agentContext.cookies(server.url)).toEqual([]);
    expect(await agentPage.evaluate(() => window.localStorage.length)).toBe(0);

    // The server revoked the session: its refresh token no longer works.
    const res = await fetch(`${server.url}/api/auth/refresh/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh: refreshToken }),
    });
    expect(res.status).toBe(401);

    // And the protected area is closed again.
    await agentPage.goto(`${server.url}/engage/settings/team`);
    await agentPage.waitForURL(`${server.url}/login?next=%2Fengage%2Fsettings%2Fteam`);
  });

  it('logged nothing to the console and threw nothing on any page', () => {
    expect(problems).toEqual([]);
  });
});
