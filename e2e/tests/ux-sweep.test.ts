// The UX sweep: every route of the web app (apps/web/src/app/router.tsx), detail pages included (their
// objects made first through the API), at 1440×900 and 390×844, light and dark. A page fails on
// horizontal overflow (the document wider than the window, or a visible button or link reaching past
// it outside a sideways-scrolling container), on console errors, and on serious or critical axe-core
// violations. Screenshots land in e2e/artifacts/ux-sweep/ (gitignored; CI keeps them in place).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext } from '../support/browser';
import { repoRoot } from '../support/paths';
import { startTitan, type TitanServer } from '../support/server';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';

type TRecord = { type: 'TXT' | 'CNAME'; host: string; value: string };

const ARTIFACTS = join(repoRoot, 'e2e/artifacts/ux-sweep');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'a long enough passphrase 42';
const stamp = Date.now();
const DOMAIN = 'a-rather-long-subdomain.sweep-shop-example.test';

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** The settings tabs (apps/web/src/config/paths.ts SETTINGS_TABS). */
const SETTINGS_TABS = [
  'business',
  'team',
  'chat-groups',
  'whatsapp',
  'sms',
  'email-domains',
  'ai-model',
  'mcp-servers',
  'plugins',
  'api-keys',
  'profile',
  'security',
  'audit-log',
  'qr-form',
  'billing',
];

/** The API's answer for a channel account not connected yet is 404: the settings tab then shows
 * its connect form. Any other failed request fails the sweep. */
const NOT_CONNECTED = ['/api/whatsapp/account/', '/api/sms/account/'];

type TRoute = { name: string; path: string; signedIn: boolean };

/** What one page shows wrong: overflow, clipped controls, console errors, axe violations. */
async function inspect(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width) {
      // Name the outermost elements reaching past the window, so the fix is findable.
      const wide = Array.from(document.body.querySelectorAll('*')).filter((el) => {
        const box = el.getBoundingClientRect();
        const parent = el.parentElement?.getBoundingClientRect();
        return box.right > width + 1 && (!parent || parent.right <= width + 1);
      });
      const names = wide
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 4).join('.')}`);
      problems.push(
        `page is ${document.documentElement.scrollWidth}px wide in a ${width}px window (${names.join('; ')})`,
      );
    }
    /** Inside a container that scrolls sideways (the cue is the container's scrollbar) or clips. */
    const contained = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) return true;
      }
      return false;
    };
    for (const el of Array.from(
      document.querySelectorAll('a[href], button, [role="button"], [role="tab"]'),
    )) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      if ((box.right > width + 1 || box.left < -1) && !contained(el)) {
        const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        problems.push(`control “${label}” spans ${Math.round(box.left)}–${Math.round(box.right)}px`);
      }
    }
    return problems;
  });
  // Evaluated over the DevTools protocol: the app's CSP (rightly) refuses inline script tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
    };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `axe ${v.impact} ${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 4)
            .join(', ')}`,
      );
  });
  return [...found, ...violations];
}

/** Waits until the screen has a heading and nothing is still loading. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page
    .waitForFunction(
      () =>
        document.querySelector('h1') !== null &&
        document.querySelector('[aria-busy="true"], .animate-spin, [data-loading]') === null,
      undefined,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

describe.skipIf(!hasChromium)('UX sweep: every route at two sizes and two themes', () => {
  let dns: DnsSim;
  let sim: LlmSim;
  let server: TitanServer;
  let session: OwnerSession;
  let browser: Browser;
  const routes: TRoute[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await callAs(server.url, session, method, path, body);
    if (res.status >= 300)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.result)}`);
    return res.result as Record<string, unknown>;
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
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
    session = await signUpOwner(
      server.url,
      { first: 'Sweep', last: 'Owner', email: `sweep.owner.${stamp}@example.com` },
      PASSWORD,
      'Sweep Shop',
    );

    // The objects behind the detail pages: a verified sending domain, a template, two subscribed
    // customers in a list, a chat group, an agent with a run that sent one email.
    const domain = await api('POST', '/api/email/domains/', { domain: DOMAIN });
    for (const record of domain.records as TRecord[]) dns.setRecord(record.host, record.type, record.value);
    await api('POST', `/api/email/domains/${domain.id as number}/verify/`);
    // A second, unverified domain: its records show on the Email domains tab.
    await api('POST', '/api/email/domains/', { domain: 'mail.another-very-long-hostname-example.test' });
    const template = await api('POST', '/api/template/', {
      name: 'Spring reminder',
      subject: 'See you soon, {{ customer.name }}',
      format: 'mjml',
      content:
        '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ customer.name }}, your spring visit is coming up.</mj-text></mj-column></mj-section></mj-body></mjml>',
    });
    const customerIds: number[] = [];
    for (const customer of [
      { name: 'Grace Hopper', email: `grace.${stamp}@example.org` },
      { name: 'Alan Turing', email: `alan.${stamp}@example.org` },
    ]) {
      const res = await fetch(`${server.url}/api/public/customers/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ business_code: session.businessCode, ...customer }),
      });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { result: { customer: { id: number } } }).result.customer.id;
      await api('PUT', `/api/business/customer-directory/${id}/`, { email_status: 'subscribed' });
      customerIds.push(id);
    }
    const list = await api('POST', '/api/business/customer-lists/', {
      name: 'Spring guests',
      kind: 'static',
    });
    await api('POST', `/api/business/customer-lists/${list.id as number}/members/`, {
      customer_ids: customerIds,
    });
    const group = await api('POST', '/api/msg/chat-groups/', { name: 'Front desk', slug: 'front-desk' });

    const suggestions = (await callAs(server.url, session, 'GET', '/api/agents/get-suggested-agents/'))
      .result as {
      name: string;
      config: Record<string, unknown> & { channels: Record<string, unknown>[] };
    }[];
    const suggestion = suggestions[0]!;
    const agent = await api('POST', '/api/agents/', {
      name: suggestion.name,
      config: {
        ...suggestion.config,
        quiet_hours: null,
        channels: suggestion.config.channels.map((c) => ({ ...c, from: `news@${DOMAIN}` })),
      },
    });
    const agentId = agent.id as number;
    const decision = (send: boolean, reason: string) => ({
      kind: 'json',
      value: {
        send,
        channel: 'email',
        template_id: send ? template.id : null,
        variables: [],
        subject: null,
        body: null,
        reason,
      },
      usage: { prompt_tokens: 300, completion_tokens: 40 },
    });
    await fetch(`${sim.url}/sim/script`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        steps: [
          decision(true, 'Grace has a spring visit coming up and has not been reminded this week.'),
          decision(false, 'Alan was reminded yesterday, so another reminder now would be too much.'),
        ],
      }),
    });
    const started = (await callAs(server.url, session, 'POST', `/api/agents/${agentId}/run-now/`, {}))
      .result as { runs: { id: string; channel: string }[] };
    const run = started.runs[0]!;
    // The run finishes in the background; the sweep shows whatever state it has reached.
    for (let i = 0; i < 60; i++) {
      const r = (await callAs(server.url, session, 'GET', `/api/agents/${agentId}/runs/${run.id}/`))
        .result as {
        status?: string;
        run?: { status?: string };
      };
      const status = r.status ?? r.run?.status;
      if (status && status !== 'running' && status !== 'queued') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await callAs(server.url, session, 'POST', `/api/agents/${agentId}/runs/${run.id}/approve/`, {
      all: true,
    });
    let trackingId = 'unknown-send';
    for (let i = 0; i < 80; i++) {
      const logs = (await callAs(server.url, session, 'GET', '/api/email/events/')).result as {
        results?: { tracking_id: string }[];
      };
      if (logs.results?.[0]) {
        trackingId = logs.results[0].tracking_id;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    const add = (name: string, path: string, signedIn = true) => routes.push({ name, path, signedIn });
    add('login', '/login', false);
    add('signup', '/signup', false);
    add('forgot-password', '/forgot-password', false);
    add('dns-help', '/engage/dns-help', false);
    add('unsubscribe', '/engage/unsubscribe', false);
    add('confirm-subscription', '/engage/confirm', false);
    add('dev-outbox', '/dev/outbox', false);
    add('not-found', '/engage/no/such/page');
    add('register-business', '/register-business');
    add('join-business', '/join-existing-business');
    add('dashboard', '/engage');
    add('messages', '/messages');
    add('agents', '/engage/agent');
    add('agent-new', '/engage/agent/create');
    add('agent', `/engage/agent/${agentId}`);
    add('templates-whatsapp', '/engage/templates');
    add('templates-email', '/engage/templates/email');
    add('template-new', '/engage/templates/email/new');
    add('template', `/engage/templates/email/${template.id as number}`);
    add('ai-template', '/engage/ai-template');
    add('event-logs-email', '/engage/event-logs/emails');
    add('event-logs-whatsapp', '/engage/event-logs/whatsapp');
    add('event-logs-sms', '/engage/event-logs/sms');
    add('event-log-email', `/engage/event-logs/emails/${encodeURIComponent(trackingId)}`);
    add('agent-runs', `/engage/event-logs/agents/${agentId}`);
    add('agent-run', `/engage/event-logs/agents/${agentId}/${run.channel}/${encodeURIComponent(run.id)}`);
    add('directory', '/engage/directory');
    add('lists', '/engage/directory/lists');
    add('list', `/engage/directory/lists/${list.id as number}`);
    add('import', '/engage/directory/import');
    add('visitor', `/engage/directory/visitor/${customerIds[0]!}`);
    add('embed-business', `/messages/settings/embed/b/${session.businessCode}/`);
    add('embed-group', `/messages/settings/embed/g/${group.slug as string}/`);
    for (const tab of SETTINGS_TABS) add(`settings-${tab}`, `/engage/settings/${tab}`);

    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
    await dns?.close();
  });

  for (const size of SIZES) {
    for (const theme of THEMES) {
      it(`${size.width}×${size.height} ${theme}`, { timeout: 240_000 }, async () => {
        const options = { viewport: { width: size.width, height: size.height }, colorScheme: theme };
        const contexts: Record<'in' | 'out', BrowserContext> = {
          in: await signedInContext(browser, server.url, session, options),
          out: await browser.newContext(options),
        };
        const failures: string[] = [];
        // One page per context, reused: each route is a full load, errors collected per route.
        let errors: string[] = [];
        const pages: Record<'in' | 'out', Page> = {
          in: await contexts.in.newPage(),
          out: await contexts.out.newPage(),
        };
        for (const page of Object.values(pages)) {
          page.on('console', (msg) => {
            // A failed request is reported below with its address.
            if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
              errors.push(`console: ${msg.text().slice(0, 200)}`);
          });
          page.on('response', (res) => {
            const path = new URL(res.url()).pathname;
            if (res.status() >= 400 && !(res.status() === 404 && NOT_CONNECTED.includes(path)))
              errors.push(`${res.status()} from ${res.request().method()} ${res.url()}`);
          });
          page.on('pageerror', (err) => errors.push(`pageerror: ${err.message.slice(0, 200)}`));
        }
        try {
          for (const route of routes) {
            const page = pages[route.signedIn ? 'in' : 'out'];
            errors = [];
            await page.goto(`${server.url}${route.path}`);
            await settled(page);
            const problems = [...(await inspect(page)), ...errors];
            await page.screenshot({
              path: join(ARTIFACTS, `${route.name}-${size.name}-${theme}.png`),
              fullPage: true,
            });
            for (const problem of problems)
              failures.push(`${route.path} (${size.name} ${theme}): ${problem}`);
          }
        } finally {
          await contexts.in.close();
          await contexts.out.close();
        }
        console.log(`ux-sweep screenshots: ${ARTIFACTS}`);
        expect(failures).toEqual([]);
      });
    }
  }
});
