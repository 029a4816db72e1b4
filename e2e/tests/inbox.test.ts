// The shared inbox in Chromium against the built server: a staff member keeps /messages open while a
// customer (another party, through the public visitor API) starts a conversation and writes; the
// conversation and its messages arrive live. Filters narrow the list, a phone-sized screen shows one
// pane at a time, and the staff member's text and file reach the customer.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { signUpOwner } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TMessage = {
  id: number | string;
  content: string;
  message_type: 'text' | 'file';
  sender_type: string;
  meta_data: Record<string, unknown>;
};

const PASSWORD = 'a long enough passphrase 42';
const staff = { first: 'Sam', last: 'Staff', email: `sam.${Date.now()}@example.com` };
const CUSTOMER = 'Vera Visitor';
const TITLE = 'My parcel never arrived';
const FILE_TEXT = 'tracking number 1Z999';

describe.skipIf(!hasChromium)('shared inbox in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let businessCode = '';
  let visitorToken = '';
  let conversationId = 0;
  const problems: string[] = [];

  async function api<T>(
    path: string,
    init: { method?: string; body?: unknown; auth?: string } = {},
  ): Promise<{ status: number; result: T }> {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.auth ? { authorization: init.auth } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const json = (await res.json()) as { result: T };
    return { status: res.status, result: json.result };
  }

  /** Signs up, verifies and logs in a staff member who owns a new business; answers the session. */
  const createStaffSession = () => signUpOwner(server.url, staff, PASSWORD, 'Inbox Browser Test');

  const newPage = (ctx: BrowserContext): Promise<Page> => watchedPage(ctx, problems, { consoleErrors: true });

  /**
   * Counts confirmed subscriptions of the inbox's list and open conversation (the `conversations`
   * and `messages` topics), from now on; the bell's and the presence dots' own are not counted.
   */
  const INBOX_TOPICS = new Set(['conversations', 'messages']);
  function countSubscriptions(p: Page): () => number {
    const listIds = new Set<string>();
    let seen = 0;
    p.on('websocket', (socket) => {
      socket.on('framesent', (frame) => {
        if (typeof frame.payload !== 'string') return;
        const sent = JSON.parse(frame.payload) as { type?: string; topic?: string; id?: string };
        if (sent.type === 'subscribe' && INBOX_TOPICS.has(sent.topic ?? '') && sent.id) listIds.add(sent.id);
      });
      socket.on('framereceived', (frame) => {
        if (typeof frame.payload !== 'string') return;
        const got = JSON.parse(frame.payload) as { type?: string; id?: string };
        if (got.type === 'subscribed' && got.id && listIds.has(got.id)) seen += 1;
      });
    });
    return () => seen;
  }

  function conversationList(p: Page) {
    return p.getByRole('list', { name: 'Conversations' });
  }

  function row(p: Page) {
    return conversationList(p).getByRole('listitem').filter({ hasText: CUSTOMER });
  }

  async function visitorMessages(): Promise<TMessage[]> {
    const res = await api<TMessage[]>(`/api/public/conversations/${conversationId}/messages/`, {
      auth: `Visitor ${visitorToken}`,
    });
    expect(res.status).toBe(200);
    return res.result;
  }

  async function applyStatus(p: Page, status: 'All' | 'Active' | 'Resolved') {
    await p.getByRole('button', { name: /^Filter/ }).click();
    const panel = p.getByRole('dialog', { name: 'Filters' });
    await panel.getByLabel('Status', { exact: true }).selectOption({ label: status });
    await panel.getByRole('button', { name: 'Apply Filters' }).click();
    await panel.waitFor({ state: 'hidden' });
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    const session = await createStaffSession();
    businessCode = session.businessCode;
    browser = await launchBrowser();
    context = await signedInContext(browser, server.url, session, { viewport: { width: 1280, height: 800 } });
    page = await newPage(context);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a customer’s new conversation and messages live, without a reload', async () => {
    const subscribed = countSubscriptions(page);
    await page.goto(`${server.url}/messages`);
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    await page.getByText('No conversations found').waitFor();
    await page.getByText('No conversation selected').waitFor();
    // The list is live once its subscription is confirmed.
    await expect.poll(subscribed).toBe(1);
    // A reload would drop this mark.
    await page.evaluate(() => Object.assign(window, { inboxMark: true }));

    const visitor = await api<{ token: string }>('/api/public/customers/', {
      body: { business_code: businessCode, name: CUSTOMER },
    });
    expect(visitor.status, 'POST /api/public/customers/ (the public visitor API)').toBe(201);
    visitorToken = visitor.result.token;
    const started = await api<{ id: number }>('/api/public/conversations/', {
      body: { title: TITLE },
      auth: `Visitor ${visitorToken}`,
    });
    expect(started.status).toBe(201);
    conversationId = started.result.id;

    // The new conversation arrives at the top of the list, unread.
    await row(page).waitFor();
    await row(page).getByText(TITLE).waitFor();
    await row(page).getByText('Titan').waitFor();
    await row(page).getByText('Active').waitFor();

    const first = await api(`/api/public/conversations/${conversationId}/messages/`, {
      body: { message_type: 'text', content: 'Hello, is anyone there?' },
      auth: `Visitor ${visitorToken}`,
    });
    expect(first.status).toBe(201);
    await row(page).getByRole('img', { name: 'Unread' }).waitFor();

    // Opening it shows the message and marks it read.
    await row(page).getByRole('link').click();
    await page.waitForURL(`${server.url}/messages?conversation=${conversationId}`);
    const pane = page.getByRole('region', { name: 'Conversation', exact: true });
    await pane.getByText('Hello, is anyone there?').waitFor();
    await pane.getByRole('heading', { name: CUSTOMER }).waitFor();
    await row(page).getByRole('img', { name: 'Unread' }).waitFor({ state: 'detached' });
    await expect.poll(subscribed).toBe(2);

    // A further message appears in the open conversation as it is written.
    await api(`/api/public/conversations/${conversationId}/messages/`, {
      body: { message_type: 'text', content: 'My order number is 4711.' },
      auth: `Visitor ${visitorToken}`,
    });
    await pane.getByText('My order number is 4711.').waitFor();
    expect(await page.evaluate(() => 'inboxMark' in window)).toBe(true);
  });

  it('sends text and a file to the customer', async () => {
    const pane = page.getByRole('region', { name: 'Conversation', exact: true });
    const box = pane.getByPlaceholder('Type a message...');
    await box.fill('Sorry to hear that!');
    await box.press('Shift+Enter');
    await box.pressSequentially('We are on it.');
    await box.press('Enter');
    await pane.getByText(/Sorry to hear that!\s+We are on it\./).waitFor();
    await expect.poll(() => box.inputValue()).toBe('');

    await pane.getByTestId('attachment-input').setInputFiles({
      name: 'tracking.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(FILE_TEXT),
    });
    const dialog = page.getByRole('alertdialog', { name: 'Send Attachment' });
    await dialog.getByText('Are you sure you want to send the file?').waitFor();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText('File uploaded successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const link = pane.getByRole('link', { name: 'Attachment Added' });
    await link.waitFor();

    // The customer reads both through the public API, and the file's link gives its bytes.
    let messages: TMessage[] = [];
    await expect
      .poll(async () => {
        messages = await visitorMessages();
        return messages.length;
      })
      .toBe(4);
    const [text, file] = messages.slice(-2);
    expect(text).toMatchObject({
      message_type: 'text',
      content: 'Sorry to hear that!\nWe are on it.',
      sender_type: 'staff',
    });
    expect(file).toMatchObject({ message_type: 'file', sender_type: 'staff' });
    expect(file?.meta_data).toMatchObject({ file_name: 'tracking.txt', mime_type: 'text/plain' });
    const fileUrl = new URL(file?.content ?? '', server.url);
    const download = await fetch(fileUrl);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(FILE_TEXT);
  });

  it('narrows the list with filters and follows status changes live', async () => {
    await row(page).waitFor();

    await applyStatus(page, 'Resolved');
    await page.getByText('No conversations found').waitFor();
    await row(page).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: /^Filter/ }).textContent()).toContain('Active');
    await page.getByRole('button', { name: 'Clear all filters' }).click();
    await row(page).waitFor();

    // Filtered to active ones, resolving the open conversation drops it from the list at once.
    await applyStatus(page, 'Active');
    await row(page).waitFor();
    const pane = page.getByRole('region', { name: 'Conversation', exact: true });
    await pane.getByRole('button', { name: 'Conversation actions' }).click();
    await page.getByRole('menuitem', { name: 'Mark as resolved' }).click();
    await page.getByText('Conversation marked resolved').waitFor();
    await pane.getByRole('img', { name: 'Resolved' }).waitFor();
    await row(page).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /^Filter/ }).click();
    await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Clear all' }).click();
    await row(page).waitFor();
    await row(page).getByText('Resolved').waitFor();

    await pane.getByRole('button', { name: 'Conversation actions' }).click();
    await page.getByRole('menuitem', { name: 'Mark as active' }).click();
    await page.getByText('Conversation marked active').waitFor();
    await row(page).getByText('Active').waitFor();
  });

  it('shows one pane at a time on a phone-sized screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await phone.addCookies(await context.cookies(server.url));
    const small = await newPage(phone);
    await small.goto(`${server.url}/messages`);
    const listRegion = small.getByRole('region', { name: 'Conversation list' });
    const paneRegion = small.getByRole('region', { name: 'Conversation', exact: true });

    await row(small).waitFor();
    expect(await listRegion.isVisible()).toBe(true);
    expect(await paneRegion.isVisible()).toBe(false);

    await row(small).getByRole('link').click();
    await paneRegion.getByText('My order number is 4711.').waitFor();
    expect(await paneRegion.isVisible()).toBe(true);
    expect(await listRegion.isVisible()).toBe(false);

    await paneRegion.getByRole('link', { name: 'Back to conversations' }).click();
    await row(small).waitFor();
    expect(await listRegion.isVisible()).toBe(true);
    expect(await paneRegion.isVisible()).toBe(false);
    await phone.close();
  });

  it('logged nothing to the console and threw nothing on any page', () => {
    expect(problems).toEqual([]);
  });
});
