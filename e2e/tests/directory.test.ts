// The visitor directory and the chat group screens in Chromium against the built server: an owner
// creates a chat group with a visitor form through the UI; a visitor arrives through the public API
// (as the widget would send them) and shows up in /engage/directory, where search finds them; the
// owner corrects their name, sets their consent (shown in the directory, and in the CSV export the
// directory downloads) and deletes them; the group's embed settings give its snippet.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { unwrap } from '@titan/client';
import { signUpOwner, titanAs } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TVisitor = { id: number; name: string | null; email: string | null; fields: Record<string, unknown> };

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Dora', last: 'Director', email: `dora.${Date.now()}@example.com` };
const GROUP = 'Support Desk';
const SLUG = 'support-desk';
const VISITOR = { name: 'Vera Visitor', email: 'vera@example.com' };
const OTHER = { name: 'Otto Other', email: 'otto@example.com' };

describe.skipIf(!hasChromium)('visitor directory and chat groups in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let access = '';
  let businessCode = '';
  let visitorId = 0;
  const problems: string[] = [];

  async function api<T>(
    path: string,
    init: { method?: string; body?: unknown; staff?: boolean } = {},
  ): Promise<{ status: number; result: T }> {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.staff ? { authorization: `Bearer ${access}`, 'x-business-code': businessCode } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const json = (await res.json()) as { result: T };
    return { status: res.status, result: json.result };
  }

  /** Signs up, verifies and logs in an owner of a new business; answers the session. */
  const createOwnerSession = () => signUpOwner(server.url, owner, PASSWORD, 'Directory Browser Test');

  function visitorsTable() {
    return page.getByRole('table', { name: 'Visitors' });
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    const session = await createOwnerSession();
    access = session.access;
    businessCode = session.businessCode;
    browser = await launchBrowser();
    context = await signedInContext(browser, server.url, session, { viewport: { width: 1280, height: 900 } });
    page = await watchedPage(context, problems, { consoleErrors: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lets an owner create a chat group with a visitor form through the UI', async () => {
    await page.goto(`${server.url}/engage/settings/business`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Chat groups' })
      .click();
    await page.waitForURL(`${server.url}/engage/settings/chat-groups`);
    await page.getByText('No chat groups yet.').waitFor();

    await page.getByRole('button', { name: 'New chat group' }).click();
    const form = page.getByRole('form', { name: 'Chat group' });
    await form.getByLabel('Name', { exact: true }).fill(GROUP);
    expect(await form.getByLabel('Slug').inputValue()).toBe(SLUG);
    await form.getByLabel('Greeting').fill('Hello! Tell us who you are.');

    await form.getByRole('button', { name: 'Add field' }).click();
    const company = form.getByRole('group', { name: 'Field 1' });
    await company.getByLabel('Label').fill('Company');
    expect(await company.getByLabel('Field name').inputValue()).toBe('company');
    await company.getByLabel('Required').check();

    await form.getByRole('button', { name: 'Add field' }).click();
    const plan = form.getByRole('group', { name: 'Field 2' });
    await plan.getByLabel('Label').fill('Plan');
    await plan.getByLabel('Type').selectOption('select');
    await plan.getByLabel('Options').fill('Free\nPro');

    await form.getByRole('button', { name: 'Create chat group' }).click();
    await page.getByText(`${GROUP} was created.`).waitFor();
    await page.getByRole('heading', { name: `Edit ${GROUP}` }).waitFor();

    // Read through the typed client (@titan/client), as any integration would.
    const groups = await unwrap(titanAs(server.url, { access, businessCode }).GET('/api/msg/chat-groups/'));
    expect(groups).toMatchObject([
      {
        name: GROUP,
        slug: SLUG,
        visitor_form: [
          { name: 'company', label: 'Company', type: 'text', required: true },
          { name: 'plan', label: 'Plan', type: 'select', required: false, options: ['Free', 'Pro'] },
        ],
      },
    ]);
  });

  it('shows a visitor who filled the group’s form in the directory, and search finds them', async () => {
    const created = await api<{ customer: { id: number } }>('/api/public/customers/', {
      body: {
        business_code: businessCode,
        group_slug: SLUG,
        ...VISITOR,
        fields: { company: 'Initech', plan: 'Pro' },
      },
    });
    expect(created.status, 'POST /api/public/customers/ (the public visitor API)').toBe(201);
    visitorId = created.result.customer.id;
    const other = await api('/api/public/customers/', {
      body: { business_code: businessCode, group_slug: SLUG, ...OTHER, fields: { company: 'Globex' } },
    });
    expect(other.status).toBe(201);

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Visitor directory' })
      .click();
    await page.waitForURL(`${server.url}/engage/directory`);
    await visitorsTable().getByRole('link', { name: VISITOR.name }).waitFor();
    await visitorsTable().getByRole('link', { name: OTHER.name }).waitFor();

    await page.getByRole('searchbox', { name: 'Search visitors' }).fill('vera');
    await page.waitForURL(`${server.url}/engage/directory?search=vera`);
    await visitorsTable().getByRole('link', { name: OTHER.name }).waitFor({ state: 'detached' });
    expect(await visitorsTable().getByRole('row').count()).toBe(2);
    await visitorsTable().getByRole('link', { name: VISITOR.name }).click();

    await page.waitForURL(`${server.url}/engage/directory/visitor/${visitorId}`);
    await page.getByRole('heading', { name: VISITOR.name, level: 1 }).waitFor();
    const answers = page.getByLabel('Visitor form answers');
    await answers.getByText('Initech').waitFor();
    await answers.getByText('Pro').waitFor();
  });

  it('lets the owner correct the visitor’s name', async () => {
    const form = page.getByRole('form', { name: 'Edit visitor' });
    await form.getByLabel('Name (optional)').fill('Vera V. Visitor');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Visitor updated').waitFor();
    await page.getByRole('heading', { name: 'Vera V. Visitor', level: 1 }).waitFor();

    const saved = await unwrap(
      titanAs(server.url, { access, businessCode }).GET('/api/business/customer-directory/{id}/', {
        params: { path: { id: visitorId } },
      }),
    );
    expect(saved).toMatchObject({ name: 'Vera V. Visitor', email: VISITOR.email });
  });

  it('sets the visitor’s consent, shown in the directory and in its CSV export', async () => {
    const consent = page.getByRole('form', { name: 'Edit consent' });
    await consent.getByLabel('Email').selectOption('unsubscribed');
    await consent.getByRole('button', { name: 'Save consent' }).click();
    await page.getByText('Consent updated').waitFor();
    const saved = await api<TVisitor & { email_status: string }>(
      `/api/business/customer-directory/${visitorId}/`,
      { staff: true },
    );
    expect(saved.result.email_status).toBe('unsubscribed');

    await page.goto(`${server.url}/engage/directory`);
    const row = visitorsTable().getByRole('row').filter({ hasText: 'Vera V. Visitor' });
    await row.getByText('Email: Unsubscribed').waitFor();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^visitors-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'id,name,email,phone,external_id,email_status,sms_status,whatsapp_status,created_at,last_seen_at,fields',
    );
    expect(csv).toContain(`${visitorId},Vera V. Visitor,vera@example.com,,,unsubscribed,unknown,unknown,`);
    expect(csv).toContain('Otto Other');

    await visitorsTable().getByRole('link', { name: 'Vera V. Visitor' }).click();
    await page.getByRole('heading', { name: 'Vera V. Visitor', level: 1 }).waitFor();
  });

  it('lets the owner delete the visitor after confirming', async () => {
    await page.getByRole('button', { name: 'Delete visitor' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete Vera V. Visitor?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();

    await page.waitForURL(`${server.url}/engage/directory`);
    await page.getByText('Vera V. Visitor was deleted.').waitFor();
    await visitorsTable().getByRole('link', { name: OTHER.name }).waitFor();
    // The list the export step left cached refetches without her.
    await visitorsTable().getByRole('link', { name: 'Vera V. Visitor' }).waitFor({ state: 'detached' });

    const gone = await api(`/api/business/customer-directory/${visitorId}/`, { staff: true });
    expect(gone.status).toBe(404);
  });

  it('gives the group’s embed snippet with the business code and the group slug', async () => {
    await page.goto(`${server.url}/engage/settings/chat-groups`);
    await page.getByRole('link', { name: `Embed settings of ${GROUP}` }).click();
    await page.waitForURL(`${server.url}/messages/settings/embed/g/${SLUG}/`);
    await page.getByRole('heading', { name: `Embed settings: ${GROUP}`, level: 1 }).waitFor();

    const snippet = await page.getByLabel('Embed code').textContent();
    expect(snippet).toBe(
      `<script async src="${server.url}/widget.js" data-business="${businessCode}" data-group="${SLUG}"></script>`,
    );
    expect(await page.getByRole('link', { name: 'Open hosted chat page' }).getAttribute('href')).toBe(
      `/messages/chat/${businessCode}/g/${SLUG}`,
    );
    // The live preview shows the group's form.
    const preview = page.getByRole('region', { name: 'Widget preview' });
    await preview.getByText('Hello! Tell us who you are.').waitFor();
    await preview.getByLabel('Company *').waitFor();

    // The inbox header leads managers to the business-wide embed settings.
    await page.goto(`${server.url}/messages`);
    await page.getByRole('link', { name: 'Embed settings' }).click();
    await page.waitForURL(`${server.url}/messages/settings/embed/b/${businessCode}/`);
    expect(await page.getByLabel('Embed code').textContent()).toBe(
      `<script async src="${server.url}/widget.js" data-business="${businessCode}"></script>`,
    );
  });

  it('turns identity verification on and rotates the secret after the warning', async () => {
    await page.getByRole('button', { name: 'Turn on identity verification' }).click();
    await page.getByRole('button', { name: 'Turn off identity verification' }).waitFor();
    const settings = async () =>
      (await api<{ identity_secret: string | null }>('/api/msg/widget-settings/', { staff: true })).result;
    const first = (await settings()).identity_secret;
    expect(first).toBeTruthy();

    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await page
      .getByLabel('Identity secret')
      .getByText(first ?? '-')
      .waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Rotate the identity secret?' });
    await dialog.getByText(/breaks existing site signatures/).waitFor();
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('A new identity secret is in place.').waitFor();

    const second = (await settings()).identity_secret;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    await page
      .getByLabel('Identity secret')
      .getByText(second ?? '-')
      .waitFor();
  });

  it('logged nothing to the console and threw nothing on any page', () => {
    expect(problems).toEqual([]);
  });
});
