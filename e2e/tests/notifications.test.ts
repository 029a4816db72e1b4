// Alerts in Chromium (issue 29): a customer writes in a conversation assigned to the staff member;
// the bell counts it live, the tab title and the navigation show it, the list opens the
// conversation and marks it read. The open bell is looked at (screenshots, no horizontal overflow,
// no console errors) at 1440 and 390 px, light and dark.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { repoRoot } from '../support/paths';
import { startTitan, type TitanServer } from '../support/server';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';

const ARTIFACTS = join(repoRoot, 'e2e/artifacts/notifications');
const PASSWORD = 'a long enough passphrase 42';
const staff = { first: 'Nora', last: 'Notified', email: `nora.${Date.now()}@example.com` };

describe.skipIf(!hasChromium)('notifications in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let session: OwnerSession;
  let me = 0;

  const post = async (path: string, body: unknown, auth: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify(body),
    });
    expect(res.status, path).toBeLessThan(300);
    return ((await res.json()) as { result: Record<string, unknown> }).result;
  };

  /** A widget visitor's conversation assigned to the staff member; `say` writes as the visitor. */
  async function assignedConversation(title: string) {
    const visitor = await fetch(`${server.url}/api/public/customers/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_code: session.businessCode, name: 'Vera Visitor' }),
    });
    const { token } = ((await visitor.json()) as { result: { token: string } }).result;
    const auth = `Visitor ${token}`;
    const conversation = await post('/api/public/conversations/', { title }, auth);
    const id = conversation.id as number;
    const put = await callAs(server.url, session, 'PUT', `/api/msg/conversations/${id}/`, {
      assignee_id: me,
    });
    expect(put.status).toBe(200);
    return {
      id,
      say: (content: string) =>
        post(`/api/public/conversations/${id}/messages/`, { message_type: 'text', content }, auth),
    };
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    session = await signUpOwner(server.url, staff, PASSWORD, 'Alerts Browser Test');
    me = ((await callAs(server.url, session, 'GET', '/api/users/profile/')).result as { pk: number }).pk;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const size of [
    { name: 'desktop', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(
        `counts a customer's message live and opens it (${size.name} ${theme})`,
        { timeout: 120_000 },
        async () => {
          const problems: string[] = [];
          const context = await signedInContext(browser, server.url, session, {
            viewport: { width: size.width, height: size.height },
            colorScheme: theme,
          });
          const page = await watchedPage(context, problems, { consoleErrors: true });
          await page.goto(`${server.url}/engage`);
          const quiet = page.getByRole('button', { name: /^Notifications/ });
          await quiet.waitFor();
          const before = Number((await quiet.getAttribute('aria-label'))?.match(/(\d+) unread/)?.[1] ?? 0);

          const title = `Parcel ${size.name} ${theme}`;
          const conversation = await assignedConversation(title);
          await conversation.say('Where is my parcel?');
          const bell = page.getByRole('button', { name: `Notifications, ${before + 1} unread` });
          await bell.waitFor({ timeout: 20_000 });
          await expect.poll(() => page.title()).toMatch(new RegExp(`^\\(${before + 1}\\) `));

          await bell.click();
          const item = page.getByRole('button', {
            name: `New message from Vera Visitor in “${title}” — Open the conversation`,
          });
          await item.waitFor();
          await page.getByText('Where is my parcel?').first().waitFor();
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth > window.innerWidth,
          );
          expect(overflow).toBe(false);
          await page.screenshot({ path: join(ARTIFACTS, `bell-${size.name}-${theme}.png`) });

          await item.click();
          await page.waitForURL(`**/messages?conversation=${conversation.id}`);
          await page
            .getByRole('button', { name: before === 0 ? 'Notifications' : `Notifications, ${before} unread` })
            .waitFor({ timeout: 20_000 });
          expect(problems).toEqual([]);
          await context.close();
        },
      );
    }
  }
});
