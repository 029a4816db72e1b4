// The AI first responder in Chromium against the built server, with tools/llm-sim as the server's
// model: staff import three help pages of the shop's site into the knowledge base from the app; a visitor on a shop's page asks in the chat widget and gets the AI's answer from the
// knowledge base with its source; a staff member opens the conversation in the inbox, sees the
// answer as the AI assistant's and rates it bad with what was wrong (the run and the report carry
// it); the visitor asks for a person and is told one will reply, and staff see the AI's handoff
// note in the conversation; staff open the handed-off conversation, read the AI's summary note,
// take the copilot's suggested reply into the composer, edit it and send it, and the visitor reads
// the edited reply in the widget.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Rae', last: 'Responder', email: `rae.responder.${Date.now()}@example.com` };
const QUESTION = 'My umbrella arrived damaged, can I get a refund?';
const ANSWER = 'Sorry about that! We refund damaged umbrellas within 5 working days.';
const HUMAN = 'Can I talk to a real person please?';
const TOLD =
  'Of course — I’ve asked a person from our team to take over. They’ll reply here as soon as they can.';
const WHY = 'It should ask for a photo of the damage first.';
const SUGGESTION = 'We refund damaged umbrellas within 5 working days.';
const EDIT = ' Could you send us a photo of the damage and your order number?';

type TMessage = {
  content: string;
  sender_type: string;
  message_type: string;
  meta_data: Record<string, unknown>;
};

/** The shop's help pages, imported into the knowledge base (main content kept, chrome dropped). */
const HELP_PAGES: Record<string, { title: string; body: string }> = {
  '/help/refunds': {
    title: 'Refunds',
    body: '<p>We refund damaged umbrellas within 5 working days. Send us a photo of the damage and your order number, and the refund goes back to the card you paid with.</p><h2>Returns</h2><p>Umbrellas that are not damaged can be returned unused within 30 days of delivery.</p>',
  },
  '/help/shipping': {
    title: 'Shipping',
    body: '<p>Parcels leave our warehouse every weekday. Orders placed before noon leave the same day and the tracking link arrives by email within the hour.</p><h2>Costs</h2><p>Shipping is free above 50 euros.</p>',
  },
  '/help/opening-hours': {
    title: 'Opening hours',
    body: '<p>Our shop in Porto opens Monday to Saturday from 10:00 to 19:00. On public holidays it stays closed, and the team answers messages the next working day.</p>',
  },
};
const helpPage = ({ title, body }: { title: string; body: string }) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Umbrella Haven</title></head><body>` +
  '<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/jobs">Careers</a></nav>' +
  `<main><article><h1>${title}</h1>${body}</article></main><footer>Copyright Umbrella Haven. Cookie settings.</footer></body></html>`;

async function startShop(pageHtml: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const help = HELP_PAGES[req.url ?? ''];
    if (help)
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(helpPage(help));
    if (req.url !== '/') return void res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml());
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(!hasChromium)('the AI first responder in Chromium', () => {
  let sim: LlmSim;
  let titan: TitanServer;
  let session: OwnerSession;
  let shop: { server: Server; origin: string };
  let browser: Browser;
  let visitorContext: BrowserContext;
  let staffContext: BrowserContext;
  let visitor: Page;
  let staff: Page;
  let articleId = 0;
  let conversationId = 0;
  const problems: string[] = [];

  const api = async <T>(method: string, path: string, body?: unknown) =>
    (await callAs(titan.url, session, method, path, body)) as { status: number; result: T };
  const chat = (): FrameLocator => visitor.frameLocator('iframe[title="Chat"]');
  const log = () => chat().getByRole('log', { name: 'Messages' });

  beforeAll(async () => {
    sim = await startLlmSim();
    titan = await startTitan({
      env: {
        NODE_ENV: 'development',
        LLM_BASE_URL: sim.baseUrl,
        LLM_API_KEY: DEFAULT_SIM_KEY,
        LLM_MODEL: DEFAULT_SIM_MODEL,
      },
    });
    session = await signUpOwner(titan.url, owner, PASSWORD, 'Umbrella Haven');
    const group = await api('POST', '/api/msg/chat-groups/', {
      name: 'Support',
      slug: 'support',
      ai_responder: {
        mode: 'always',
        channels: ['widget'],
        handoff: { max_turns: 3, human_only_topics: [], min_confidence: 0.6 },
        monthly_token_budget: 0,
      },
    });
    expect(group.status).toBe(201);
    shop = await startShop(
      () =>
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Umbrella Haven</title>' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>Umbrellas</h1>' +
        `<script async src="${titan.url}/widget.js" data-business="${session.businessCode}" data-group="support"></script>` +
        '</body></html>',
    );
    browser = await launchBrowser();
    visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    visitor = await watchedPage(visitorContext, problems, { consoleErrors: true });
    staffContext = await signedInContext(browser, titan.url, session, {
      viewport: { width: 1440, height: 1000 },
    });
    staff = await watchedPage(staffContext, problems, { consoleErrors: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => (shop?.server ? shop.server.close(r) : r(null)));
    await titan?.stop();
    await sim?.close();
  });

  it('imports three help pages of the shop into the knowledge base from the app', async () => {
    await staff.goto(`${titan.url}/engage/knowledge/import`);
    await staff.getByLabel('Page addresses').fill(
      Object.keys(HELP_PAGES)
        .map((path) => `${shop.origin}${path}`)
        .join('\n'),
    );
    await staff.getByLabel('Status', { exact: true }).selectOption('published');
    await staff.getByRole('button', { name: 'Start import' }).click();
    await staff.getByText('Import finished').first().waitFor({ timeout: 60_000 });
    await staff.getByText('3 of 3 done: 3 imported, 0 not imported.').first().waitFor();
    const articles = await api<{ results: { id: number; title: string; status: string }[] }>(
      'GET',
      '/api/kb/articles/',
    );
    expect(articles.result.results.map((a) => [a.title, a.status]).sort()).toEqual([
      ['Opening hours', 'published'],
      ['Refunds', 'published'],
      ['Shipping', 'published'],
    ]);
    articleId = articles.result.results.find((a) => a.title === 'Refunds')!.id;
    // The main content only: the shop's menu and footer are not in the article.
    const refunds = await api<{ body_markdown: string }>('GET', `/api/kb/articles/${articleId}/`);
    expect(refunds.result.body_markdown).toContain('We refund damaged umbrellas within 5 working days.');
    expect(refunds.result.body_markdown).not.toContain('Careers');
  });

  it('answers the visitor in the widget from the knowledge base, with its source', async () => {
    sim.script({
      kind: 'json',
      value: { answer: ANSWER, confidence: 0.9, used_article_ids: [articleId], handoff: false },
      usage: { prompt_tokens: 320, completion_tokens: 40 },
    });
    await visitor.goto(shop.origin);
    await visitor.getByRole('button', { name: /^Open chat/ }).click();
    await chat().getByRole('heading', { name: 'Support' }).waitFor();
    const start = chat().getByRole('button', { name: 'Start chat' });
    if (await start.isVisible().catch(() => false)) await start.click();
    const composer = chat().getByRole('textbox', { name: 'Message' });
    await composer.fill(QUESTION);
    await composer.press('Enter');
    await log().getByText(QUESTION).waitFor();
    // The responder's loop answers within its poll interval.
    await log().getByText(ANSWER, { exact: false }).waitFor({ timeout: 30_000 });
    const url = `${titan.url}/hc/${session.businessCode}/articles/${articleId}-refunds`;
    await log().getByText(url, { exact: false }).first().waitFor();
    // The model read the article as data.
    expect(JSON.stringify(sim.requests.at(-1)!.body!.messages)).toContain('We refund damaged umbrellas');
    expect(JSON.stringify(sim.requests.at(-1)!.body!.messages)).not.toContain('Careers');
    const list = await api<{ results: { id: number }[] }>('GET', '/api/msg/conversations/');
    conversationId = list.result.results[0]!.id;
  });

  it('shows staff the answer as the AI assistant’s in the inbox, and takes their rating', async () => {
    await staff.goto(`${titan.url}/messages?conversation=${conversationId}`);
    const pane = staff.locator(`li[data-message-id]`).filter({ hasText: ANSWER });
    await pane.waitFor({ timeout: 20_000 });
    await pane.getByRole('img', { name: 'AI assistant' }).waitFor();
    const rating = pane.getByRole('group', { name: 'Rate this AI answer' });
    await rating.getByRole('button', { name: 'Bad answer' }).click();
    await pane.getByLabel('What was wrong? (optional)').fill(WHY);
    await pane.getByRole('button', { name: 'Save rating' }).click();
    await pane.getByText(`Rated bad: ${WHY}`).waitFor();
    // The run and the report carry it.
    const messages = await api<TMessage[]>('GET', `/api/msg/conversations/${conversationId}/messages/`);
    const runId = messages.result.find((m) => m.content.startsWith(ANSWER))!.meta_data.run_id as string;
    const run = await api<{ rating: string; rating_reason: string }>('GET', `/api/ai/runs/${runId}/`);
    expect(run.result).toMatchObject({ rating: 'bad', rating_reason: WHY });
    const report = await api<{ answered: number; rated_bad: number; recent_bad: { reason: string }[] }>(
      'GET',
      '/api/ai/report/',
    );
    expect(report.result).toMatchObject({ answered: 1, rated_bad: 1, recent_bad: [{ reason: WHY }] });
    // Reloaded, the rating is still there.
    await staff.reload();
    await staff
      .locator(`li[data-message-id]`)
      .filter({ hasText: ANSWER })
      .getByText(`Rated bad: ${WHY}`)
      .waitFor();
  });

  it('hands off when the visitor asks for a person: told in the widget, a note for staff', async () => {
    const chats = sim.requests.filter((r) => r.path === '/v1/chat/completions').length;
    const composer = chat().getByRole('textbox', { name: 'Message' });
    await composer.fill(HUMAN);
    await composer.press('Enter');
    await log().getByText(TOLD).waitFor({ timeout: 30_000 });
    // Decided in code, without asking the model.
    expect(sim.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(chats);
    // Staff see the AI's private note in the open conversation, live.
    await staff.getByText('AI handoff: the customer asked for a person.', { exact: false }).waitFor({
      timeout: 20_000,
    });
    const conversation = await api<{ status: string }>('GET', `/api/msg/conversations/${conversationId}/`);
    expect(conversation.result.status).toBe('active');
    expect(problems).toEqual([]);
  });

  it('lets staff read the summary note and send a copilot suggestion they edited', async () => {
    // Staff open the handed-off conversation afresh: the AI's summary note is there, for them only.
    await staff.goto(`${titan.url}/messages?conversation=${conversationId}`);
    const note = staff.locator('li[data-message-id]').filter({
      hasText: 'AI handoff: the customer asked for a person.',
    });
    await note.waitFor({ timeout: 20_000 });
    await note.getByText(`The customer asked: “${HUMAN}”`, { exact: false }).waitFor();
    const messages = await api<TMessage[]>('GET', `/api/msg/conversations/${conversationId}/messages/`);
    const summary = messages.result.find((m) => m.content.startsWith('AI handoff:'));
    expect(summary).toMatchObject({ message_type: 'note' });
    await expect.poll(() => log().textContent()).not.toContain('AI handoff');

    // The copilot drafts from the knowledge base; the draft lands in the composer, unsent.
    sim.script({
      kind: 'json',
      value: { reply: SUGGESTION, used_article_ids: [articleId] },
      usage: { prompt_tokens: 280, completion_tokens: 30 },
    });
    const pane = staff.getByRole('region', { name: 'Conversation', exact: true });
    const box = pane.getByRole('textbox', { name: 'Message' });
    await pane.getByRole('button', { name: 'Suggest a reply' }).click();
    await expect.poll(() => box.inputValue(), { timeout: 20_000 }).toBe(SUGGESTION);
    await pane
      .locator('p')
      .filter({ hasText: /^From:/ })
      .getByRole('link', { name: 'Refunds', exact: true })
      .waitFor();
    expect(JSON.stringify(sim.requests.at(-1)!.body!.messages)).toContain('We refund damaged umbrellas');
    const before = await api<TMessage[]>('GET', `/api/msg/conversations/${conversationId}/messages/`);
    expect(before.result.filter((m) => m.content.includes(SUGGESTION) && m.sender_type === 'staff')).toEqual(
      [],
    );

    // Staff edit the draft at its end and send it; the visitor reads the edited reply.
    await box.press('End');
    await box.pressSequentially(EDIT);
    await expect.poll(() => box.inputValue()).toBe(SUGGESTION + EDIT);
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
    await log()
      .getByText(SUGGESTION + EDIT)
      .waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => {
        const after = await api<TMessage[]>('GET', `/api/msg/conversations/${conversationId}/messages/`);
        return after.result
          .filter((m) => m.sender_type === 'staff' && m.message_type === 'text')
          .map((m) => m.content);
      })
      .toEqual([SUGGESTION + EDIT]);
    expect(problems).toEqual([]);
  });
});
