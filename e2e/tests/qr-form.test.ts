// The QR visitor form in Chromium against the built server: an owner shapes the form in Settings
// (live preview) and saves it, gets its QR code; a visitor on a phone-sized screen, signed out,
// opens the form's address, fills it in (digits-only phone) and is thanked; the owner finds them
// in the visitor directory with their consent.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext } from '../support/browser';
import { signUpOwner } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TVisitor = {
  id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  email_status: string;
  sms_status: string;
};

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Quinn', last: 'Qr', email: `quinn.${Date.now()}@example.com` };

describe.skipIf(!hasChromium)('QR visitor form in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let staff: BrowserContext;
  let page: Page;
  let access = '';
  let businessCode = '';
  let formUrl = '';
  const problems: string[] = [];

  async function api<T>(path: string, init: { method?: string; body?: unknown } = {}) {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${access}`,
        'x-business-code': businessCode,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, result: ((await res.json()) as { result: T }).result };
  }

  function watch(p: Page, label: string) {
    p.on('pageerror', (err) => problems.push(`${label} pageerror: ${err.message}`));
    p.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`${label} console: ${msg.text()}`);
    });
  }

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    const session = await signUpOwner(server.url, owner, PASSWORD, 'Corner Cafe');
    access = session.access;
    businessCode = session.businessCode;
    // National numbers typed on the form are read with the business's dial code.
    expect((await api('/api/business/', { method: 'PUT', body: { dial_code: '+44' } })).status).toBe(200);
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1280, height: 900 } });
    page = await staff.newPage();
    watch(page, 'staff');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lets an owner shape the form beside its preview, save it and get its QR code', async () => {
    await page.goto(`${server.url}/engage/settings/business`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'QR form' }).click();
    await page.waitForURL(`${server.url}/engage/settings/qr-form`);
    await page.getByText('Save the form to get its QR code.').waitFor();

    const editor = page.getByRole('form', { name: 'QR form' });
    const preview = page.getByRole('region', { name: 'Preview' });
    await editor.getByLabel('Title', { exact: true }).fill('Join the Corner Cafe club');
    await preview.getByRole('heading', { name: 'Join the Corner Cafe club' }).waitFor();
    await editor.getByRole('button', { name: 'Add field' }).click();
    const phone = editor.getByRole('group', { name: 'Field 3' });
    await phone.getByLabel('Label').fill('Mobile');
    await phone.getByLabel('Type').selectOption('phone');
    await editor.getByLabel('SMS', { exact: true }).check();
    await preview.getByLabel('Yes, Corner Cafe may send me text messages (SMS).').waitFor();
    await editor.getByRole('button', { name: 'Save form' }).click();
    await page.getByText('QR form saved').waitFor();

    const code = page.getByRole('img', { name: /^QR code that opens / });
    await code.waitFor();
    formUrl = (await page.getByRole('link', { name: 'Open the form' }).getAttribute('href')) ?? '';
    expect(formUrl).toBe(`${server.url}/v/${businessCode}/join`);
    // The image is the server's SVG, drawn by the browser.
    expect(await code.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  });

  it('lets a visitor on a phone fill in the form, signed out, and thanks them', async () => {
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const form = await visitor.newPage();
    watch(form, 'visitor');
    await form.goto(formUrl);
    await form.getByRole('heading', { level: 1, name: 'Join the Corner Cafe club' }).waitFor();
    expect(await form.getByLabel('Mobile: country code').inputValue()).toBe('44');
    await form.getByLabel('Name', { exact: true }).fill('Pat Visitor');
    await form.getByLabel('Email', { exact: true }).fill('Pat@Example.com');
    // The numeric-only key handler: letters and signs typed into the phone field are dropped.
    await form.getByLabel('Mobile (optional)').pressSequentially('07911 12x3456');
    expect(await form.getByLabel('Mobile (optional)').inputValue()).toBe('07911123456');
    await form.getByLabel('Yes, Corner Cafe may send me emails with news and offers.').check();
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await form.getByText('Your details are with Corner Cafe.').waitFor();
    await visitor.close();
  });

  it('shows the visitor in the directory with the consent they gave', async () => {
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Visitor directory' })
      .click();
    await page.waitForURL(`${server.url}/engage/directory`);
    await page.getByRole('table', { name: 'Visitors' }).getByRole('link', { name: 'Pat Visitor' }).waitFor();

    const found = await api<{ results: TVisitor[] }>('/api/business/customer-directory/?search=pat');
    expect(found.result.results).toMatchObject([
      {
        name: 'Pat Visitor',
        email: 'pat@example.com',
        phone: '+447911123456',
        email_status: 'subscribed',
        sms_status: 'unknown',
      },
    ]);
    const schema = await api<{ submission_count: number }>('/api/business/qr-schema/');
    expect(schema.result.submission_count).toBe(1);
  });

  it('logged nothing to the console and threw nothing on any page', () => {
    expect(problems).toEqual([]);
  });
});
