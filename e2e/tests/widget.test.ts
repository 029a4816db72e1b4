// The chat widget in Chromium against the built server, embedded by a shop page on another site:
// the closed widget costs the page only the loader; a visitor fills the group's form and writes;
// staff (through the API and a live WebSocket) see it under the right group and answer; replies,
// files both ways and the unread badge arrive live; a reload keeps the conversation; a page on an
// origin that is not allowed cannot open the chat; on a phone the chat fills the screen.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';

type TMail = { links: string[] };
type TConversation = { id: number; title: string; assigned_chat_group: { slug: string } | null };
type TMessage = {
  id: number | string;
  content: string;
  message_type: 'text' | 'file';
  sender_type: string;
  meta_data: Record<string, unknown>;
};
type TChange = { type: string; table?: string; event?: string; new?: Record<string, unknown> };

const PASSWORD = 'a long enough passphrase 42';
const staff = { first: 'Wendy', last: 'Widget', email: `wendy.${Date.now()}@example.com` };
const VISITOR = 'Vera Visitor';
const GREETING = 'Hi! How can we help?';
const FIRST_MESSAGE = 'Hello from the shop page';
const REPLY = 'Hi Vera, we are looking into it.';
const VISITOR_FILE = 'order-receipt.txt';
const VISITOR_FILE_TEXT = 'receipt for order 4711';
// A 1×1 PNG: staff send an image, the widget previews it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A host site: a page embedding the widget, served on its own origin. */
async function startHostSite(
  pageFor: (url: URL) => string,
): Promise<{ server: Server; origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url !== '/' && !req.url?.startsWith('/?')) {
      res.writeHead(204).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(pageFor(new URL(req.url, 'http://host')));
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!hasChromium)('chat widget embedded on another site, in Chromium', () => {
  let server: TitanServer;
  let shop: Awaited<ReturnType<typeof startHostSite>>;
  let otherSite: Awaited<ReturnType<typeof startHostSite>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let staffPage: Page;
  let access = '';
  let businessCode = '';
  let conversationId = 0;
  const problems: string[] = [];

  let identitySecret = '';
  /** The shop's page; `?as=<user id>` is the shop's signed-in user, vouched for with the widget secret. */
  const hostPage = (url: URL) => {
    const userId = url.searchParams.get('as');
    const identify = userId
      ? `TitanChat("identify", ${JSON.stringify({
          user_id: userId,
          user_hash: createHmac('sha256', identitySecret).update(userId).digest('hex'),
          name: 'Ida Identified',
          email: 'ida@example.com',
        })});`
      : '';
    return (
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
      '<body><h1>The Shop</h1><p id="content">Welcome to our shop.</p>' +
      '<script>window.unreadSeen = []; window.TitanChat = function () { (TitanChat.q = TitanChat.q || []).push(arguments); };' +
      `TitanChat("onUnreadChange", function (n) { window.unreadSeen.push(n); });${identify}</script>` +
      `<script async src="${server.url}/widget.js" data-business="${businessCode}" data-group="support"></script>` +
      '</body></html>'
    );
  };

  async function api<T>(
    path: string,
    init: { method?: string; body?: unknown; form?: FormData; staff?: boolean } = {},
  ): Promise<{ status: number; result: T; message: string }> {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined && !init.form ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.staff === false ? {} : { authorization: `Bearer ${access}` }),
        ...(businessCode && init.staff !== false ? { 'x-business-code': businessCode } : {}),
      },
      body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const json = (await res.json()) as { result: T; message: string };
    return { status: res.status, result: json.result, message: json.message };
  }

  /** Signs up, verifies and logs in a staff member who owns a new business. */
  async function signUpStaff(): Promise<void> {
    const registered = await api('/api/auth/register/', {
      staff: false,
      body: { first_name: staff.first, last_name: staff.last, email: staff.email, password: PASSWORD },
    });
    expect(registered.status).toBe(201);
    const outbox = await api<TMail[]>(`/api/dev/outbox/?to=${encodeURIComponent(staff.email)}`, {
      staff: false,
    });
    const link = outbox.result
      .flatMap((m) => m.links)
      .find((l) => l.includes('/auth/account-confirm-email/'));
    const key = decodeURIComponent(
      new URL(link ?? 'http://x/').pathname.split('/').filter(Boolean).at(-1) ?? '',
    );
    expect((await api('/api/auth/register/verify-email/', { staff: false, body: { key } })).status).toBe(200);
    const login = await api<{ access: string }>('/api/auth/login/', {
      staff: false,
      body: { email: staff.email, password: PASSWORD },
    });
    expect(login.status).toBe(200);
    access = login.result.access;
    const business = await api<{ unique_code: string }>('/api/business/', { body: { name: 'Widget Shop' } });
    expect(business.status).toBe(201);
    businessCode = business.result.unique_code;
  }

  function watch(p: Page) {
    p.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    p.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    return p;
  }

  const launcher = (p: Page) => p.getByRole('button', { name: /^Open chat/ });
  const chatFrame = (p: Page): FrameLocator => p.frameLocator('iframe[title="Chat"]');
  const composer = (p: Page) => chatFrame(p).getByRole('textbox', { name: 'Message' });
  const log = (p: Page) => chatFrame(p).getByRole('log', { name: 'Messages' });

  /** The staff member's live feed: a WebSocket opened in a page on Titan's origin. */
  async function openStaffFeed(): Promise<void> {
    // A page of Titan's app (API answers forbid scripts their own connections: CSP default-src 'none').
    await staffPage.goto(`${server.url}/login`);
    await staffPage.evaluate(
      ({ token, code }) =>
        new Promise<void>((resolve, reject) => {
          const w = window as unknown as { feed: TChange[]; socket: WebSocket };
          w.feed = [];
          const socket = new WebSocket(`${location.origin.replace('http', 'ws')}/api/realtime/`);
          w.socket = socket;
          socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token }));
          socket.onerror = () => reject(new Error('staff socket failed'));
          socket.onmessage = (event) => {
            const message = JSON.parse(String(event.data)) as TChange & { id?: string };
            w.feed.push(message);
            if (message.type === 'ready')
              socket.send(
                JSON.stringify({
                  type: 'subscribe',
                  id: 'list',
                  topic: 'conversations',
                  business_code: code,
                }),
              );
            if (message.type === 'subscribed' && message.id === 'list') resolve();
          };
        }),
      { token: access, code: businessCode },
    );
  }

  async function staffFeed(): Promise<TChange[]> {
    return staffPage.evaluate(() => (window as unknown as { feed: TChange[] }).feed);
  }

  async function staffMessages(): Promise<TMessage[]> {
    const res = await api<TMessage[]>(`/api/msg/conversations/${conversationId}/messages/`);
    expect(res.status).toBe(200);
    return res.result;
  }

  /** The frames of a page showing a document from Titan (a refused frame shows an error page). */
  function titanFrames(p: Page): Frame[] {
    return p.frames().filter((f) => f !== p.mainFrame() && f.url().startsWith(server.url));
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    await signUpStaff();
    const group = await api('/api/msg/chat-groups/', {
      body: {
        name: 'Support',
        slug: 'support',
        greeting: GREETING,
        color: '#0f766e',
        launcher_position: 'left',
        visitor_form: [
          { name: 'name', label: 'Your name', type: 'text', required: true },
          { name: 'email', label: 'Email', type: 'email', required: true },
          { name: 'topic', label: 'Topic', type: 'select', options: ['Billing', 'Shipping'] },
        ],
      },
    });
    expect(group.status).toBe(201);
    expect((await api('/api/msg/chat-groups/', { body: { name: 'Sales', slug: 'sales' } })).status).toBe(201);
    shop = await startHostSite(hostPage);
    otherSite = await startHostSite(hostPage);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = watch(await context.newPage());
    // A tool page for the staff member's socket, not part of the product: not watched.
    staffPage = await (await browser.newContext()).newPage();
    await openStaffFeed();
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await otherSite?.close();
    await server?.stop();
  });

  it('costs a page with the chat closed nothing but the loader', async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(shop.origin);
    await launcher(page).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requests.filter((url) => !url.startsWith(shop.origin))).toEqual([`${server.url}/widget.js`]);
    expect(await page.locator('iframe').count()).toBe(0);
    // The page's own content and layout are untouched.
    expect(await page.locator('#content').textContent()).toBe('Welcome to our shop.');
    expect(await page.evaluate(() => document.body.scrollHeight <= window.innerHeight)).toBe(true);
  });

  it('lets a visitor fill the group’s form and write; staff see it live under the group', async () => {
    await launcher(page).click();
    const frame = chatFrame(page);
    await frame.getByRole('heading', { name: 'Support' }).waitFor();
    await frame.getByText(GREETING).waitFor();
    // The group's colour and launcher side reach the host page's launcher.
    const closeLauncher = page.getByRole('button', { name: 'Close chat' }).first();
    await expect
      .poll(() => closeLauncher.evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe('rgb(15, 118, 110)');

    await frame.getByRole('button', { name: 'Start chat' }).click();
    await frame.getByText('This field is required.').first().waitFor();
    expect(await frame.getByLabel('Your name').evaluate((el) => el === document.activeElement)).toBe(true);
    await frame.getByLabel('Your name').fill(VISITOR);
    await frame.getByLabel('Email').fill('vera@example.com');
    await frame.getByLabel('Topic').selectOption('Shipping');
    await frame.getByRole('button', { name: 'Start chat' }).click();

    await composer(page).fill(FIRST_MESSAGE);
    await composer(page).press('Enter');
    await log(page).getByText(FIRST_MESSAGE).waitFor();
    await expect.poll(() => composer(page).inputValue()).toBe('');

    // Live for staff: the new conversation arrives on their socket, assigned to the Support group.
    let change: TChange | undefined;
    await expect
      .poll(async () => {
        change = (await staffFeed()).find(
          (m) =>
            m.type === 'change' &&
            m.table === 'conversations' &&
            (m.new?.initiator as { name?: string } | null)?.name === VISITOR,
        );
        return change;
      })
      .toBeTruthy();
    const conversation = change!.new as unknown as TConversation;
    expect(conversation.assigned_chat_group?.slug).toBe('support');
    conversationId = conversation.id;
    await expect
      .poll(async () => (await staffMessages()).map((m) => [m.sender_type, m.content]))
      .toEqual([['customer', FIRST_MESSAGE]]);
    // The form's details reached the visitor record.
    const list = await api<{ results: TConversation[] }>('/api/msg/conversations/');
    expect(list.result.results.map((c) => c.id)).toEqual([conversationId]);
  });

  it('shows the staff reply live in the widget', async () => {
    const sent = await api(`/api/msg/conversations/${conversationId}/messages/`, {
      body: { message_type: 'text', content: REPLY },
    });
    expect(sent.status).toBe(201);
    await log(page).getByText(REPLY).waitFor();
    await log(page).getByText(staff.first).first().waitFor();
  });

  it('sends a file from the visitor and shows staff’s file, refusing files over 10 MB', async () => {
    const input = chatFrame(page).getByTestId('attachment-input');
    await input.setInputFiles({
      name: 'huge.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    await chatFrame(page).getByText('File size too large. Maximum size is 10MB.').waitFor();

    await input.setInputFiles({
      name: VISITOR_FILE,
      mimeType: 'text/plain',
      buffer: Buffer.from(VISITOR_FILE_TEXT),
    });
    await log(page).getByRole('link', { name: VISITOR_FILE }).waitFor();
    let file: TMessage | undefined;
    await expect
      .poll(async () => {
        file = (await staffMessages()).find((m) => m.message_type === 'file');
        return file?.meta_data.file_name;
      })
      .toBe(VISITOR_FILE);
    expect(file?.sender_type).toBe('customer');
    const download = await fetch(new URL(file?.content ?? '', server.url));
    expect(await download.text()).toBe(VISITOR_FILE_TEXT);

    const form = new FormData();
    form.append('prefix', 'public/public_chat_media');
    form.append('conversation_id', String(conversationId));
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'parcel-label.png');
    const upload = await api<{ key: string }>('/api/upload/', { form });
    expect(upload.status).toBe(201);
    const sent = await api(`/api/msg/conversations/${conversationId}/messages/`, {
      body: { message_type: 'file', content: upload.result.key },
    });
    expect(sent.status).toBe(201);
    const preview = log(page).getByRole('img', { name: 'parcel-label.png' });
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await log(page)
      .getByRole('link', { name: /parcel-label\.png/ })
      .waitFor();
  });

  it('counts replies that arrive while the chat is closed on the launcher', async () => {
    // Escape closes the chat and gives focus back to the launcher.
    await composer(page).press('Escape');
    await expect
      .poll(() => launcher(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement))
      .toBe(true);
    expect(await page.locator('iframe[title="Chat"]').isVisible()).toBe(false);

    await api(`/api/msg/conversations/${conversationId}/messages/`, {
      body: { message_type: 'text', content: 'Your parcel left the depot.' },
    });
    await page.getByRole('button', { name: 'Open chat, 1 unread message' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { unreadSeen: number[] }).unreadSeen.at(-1)))
      .toBe(1);

    // Opening it from the keyboard shows the reply and clears the count.
    await launcher(page).focus();
    await page.keyboard.press('Enter');
    await log(page).getByText('Your parcel left the depot.').waitFor();
    await page.getByRole('button', { name: 'Close chat' }).first().waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { unreadSeen: number[] }).unreadSeen.at(-1)))
      .toBe(0);
  });

  it('keeps the visitor’s conversation when the host page reloads', async () => {
    await page.reload();
    await launcher(page).click();
    await log(page).getByText(FIRST_MESSAGE).waitFor();
    await log(page).getByText(REPLY).waitFor();
    expect(await chatFrame(page).getByLabel('Your name').count()).toBe(0);

    await composer(page).fill('Still here after a reload');
    await composer(page).press('Enter');
    await expect.poll(async () => (await staffMessages()).at(-1)?.content).toBe('Still here after a reload');
    const list = await api<{ results: TConversation[] }>('/api/msg/conversations/');
    expect(list.result.results.map((c) => c.id)).toEqual([conversationId]);

    // Back to the list, the conversation is there, and another can be started.
    await chatFrame(page).getByRole('button', { name: 'Back to conversations' }).click();
    await chatFrame(page)
      .getByRole('button', { name: /Chat with Support/ })
      .waitFor();
    await chatFrame(page).getByRole('button', { name: 'Start a new conversation' }).waitFor();
  });

  it('cannot open the chat on a page whose origin is not allowed', async () => {
    const settings = await api('/api/msg/widget-settings/', {
      method: 'PUT',
      body: { allowed_origins: [shop.origin] },
    });
    expect(settings.status).toBe(200);

    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    const refusals: string[] = [];
    other.on('pageerror', (err) => problems.push(`pageerror on other site: ${err.message}`));
    other.on('console', (msg) => refusals.push(msg.text()));
    await other.goto(otherSite.origin);
    await launcher(other).click();
    await other.getByRole('alert').getByText('Chat is unavailable right now.').waitFor({ timeout: 20_000 });
    expect(titanFrames(other)).toEqual([]);
    // It is the browser that refused, by the frame page's frame-ancestors.
    expect(refusals.join('\n')).toMatch(
      new RegExp(`Framing '${server.url}/' violates .*"frame-ancestors 'self' ${shop.origin}".*blocked`),
    );
    expect(await other.locator('#content').textContent()).toBe('Welcome to our shop.');
    await otherContext.close();

    // The allowed shop still opens it.
    await page.reload();
    await launcher(page).click();
    await composer(page).waitFor();
    expect(titanFrames(page).length).toBe(1);
  });

  it('fills a phone’s screen with the chat', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const small = watch(await phone.newPage());
    await small.goto(shop.origin);
    await launcher(small).click();
    await chatFrame(small).getByRole('heading', { name: 'Support' }).waitFor();
    const box = await small.locator('iframe[title="Chat"]').boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    await chatFrame(small).getByRole('button', { name: 'Close chat' }).click();
    await launcher(small).waitFor();
    await phone.close();
  });

  it('serves the same chat as a full page at /messages/chat/{business}/g/{group}', async () => {
    const hosted = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const full = watch(await hosted.newPage());
    await full.goto(`${server.url}/messages/chat/${businessCode}/g/support`);
    await full.getByRole('heading', { name: 'Support' }).waitFor();
    expect(await full.getByRole('button', { name: 'Close chat' }).count()).toBe(0);
    await full.getByLabel('Your name').fill('Hugo Hosted');
    await full.getByLabel('Email').fill('hugo@example.com');
    await full.getByRole('button', { name: 'Start chat' }).click();
    const box = full.getByRole('textbox', { name: 'Message' });
    await box.fill('Writing from the hosted page');
    await box.press('Enter');
    await full.getByRole('log', { name: 'Messages' }).getByText('Writing from the hosted page').waitFor();
    await expect
      .poll(async () => {
        const list = await api<{ results: TConversation[] }>('/api/msg/conversations/');
        return list.result.results.map((c) => c.assigned_chat_group?.slug);
      })
      .toEqual(['support', 'support']);
    await hosted.close();
  });

  it('gives a signed-in user of the site their conversations on another device', async () => {
    const settings = await api<{ identity_secret: string }>('/api/msg/widget-settings/', {
      method: 'PUT',
      body: { identity_verification: true },
    });
    expect(settings.status).toBe(200);
    identitySecret = settings.result.identity_secret;

    for (const device of ['laptop', 'tablet']) {
      const ctx = await browser.newContext();
      const p = watch(await ctx.newPage());
      await p.goto(`${shop.origin}/?as=ida-42`);
      await launcher(p).click();
      const frame = chatFrame(p);
      // The site's user fills the form for them.
      await expect.poll(() => frame.getByLabel('Your name').inputValue()).toBe('Ida Identified');
      expect(await frame.getByLabel('Email').inputValue()).toBe('ida@example.com');
      await frame.getByRole('button', { name: 'Start chat' }).click();
      if (device === 'laptop') {
        await composer(p).fill('Sent from my laptop');
        await composer(p).press('Enter');
        await log(p).getByText('Sent from my laptop').waitFor();
      } else {
        await frame.getByRole('button', { name: /Chat with Support/ }).click();
        await log(p).getByText('Sent from my laptop').waitFor();
      }
      await ctx.close();
    }
    await api('/api/msg/widget-settings/', { method: 'PUT', body: { identity_verification: false } });
  });

  it('logged nothing to the console and threw nothing on any page', () => {
    expect(problems).toEqual([]);
  });
});
