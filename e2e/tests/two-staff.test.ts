// Two staff members in one inbox, in Chromium (issue 29, "Done when"): a visitor starts a chat on
// the group's hosted page; Ada (online, in the group) is auto-assigned it; she mentions Bo in a
// private note; Bo, whose tab is in the background, gets the bell and a browser notification, opens
// the conversation from it, answers with a canned response, labels and resolves it. The visitor
// sees Bo typing and then the answer, and never the note. Everything is set up through the typed
// client (@titan/client) and done in the browser as the members would.
import { unwrap } from '@titan/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';
import { signUpOwner, titanAs, type OwnerSession } from '../support/staff';

const PASSWORD = 'a long enough passphrase 42';
const ada = { first: 'Ada', last: 'Assigned', email: `ada.${Date.now()}@example.com` };
const bo = { first: 'Bo', last: 'Backup', email: `bo.${Date.now()}@example.com` };
const NOTE = 'Bo, this one is about a refund: can you take it?';
const CANNED = 'Your refund is on its way, {{ customer.name }}.';
const VISITOR = 'Vera Visitor';
const ANSWER = `Your refund is on its way, ${VISITOR}.`;

/**
 * Bo's browser, one without Web Push: the tab counts as in the background (the page's own browser
 * notification is only shown then), and the notifications the page asks the browser to show are
 * recorded with their click handlers (the browser's notification centre is outside the page).
 */
const BACKGROUND_TAB = () => {
  const w = window as unknown as {
    titanHidden: boolean;
    titanNotified: { title: string; body: string; click: () => void }[];
  };
  w.titanHidden = true;
  w.titanNotified = [];
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (w.titanHidden ? 'hidden' : 'visible'),
  });
  class RecordedNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body?: string } = {}) {
      const entry = { title, body: options.body ?? '', click: () => this.onclick?.() };
      w.titanNotified.push(entry);
    }
    close() {}
  }
  Object.defineProperty(window, 'Notification', { configurable: true, value: RecordedNotification });
  // A browser without Web Push (the page's own notification is for those; push has its own tests).
  delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
  delete (window as { PushManager?: unknown }).PushManager;
};

describe.skipIf(!hasChromium)('two staff members in one inbox, in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let adaSession: OwnerSession;
  let boSession: OwnerSession;
  let boId = 0;
  let adaId = 0;
  let conversationId = 0;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    adaSession = await signUpOwner(server.url, ada, PASSWORD, 'Two Staff Shop');
    const asAda = titanAs(server.url, adaSession);
    adaId = (await unwrap(asAda.GET('/api/users/profile/'))).pk;
    // Bo has an account (and a business of his own); Ada invites him as an agent and he joins.
    const own = await signUpOwner(server.url, bo, PASSWORD, 'Bo Elsewhere');
    await unwrap(asAda.POST('/api/business/users/', { body: { email: bo.email, role: 'agent' } }));
    const outbox = await fetch(`${server.url}/api/dev/outbox/?to=${encodeURIComponent(bo.email)}`);
    const mails = ((await outbox.json()) as { result: { links: string[] }[] }).result;
    const invite = mails.flatMap((m) => m.links).find((l) => l.includes('/invite-user/join/'));
    expect(invite, 'the invitation mail').toBeTruthy();
    const token = decodeURIComponent(new URL(invite!).pathname.split('/').filter(Boolean).at(-1)!);
    const asBo = titanAs(server.url, { access: own.access, businessCode: own.businessCode });
    await unwrap(asBo.POST('/api/business/users/assign/', { body: { token } }));
    boSession = { ...own, businessCode: adaSession.businessCode };
    boId = (await unwrap(asBo.GET('/api/users/profile/'))).pk;

    // The Support group: both in it, handed out round robin to whoever is online.
    const group = await unwrap(
      asAda.POST('/api/msg/chat-groups/', {
        body: {
          name: 'Support',
          slug: 'support',
          visitor_form: [{ name: 'name', label: 'Your name', type: 'text', required: true }],
        },
      }),
    );
    for (const id of [adaId, boId]) {
      const added = await asAda.POST('/api/msg/chat-groups/{id}/users/', {
        params: { path: { id: group.id } },
        body: { user_id: id },
      });
      expect([201, 409], `adding ${id} to Support`).toContain(added.response.status);
    }
    await unwrap(
      asAda.PUT('/api/msg/chat-groups/{id}/', {
        params: { path: { id: group.id } },
        body: { assignment: { mode: 'round_robin', capacity: 10 } },
      }),
    );
    await unwrap(
      asAda.POST('/api/msg/canned-responses/', { body: { short_code: 'refund', content: CANNED } }),
    );
    await unwrap(asAda.POST('/api/msg/labels/', { body: { name: 'Refunds', color: '#b91c1c' } }));
    browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'hands the chat to Ada, Bo answers from her mention, the visitor never sees the note',
    { timeout: 240_000 },
    async () => {
      // Ada is at work: the inbox open, so she is online.
      const adaContext = await signedInContext(browser, server.url, adaSession, {
        viewport: { width: 1440, height: 900 },
      });
      const adaPage = await watchedPage(adaContext, problems, { consoleErrors: true });
      await adaPage.goto(`${server.url}/messages`);
      await adaPage.getByRole('group', { name: 'Inbox views' }).waitFor();
      const asAda = titanAs(server.url, adaSession);
      await expect
        .poll(async () => {
          const team = await unwrap(asAda.GET('/api/business/users/'));
          return team.find((m) => m.user.pk === adaId)?.presence;
        })
        .toBe('online');

      // A visitor starts a chat on the group's hosted page.
      const visitorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const visitor = await watchedPage(visitorContext, problems, { consoleErrors: true });
      await visitor.goto(`${server.url}/messages/chat/${adaSession.businessCode}/g/support`);
      await visitor.getByLabel('Your name').fill(VISITOR);
      await visitor.getByRole('button', { name: 'Start chat' }).click();
      const box = visitor.getByRole('textbox', { name: 'Message' });
      await box.fill('Hello, I would like a refund for order 77');
      await box.press('Enter');
      const log = visitor.getByRole('log', { name: 'Messages' });
      await log.getByText('Hello, I would like a refund for order 77').waitFor();

      // Auto-assigned to Ada (Bo is not online): her "Mine" view counts it and she opens it.
      await adaPage
        .getByRole('group', { name: 'Inbox views' })
        .getByRole('button', { name: 'Mine 1 conversation' })
        .waitFor({ timeout: 30_000 });
      const list = await unwrap(asAda.GET('/api/msg/conversations/'));
      expect(list.results).toHaveLength(1);
      expect(list.results[0]!.assignee?.id).toBe(adaId);
      conversationId = list.results[0]!.id;
      await adaPage.goto(`${server.url}/messages?conversation=${conversationId}`);
      const adaConversation = adaPage.getByRole('region', { name: 'Conversation', exact: true });
      await adaConversation.getByText('Hello, I would like a refund for order 77').waitFor();

      // Bo's tab is open in the background.
      const boContext = await signedInContext(browser, server.url, boSession, {
        viewport: { width: 1440, height: 900 },
      });
      await boContext.addInitScript(BACKGROUND_TAB);
      const boPage = await watchedPage(boContext, problems, { consoleErrors: true });
      // Bo's bell listens live once its realtime subscription is confirmed (what came before that
      // is fetched, not announced).
      let bellSub: string | null = null;
      let bellLive = false;
      boPage.on('websocket', (ws) => {
        ws.on('framesent', ({ payload }) => {
          const m = JSON.parse(String(payload)) as { type?: string; topic?: string; id?: string };
          if (m.type === 'subscribe' && m.topic === 'notifications') bellSub = m.id ?? null;
        });
        ws.on('framereceived', ({ payload }) => {
          const m = JSON.parse(String(payload)) as { type?: string; id?: string };
          if (m.type === 'subscribed' && m.id === bellSub) bellLive = true;
        });
      });
      await boPage.goto(`${server.url}/engage`);
      await boPage.getByRole('button', { name: /^Notifications/ }).waitFor();
      await expect.poll(() => bellLive, { timeout: 30_000 }).toBe(true);

      // Ada mentions Bo in a private note.
      await adaPage.getByRole('tab', { name: 'Private note' }).click();
      const noteBox = adaPage.getByRole('textbox', { name: 'Private note' });
      await noteBox.pressSequentially('@Bo');
      await adaPage
        .getByRole('listbox', { name: 'Mention a member' })
        .getByRole('option', { name: /Bo Backup/ })
        .click();
      await noteBox.pressSequentially(` ${NOTE}`);
      await adaPage.getByRole('button', { name: 'Add note' }).click();
      await adaPage.locator('[data-message-type="note"]').filter({ hasText: NOTE }).waitFor();

      // Bo: the bell counts it, and the browser was asked to show a notification.
      const title = 'Ada Assigned mentioned you in';
      await boPage.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 20_000 });
      await expect
        .poll(
          () =>
            boPage.evaluate(() =>
              (window as unknown as { titanNotified: { title: string }[] }).titanNotified.map((n) => n.title),
            ),
          { timeout: 20_000 },
        )
        .toEqual([`${title} “Chat with Support”`]);
      // He comes back to the tab and clicks the notification: the conversation opens.
      await boPage.evaluate(() => {
        const w = window as unknown as { titanHidden: boolean; titanNotified: { click: () => void }[] };
        w.titanHidden = false;
        w.titanNotified[0]!.click();
      });
      await boPage.waitForURL(`**/messages?conversation=${conversationId}`);
      const boConversation = boPage.getByRole('region', { name: 'Conversation', exact: true });
      await boConversation.locator('[data-message-type="note"]').filter({ hasText: NOTE }).waitFor();

      // He answers with the canned response; the visitor sees him typing, then the answer.
      const reply = boPage.getByRole('textbox', { name: 'Message' });
      await reply.click();
      await reply.pressSequentially('/refu');
      const picker = boPage.getByRole('listbox', { name: 'Canned responses' });
      await picker.getByRole('option').first().waitFor();
      await reply.press('Enter');
      await expect.poll(() => reply.inputValue()).toBe(ANSWER);
      await visitor.getByRole('status').filter({ hasText: /Bo/ }).waitFor({ timeout: 20_000 });
      await reply.press('Enter');
      await log.getByText(ANSWER).waitFor({ timeout: 20_000 });
      // In Bo's timeline (the composer may still hold the words for a moment after Enter).
      await boConversation.locator('li[data-message-id]').filter({ hasText: ANSWER }).waitFor();

      // Labels and resolves it.
      await boPage.getByRole('button', { name: 'Label conversation' }).click();
      await boPage.getByRole('menuitemcheckbox', { name: 'Refunds' }).click();
      await boPage.keyboard.press('Escape');
      await boConversation.getByText('Refunds').first().waitFor();
      await boPage.getByRole('button', { name: 'Conversation actions' }).click();
      await boPage.getByRole('menuitem', { name: 'Mark as resolved' }).click();
      await boPage.getByText('Conversation marked resolved').waitFor();
      await expect
        .poll(
          async () =>
            (
              await unwrap(
                asAda.GET('/api/msg/conversations/{id}/', { params: { path: { id: conversationId } } }),
              )
            ).status,
        )
        .toBe('resolved');
      const done = await unwrap(
        asAda.GET('/api/msg/conversations/{id}/', { params: { path: { id: conversationId } } }),
      );
      expect(done.assignee?.id).toBe(adaId);
      expect(done.labels.map((l) => l.name)).toEqual(['Refunds']);

      // The visitor saw the answer and never the note, on the page or in what the server gave them.
      expect(await visitor.content()).not.toContain(NOTE);
      expect(await log.innerText()).toContain(ANSWER);
      expect(problems).toEqual([]);
      await Promise.all([adaContext.close(), boContext.close(), visitorContext.close()]);
    },
  );
});
