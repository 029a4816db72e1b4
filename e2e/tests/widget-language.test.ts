// The widget in the visitor's language (issue 30), in Chromium against the built server: a shop page
// with <html lang="es"> gets the chat in Spanish (the group's Spanish override included) although the
// browser prefers French; with nobody online the chat asks for an email and the address lands on the
// visitor's record; a staff member typing shows as "… está escribiendo…" and the visitor's typing
// reaches staff; a page with <html lang="ar"> gets the chat in Arabic, laid out right to left.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../support/browser';
import { startTitan, type TitanServer } from '../support/server';
import { signUpOwner, type OwnerSession } from '../support/staff';

type TFeed = { type: string; conversation_id?: number; who?: { type: string; name: string } }[];

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Wendy', last: 'Lingua', email: `wendy.lingua.${Date.now()}@example.com` };

async function startHostSite(
  pageFor: (lang: string) => string,
): Promise<{ server: Server; origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (url.pathname !== '/') {
      res.writeHead(204).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(pageFor(url.searchParams.get('lang') ?? 'en'));
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!hasChromium)('the widget in the visitor’s language, in Chromium', () => {
  let server: TitanServer;
  let session: OwnerSession;
  let shop: Awaited<ReturnType<typeof startHostSite>>;
  let browser: Browser;
  let staffPage: Page;
  const problems: string[] = [];

  const hostPage = (lang: string) =>
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Tienda</title>` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    '<body><h1>La tienda</h1>' +
    `<script async src="${server.url}/widget.js" data-business="${session.businessCode}" data-group="support"></script>` +
    '</body></html>';

  async function api<T>(
    path: string,
    method = 'GET',
    body?: unknown,
  ): Promise<{ status: number; result: T }> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session.access}`,
        'x-business-code': session.businessCode,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, result: ((await res.json()) as { result: T }).result };
  }

  async function visitorPage(lang: string, browserLocale: string): Promise<Page> {
    const context = await browser.newContext({
      locale: browserLocale,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    await page.goto(`${shop.origin}/?lang=${lang}`);
    return page;
  }

  const chat = (page: Page, title: string): FrameLocator => page.frameLocator(`iframe[title="${title}"]`);

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    session = await signUpOwner(server.url, owner, PASSWORD, 'Tienda Lingua');
    const group = await api('/api/msg/chat-groups/', 'POST', {
      name: 'Soporte',
      slug: 'support',
      locale: 'de',
      strings: { es: { placeholder: 'Escríbenos aquí…' }, ar: { send: 'أرسِل الآن' } },
    });
    expect(group.status).toBe(201);
    shop = await startHostSite(hostPage);
    browser = await launchBrowser();
    staffPage = await (await browser.newContext()).newPage();
    // The staff member's live socket, in a page of Titan's own origin.
    await staffPage.goto(`${server.url}/login`);
    await staffPage.evaluate(
      (token) =>
        new Promise<void>((resolve, reject) => {
          const w = window as unknown as { feed: TFeed; socket: WebSocket };
          w.feed = [];
          const socket = new WebSocket(`${location.origin.replace('http', 'ws')}/api/realtime/`);
          w.socket = socket;
          socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token }));
          socket.onerror = () => reject(new Error('staff socket failed'));
          socket.onmessage = (event) => {
            const message = JSON.parse(String(event.data)) as TFeed[number];
            w.feed.push(message);
            if (message.type === 'ready') resolve();
          };
        }),
      session.access,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await server?.stop();
  });

  it('speaks Spanish on a page with lang="es" (the group’s override included), though the browser prefers French', async () => {
    const page = await visitorPage('es', 'fr-FR');
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await launcher.click();
    const frame = chat(page, 'Chat');
    await frame.getByRole('heading', { name: 'Soporte' }).waitFor();
    const composer = frame.getByRole('textbox', { name: 'Mensaje' });
    await expect.poll(() => composer.getAttribute('placeholder')).toBe('Escríbenos aquí…');
    expect(await frame.getByRole('button', { name: 'Enviar' }).first().isVisible()).toBe(true);
    expect(await frame.locator('html').getAttribute('lang')).toBe('es');
    expect(await frame.locator('html').getAttribute('dir')).toBe('ltr');
    // The launcher on the host page takes the chat's words.
    await page.getByRole('button', { name: 'Cerrar el chat' }).first().waitFor();

    // Nobody is online: the chat asks for an email, and the address lands on the visitor's record.
    await frame.getByText('Ahora mismo no estamos disponibles').waitFor();
    await frame.getByRole('textbox', { name: 'Tu correo electrónico' }).fill('ana@example.com');
    await frame.getByRole('form', { name: 'Ahora mismo no estamos disponibles' }).getByRole('button').click();
    await frame.getByText('¡Gracias! Te responderemos a ana@example.com.').waitFor();
    const directory = await api<{ results: { email: string | null }[] }>(
      '/api/business/customer-directory/?search=ana%40example.com',
    );
    expect(directory.status).toBe(200);
    expect(directory.result.results.map((c) => c.email)).toContain('ana@example.com');

    // A message opens the conversation; then typing goes both ways.
    await composer.fill('Hola, ¿tienen envío a Madrid?');
    await composer.press('Enter');
    await frame.getByRole('log', { name: 'Mensajes' }).getByText('Hola, ¿tienen envío a Madrid?').waitFor();
    const conversations = await api<{ results: { id: number }[] }>('/api/msg/conversations/');
    const conversationId = conversations.result.results[0]!.id;
    await staffPage.evaluate((id) => {
      const w = window as unknown as { socket: WebSocket };
      w.socket.send(
        JSON.stringify({ type: 'subscribe', id: `m${id}`, topic: 'messages', conversation_id: id }),
      );
      w.socket.send(JSON.stringify({ type: 'typing', conversation_id: id }));
    }, conversationId);
    await frame.getByText(`${owner.first} ${owner.last} está escribiendo…`).waitFor();
    await composer.pressSequentially('Gracias', { delay: 20 });
    await expect
      .poll(async () =>
        (await staffPage.evaluate(() => (window as unknown as { feed: TFeed }).feed)).some(
          (m) => m.type === 'typing' && m.conversation_id === conversationId && m.who?.type === 'customer',
        ),
      )
      .toBe(true);
    await page.context().close();
  });

  it('speaks Arabic right to left on a page with lang="ar"', async () => {
    const page = await visitorPage('ar', 'en-US');
    await page.getByRole('button', { name: 'Open chat' }).click();
    const frame = chat(page, 'الدردشة');
    await frame.getByRole('heading', { name: 'Soporte' }).waitFor();
    expect(await frame.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await frame.locator('html').getAttribute('lang')).toBe('ar');
    expect(await frame.locator('body').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await page.getByRole('button', { name: 'إغلاق الدردشة' }).first().waitFor();
    const composer = frame.getByRole('textbox', { name: 'الرسالة' });
    expect(await composer.getAttribute('placeholder')).toBe('اكتب رسالة...');
    // The group's Arabic override of the send button.
    await frame.getByRole('button', { name: 'أرسِل الآن' }).waitFor();
    await composer.fill('مرحبا');
    await composer.press('Enter');
    const log = frame.getByRole('log', { name: 'الرسائل' });
    const bubble = log.getByText('مرحبا');
    await bubble.waitFor();
    // Right to left: the visitor's own message sits on the left, the composer's send button too.
    const logBox = (await log.boundingBox())!;
    const bubbleBox = (await bubble.boundingBox())!;
    expect(bubbleBox.x + bubbleBox.width / 2).toBeLessThan(logBox.x + logBox.width / 2);
    const sendBox = (await frame.getByRole('button', { name: 'أرسِل الآن' }).boundingBox())!;
    const inputBox = (await composer.boundingBox())!;
    expect(sendBox.x).toBeLessThan(inputBox.x);
    // Nothing overflows sideways.
    expect(await frame.locator('html').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.context().close();
    expect(problems).toEqual([]);
  });
});
