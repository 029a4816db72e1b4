// AI agents in Chromium against the built server, tools/llm-sim as the business's model (scripted
// through its /sim/script control API) and tools/dns-sim for a verified sending domain: an owner
// creates an agent from a suggestion, turns quiet hours off and gives it a sender, previews what it
// would send (rendered), runs it now in review mode, approves the one message the model chose to
// send, and follows the run log to the sent email's page; the mail is in the development outbox.
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TRecord = { type: 'TXT' | 'CNAME'; host: string; value: string };
type TOutboxMail = { to: string; subject: string; html: string };

const PASSWORD = 'a long enough passphrase 42';
const stamp = Date.now();
const owner = { first: 'Otto', last: 'Agent', email: `otto.agent.${stamp}@example.com` };
const DOMAIN = 'agents-shop.test';
const LIST = 'Spring guests';
const GRACE = { name: 'Grace Hopper', email: `grace.${stamp}@example.org` };
const ALAN = { name: 'Alan Turing', email: `alan.${stamp}@example.org` };

describe.skipIf(!hasChromium)('AI agents in Chromium: suggestion, preview, run, review, sent mail', () => {
  let dns: DnsSim;
  let sim: LlmSim;
  let server: TitanServer;
  let session: OwnerSession;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let templateId = 0;
  const problems: string[] = [];

  const api = (method: string, path: string, body?: unknown) =>
    callAs(server.url, session, method, path, body);

  /** Queues the model's answers, one per chat completion, through the simulator's control API. */
  const script = async (...decisions: { send: boolean; reason: string }[]) => {
    const res = await fetch(`${sim.url}/sim/script`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        steps: decisions.map((d) => ({
          kind: 'json',
          // The run loop's structured answer (strict JSON schema: every field present).
          value: {
            send: d.send,
            channel: 'email',
            template_id: d.send ? templateId : null,
            variables: [],
            subject: null,
            body: null,
            reason: d.reason,
          },
          usage: { prompt_tokens: 300, completion_tokens: 40 },
        })),
      }),
    });
    expect(res.status).toBe(200);
  };
  const queued = async () =>
    ((await (await fetch(`${sim.url}/sim/state`)).json()) as { queued: number }).queued;

  beforeAll(async () => {
    dns = await startDnsSim();
    dns.setZone(DOMAIN);
    sim = await startLlmSim();
    server = await startTitan({
      env: {
        NODE_ENV: 'development',
        DNS_SERVERS: dns.address,
        LLM_BASE_URL: sim.baseUrl,
        LLM_API_KEY: DEFAULT_SIM_KEY,
        LLM_MODEL: DEFAULT_SIM_MODEL,
      },
    });
    session = await signUpOwner(server.url, owner, PASSWORD, 'Agents Browser Test');

    // What the business has: a verified sending domain, a template, a list of two customers.
    const domain = await api('POST', '/api/email/domains/', { domain: DOMAIN });
    expect(domain.status).toBe(201);
    const { id: domainId, records } = domain.result as { id: number; records: TRecord[] };
    for (const record of records) dns.setRecord(record.host, record.type, record.value);
    expect((await api('POST', `/api/email/domains/${domainId}/verify/`)).status).toBe(200);
    const template = await api('POST', '/api/template/', {
      name: 'Spring reminder',
      subject: 'See you soon, {{ customer.name }}',
      format: 'mjml',
      content:
        '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ customer.name }}, your spring visit is coming up.</mj-text></mj-column></mj-section></mj-body></mjml>',
    });
    expect(template.status).toBe(201);
    templateId = (template.result as { id: number }).id;
    const ids: number[] = [];
    for (const customer of [GRACE, ALAN]) {
      const res = await fetch(`${server.url}/api/public/customers/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ business_code: session.businessCode, ...customer }),
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { result: { customer: { id: number } } }).result.customer.id);
    }
    // Agents write only to customers who subscribed (consent_mode defaults to subscribed).
    for (const id of ids) {
      const res = await api('PUT', `/api/business/customer-directory/${id}/`, { email_status: 'subscribed' });
      expect(res.status).toBe(200);
    }
    const list = await api('POST', '/api/business/customer-lists/', { name: LIST, kind: 'static' });
    expect(list.status).toBe(201);
    const listId = (list.result as { id: number }).id;
    expect(
      (await api('POST', `/api/business/customer-lists/${listId}/members/`, { customer_ids: ids })).status,
    ).toBe(200);

    browser = await launchBrowser();
    context = await signedInContext(browser, server.url, session, {
      viewport: { width: 1440, height: 1000 },
    });
    page = await watchedPage(context, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
    await dns?.close();
  });

  it('creates an agent from a suggestion, previews it, runs it, approves a message and finds the sent mail', async () => {
    // 1. No agents yet: the suggestions fit what the business has; one opens as a draft.
    await page.goto(`${server.url}/engage`);
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByText('No agents yet').waitFor();
    await page.getByText(`The list “${LIST}” has 2 customers.`).waitFor();
    await page.getByRole('button', { name: `Start from “Reminder for ${LIST}”` }).click();
    await page.getByRole('heading', { level: 1, name: `Reminder for ${LIST}` }).waitFor();
    await page.getByText('Draft', { exact: true }).waitFor();
    expect(page.url()).toMatch(/\/engage\/agent\/\d+$/);
    const agentId = Number(page.url().split('/').at(-1));
    expect(await page.getByRole('checkbox', { name: new RegExp(LIST) }).isChecked()).toBe(true);
    expect(await page.getByLabel('Email template').inputValue()).toBe(String(templateId));

    // 2. A sender on the verified domain, no quiet hours (the test may run at night), and saved as a
    //    new configuration version; the schedule in words with its next runs.
    await page.getByLabel('Send from (Email, optional)').fill(`news@${DOMAIN}`);
    await page.getByRole('checkbox', { name: 'Never send during quiet hours' }).uncheck();
    await page.getByLabel('Repeat').selectOption('weekly');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByTestId('schedule-words').getByText('Every Monday at 09:00, Europe/Berlin').waitFor();
    expect(await page.getByRole('list', { name: 'Next runs' }).getByRole('listitem').count()).toBe(5);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Agent saved — configuration version 2').waitFor();
    const saved = (await api('GET', `/api/agents/${agentId}/`)).result as {
      config: { channels: { from?: string }[]; quiet_hours: unknown; version: number };
      schedule: { cron: string; timezone: string };
    };
    expect(saved.config.channels[0]!.from).toBe(`news@${DOMAIN}`);
    expect(saved.config.quiet_hours).toBeNull();
    expect(saved.schedule).toMatchObject({ cron: '0 9 * * 1', timezone: 'Europe/Berlin' });

    // 3. The preview: the model (scripted) writes to Grace and not to Alan; Grace's mail is rendered.
    await script(
      { send: true, reason: 'Grace has a spring visit coming up.' },
      { send: false, reason: 'Alan was reminded yesterday.' },
    );
    await page.getByLabel('Customers', { exact: true }).selectOption('3');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const frameOf = async (title: string): Promise<Frame> =>
      (await (await page.getByTitle(title).elementHandle())!.contentFrame())!;
    await page.getByTitle(`Email to ${GRACE.name}`).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await frameOf(`Email to ${GRACE.name}`)).locator('body').innerText())
      .toContain(`Hello ${GRACE.name}, your spring visit is coming up.`);
    await page.getByText(`See you soon, ${GRACE.name}`).waitFor();
    await page.getByText('Alan was reminded yesterday.').waitFor();
    expect(await queued()).toBe(0);
    // Nothing was sent by the preview.
    const outboxOf = async (email: string) =>
      (
        (await (await fetch(`${server.url}/api/dev/outbox/?to=${encodeURIComponent(email)}`)).json()) as {
          result: TOutboxMail[];
        }
      ).result;
    expect(await outboxOf(GRACE.email)).toEqual([]);

    // 4. Run now, in review mode: Grace's message waits for approval.
    await script(
      { send: true, reason: 'Grace has a spring visit coming up.' },
      { send: false, reason: 'Alan was reminded yesterday.' },
    );
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('Run started.').waitFor();

    // 5. The run log: the email tab lists the run; its page shows the steps and the review queue.
    await page.getByRole('link', { name: 'Run log' }).click();
    await page.getByRole('heading', { level: 1, name: `Run log: Reminder for ${LIST}` }).waitFor();
    const runs = page.getByRole('table', { name: 'Email runs' });
    const manual = runs.getByRole('row').filter({ hasText: 'Run now' });
    await manual.getByText('Waiting for approval').waitFor({ timeout: 30_000 });
    await manual.getByRole('link').first().click();
    await page.getByRole('region', { name: 'Waiting for your approval' }).waitFor();
    await page.getByText('1 message waits for you to approve or reject it.').waitFor();
    const steps = page.getByRole('list', { name: 'Steps of this run' });
    await steps.getByText('Decides to send: Grace has a spring visit coming up.').waitFor();
    await steps.getByText('Decides not to send: Alan was reminded yesterday.').waitFor();
    const messages = page.getByRole('table', { name: 'Messages of this run' });
    await messages.getByText('Alan was reminded yesterday.').waitFor();

    // 6. Approve Grace's message: it is sent, and its row links to the email's page.
    await page.getByRole('button', { name: `Approve the message to ${GRACE.name}` }).click();
    await page.getByText('1 message approved: it is being sent.').waitFor();
    const open = page.getByRole('link', { name: `Open the sent message to ${GRACE.name}` });
    await open.waitFor({ timeout: 30_000 });
    await open.click();
    await page.waitForURL(/\/engage\/event-logs\/emails\/[^/]+$/);
    await page.getByText(`See you soon, ${GRACE.name}`).first().waitFor();
    await page.getByText(GRACE.email).first().waitFor();

    // The mail itself reached the (development) outbox, once.
    await expect
      .poll(async () => (await outboxOf(GRACE.email)).map((m) => m.subject), { timeout: 20_000 })
      .toEqual([`See you soon, ${GRACE.name}`]);
    expect(await outboxOf(ALAN.email)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
