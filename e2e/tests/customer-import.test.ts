// The CSV import in Chromium against the built server: an owner opens Import from the audience
// area, picks a file of 10,000 customers with some bad rows, sees its first rows and the columns
// matched from their names (and changes one), fills a static list, watches the progress bar move
// batch by batch to its end (pushed over the realtime socket), downloads the skipped and failed
// rows as CSV with their reasons, and finds an imported customer in the directory.
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { signUpOwner } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Ivy', last: 'Importer', email: `ivy.${Date.now()}@example.com` };
const ROWS = 10_000;

/** 10,000 customers; rows 3, 4, 5 and 6 (as a spreadsheet numbers them) are bad or repeated. */
function customersCsv(): string {
  const lines = ['Full Name,E-mail,Phone,Company,Notes'];
  for (let i = 1; i <= ROWS; i++) {
    if (i === 2) lines.push('Bad Email,not-an-email,,Initech,');
    else if (i === 3) lines.push('Nobody,,,Initech,no contact at all');
    else if (i === 4) lines.push('Ada Again,ADA@example.com,,Initech,');
    else if (i === 5) lines.push('Bad Phone,,12,Initech,');
    else if (i === 1)
      lines.push('Ada Lovelace,ada@example.com,+44 7911 123456,Analytical Engines,"first, and best"');
    else lines.push(`Customer ${i},customer${i}@example.com,,Company ${i % 50},`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe.skipIf(!hasChromium)('customer import in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let access = '';
  let businessCode = '';
  const problems: string[] = [];

  async function api<T>(path: string, body?: unknown): Promise<{ status: number; result: T }> {
    const res = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${access}`,
        'x-business-code': businessCode,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, result: ((await res.json()) as { result: T }).result };
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    const session = await signUpOwner(server.url, owner, PASSWORD, 'Import Browser Test');
    access = session.access;
    businessCode = session.businessCode;
    browser = await launchBrowser();
    context = await signedInContext(browser, server.url, session, {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    page = await watchedPage(context, problems, { consoleErrors: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('imports a file through the wizard, with live progress, the errors CSV and the list filled', async () => {
    const list = await api<{ id: number }>('/api/business/customer-lists/', { name: 'Imported leads' });
    expect(list.status).toBe(201);

    await page.goto(`${server.url}/engage/directory`);
    await page.getByRole('navigation', { name: 'Audience' }).getByRole('link', { name: 'Import' }).click();
    await page.waitForURL(`${server.url}/engage/directory/import`);
    await page.getByRole('heading', { name: 'Import customers', level: 1 }).waitFor();

    await page.getByLabel('Choose a file').setInputFiles({
      name: 'leads.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(customersCsv()),
    });
    const preview = page.getByRole('table', { name: 'First rows of the file' });
    await preview.waitFor();
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual([
      'full name',
      'e-mail',
      'phone',
      'company',
      'notes',
    ]);
    await preview.getByRole('cell', { name: 'first, and best' }).waitFor();
    expect(await preview.getByRole('row').count()).toBe(6);
    await page.getByText('leads.csv').waitFor();
    expect(await page.getByLabel('Column “e-mail”').inputValue()).toBe('email');
    expect(await page.getByLabel('Column “full name”').inputValue()).toBe('name');
    expect(await page.getByLabel('Column “company”').inputValue()).toBe('field:company');
    await page.getByLabel('Column “notes”').selectOption('ignore');
    await page.getByLabel('Add them to a list').selectOption({ label: 'Imported leads' });
    // Nothing starts before the consent question is answered; "subscribed" needs its proof.
    expect(await page.getByRole('button', { name: 'Start import' }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: /They subscribed \(I keep proof\)/ }).check();
    await page
      .getByLabel('Proof: where and when they agreed')
      .fill('Trade fair sign-up sheets, Leeds, May 2026');
    await page.getByRole('checkbox', { name: 'WhatsApp' }).uncheck();

    // Every change of the bar is recorded, so its steps can be looked at once it is done.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        const now = bar?.getAttribute('aria-valuenow');
        if (now && seen.at(-1) !== now) seen.push(now);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('button', { name: 'Start import' }).click();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    await page.waitForURL(/\/engage\/directory\/import\?id=[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 120_000 });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    const steps = (
      await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)
    ).map(Number);
    // It moved through the batches to the end, never back.
    expect(steps.at(-1)).toBe(100);
    expect(steps.some((v) => v > 0 && v < 100)).toBe(true);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));

    const counts = page.getByLabel('Import results');
    const count = async (term: string) =>
      (
        await counts
          .locator('div', { has: page.getByText(term, { exact: true }) })
          .locator('dd')
          .textContent()
      )?.trim();
    expect(await count('Added')).toBe((ROWS - 4).toLocaleString('en-US'));
    expect(await count('Updated')).toBe('0');
    expect(await count('Skipped')).toBe('1');
    expect(await count('Failed')).toBe('3');
    await page.getByText('Delimiter: comma · Consent: subscribed (email, sms)').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download skipped and failed rows (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^import-[0-9a-f-]{36}-errors\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.trim().split('\r\n')).toEqual([
      'row,reason,full name,e-mail,phone,company,notes',
      '3,Invalid email address “not-an-email”.,Bad Email,not-an-email,,Initech,',
      '4,No email address or phone number.,Nobody,,,Initech,no contact at all',
      // A cell holding ";" is quoted, so semicolon locales keep it one cell.
      '5,"Same email address as row 2; skipped.",Ada Again,ADA@example.com,,Initech,',
      // (A reason with a comma is quoted.)
      '6,"Invalid phone number “12” (no country code, and the business has no dial code set).",Bad Phone,,12,Initech,',
    ]);

    const members = await api<{ member_count: number }>(`/api/business/customer-lists/${list.result.id}/`);
    expect(members.result.member_count).toBe(ROWS - 4);
  });

  it('finds an imported customer in the directory, with the fields the mapping kept', async () => {
    await page.getByRole('link', { name: 'View the directory' }).click();
    await page.waitForURL(`${server.url}/engage/directory`);
    await page.getByRole('searchbox', { name: 'Search visitors' }).fill('lovelace');
    const table = page.getByRole('table', { name: 'Visitors' });
    await table.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    await page.getByText('ada@example.com').first().waitFor();
    await page.getByText('+447911123456').first().waitFor();
    const answers = page.getByLabel('Visitor form answers');
    await answers.getByText('Analytical Engines').waitFor();
    // Notes were set to "Do not import".
    expect(await answers.getByText('first, and best').count()).toBe(0);
  });

  it('logged nothing to the console and threw nothing on any page', () => {
    expect(problems).toEqual([]);
  });
});
