// The team inbox in Chromium (issue 29, first layer): a staff member assigns a widget visitor's
// conversation to themselves from the header, writes a private note, and the visitor's own reads
// never show it. The inbox with views, assignee, note and activity lines is looked at (screenshots,
// no horizontal overflow, no console errors) at 1440 and 390 px, light and dark.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { repoRoot } from '../support/paths';
import { startTitan, type TitanServer } from '../support/server';
import { signUpOwner, type OwnerSession } from '../support/staff';

const ARTIFACTS = join(repoRoot, 'e2e/artifacts/team-inbox');
const PASSWORD = 'a long enough passphrase 42';
const staff = { first: 'Tess', last: 'Team', email: `tess.${Date.now()}@example.com` };
const NOTE = 'Courier says Tuesday, keep an eye on it';

describe.skipIf(!hasChromium)('team inbox in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let session: OwnerSession;
  let visitorToken = '';
  let conversationId = 0;
  const problems: string[] = [];

  async function api<T>(path: string, init: { body?: unknown; auth?: string } = {}) {
    const res = await fetch(`${server.url}${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.auth ? { authorization: init.auth } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, result: ((await res.json()) as { result: T }).result };
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    session = await signUpOwner(server.url, staff, PASSWORD, 'Team Inbox Browser Test');
    browser = await launchBrowser();
    const visitor = await api<{ token: string }>('/api/public/customers/', {
      body: { business_code: session.businessCode, name: 'Vera Visitor' },
    });
    visitorToken = visitor.result.token;
    const started = await api<{ id: number }>('/api/public/conversations/', {
      body: { title: 'Where is my parcel?' },
      auth: `Visitor ${visitorToken}`,
    });
    conversationId = started.result.id;
    await api(`/api/public/conversations/${conversationId}/messages/`, {
      body: { message_type: 'text', content: 'Hello, my parcel is late' },
      auth: `Visitor ${visitorToken}`,
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('assigns from the header and writes a note the visitor never sees', { timeout: 120_000 }, async () => {
    const context = await signedInContext(browser, server.url, session, {
      viewport: { width: 1440, height: 900 },
    });
    const page = await watchedPage(context, problems, { consoleErrors: true });
    await page.goto(`${server.url}/messages?conversation=${conversationId}`);
    // The message in the open conversation (the list row previews it too).
    await page
      .getByRole('region', { name: 'Conversation', exact: true })
      .getByText('Hello, my parcel is late')
      .waitFor();

    await page.getByRole('button', { name: 'Conversation actions' }).click();
    await page.getByRole('menuitem', { name: 'Assign to me' }).click();
    await page.getByText('Assigned to Tess Team.').waitFor();
    await page.getByText(/assigned this conversation to Tess Team/).waitFor();
    const views = page.getByRole('group', { name: 'Inbox views' });
    await views.getByRole('button', { name: 'Mine 1 conversation' }).waitFor();

    await page.getByRole('tab', { name: 'Private note' }).click();
    await page.getByRole('textbox', { name: 'Private note' }).fill(NOTE);
    await page.getByRole('button', { name: 'Add note' }).click();
    const note = page.locator('[data-message-type="note"]').filter({ hasText: NOTE });
    await note.waitFor();

    const visitorView = await api<{ content: string; message_type: string }[]>(
      `/api/public/conversations/${conversationId}/messages/`,
      { auth: `Visitor ${visitorToken}` },
    );
    expect(visitorView.status).toBe(200);
    expect(visitorView.result.map((m) => m.content)).toEqual(['Hello, my parcel is late']);
    expect(JSON.stringify(visitorView.result)).not.toContain(NOTE);
    await context.close();
  });

  for (const size of [
    { name: 'desktop', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`looks right at ${size.width} px, ${theme}`, { timeout: 60_000 }, async () => {
        const context = await signedInContext(browser, server.url, session, {
          viewport: { width: size.width, height: size.height },
          colorScheme: theme,
        });
        const page = await watchedPage(context, problems, { consoleErrors: true });
        const shot = async (name: string, p: Page) => {
          const width = await p.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${name} overflows at ${size.width} px`).toBeLessThanOrEqual(size.width);
          await p.screenshot({ path: join(ARTIFACTS, `${name}-${size.name}-${theme}.png`) });
        };
        await page.goto(`${server.url}/messages`);
        await page.getByRole('group', { name: 'Inbox views' }).waitFor();
        await page.getByRole('list', { name: 'Conversations' }).waitFor();
        await page
          .getByRole('checkbox', { name: /Select conversation/ })
          .first()
          .check();
        await page.getByRole('toolbar', { name: 'Bulk actions' }).waitFor();
        await shot('list', page);
        await page.goto(`${server.url}/messages?conversation=${conversationId}`);
        await page.locator('[data-message-type="note"]').first().waitFor();
        await page.getByRole('tab', { name: 'Private note' }).click();
        await page.getByRole('textbox', { name: 'Private note' }).fill('Ask @');
        await page.getByRole('listbox', { name: 'Mention a member' }).waitFor();
        await shot('conversation', page);
        await context.close();
        expect(problems).toEqual([]);
      });
    }
  }
});
