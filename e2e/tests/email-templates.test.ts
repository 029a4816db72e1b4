// Email templates in Chromium against the built server: an owner writes a template in the real
// code editor (CodeMirror) and sees it rendered live in the preview frame, sees a Liquid mistake
// marked at its line, saves, uploads an image that lands in the source with a public URL that
// serves it, and restores the first version. Then the visual editor: a saved brand (issue 31) offers
// its footer as a block, inserted and saved, and the stored MJML carries the footer with the
// unsubscribe link every send fills; a section saved as a block is offered in the Blocks panel.
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { callAs, signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Tess', last: 'Templates', email: `tess.${Date.now()}@example.com` };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.skipIf(!hasChromium)('email templates in Chromium', () => {
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let session: OwnerSession;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    session = await signUpOwner(server.url, owner, PASSWORD, 'Templates Browser Test');
    browser = await launchBrowser();
    context = await signedInContext(browser, server.url, session, {
      viewport: { width: 1440, height: 1000 },
    });
    page = await watchedPage(context, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const editor = () => page.getByRole('textbox', { name: 'Template content' });
  const previewFrame = async (): Promise<Frame> => {
    const handle = await page.getByTitle('Rendered email').elementHandle();
    return (await handle!.contentFrame())!;
  };

  it('writes a template with a live preview, saves it, and marks errors at their line', async () => {
    await page.goto(`${server.url}/engage/templates`);
    await page.getByRole('navigation', { name: 'Templates' }).getByRole('link', { name: 'Email' }).click();
    await page.getByRole('link', { name: 'New template', exact: true }).click();
    await page.getByRole('heading', { name: 'New email template' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Browser welcome');
    await page.getByLabel('Subject', { exact: true }).fill('Welcome, {{ customer.name }}');
    // The starter MJML greets the customer; a sample name renders in the preview.
    await editor().waitFor();
    await page.getByLabel('customer.name').fill('Grace Hopper');
    await expect
      .poll(async () => (await previewFrame()).locator('body').innerText(), { timeout: 15_000 })
      .toContain('Hello Grace Hopper,');
    await expect.poll(() => page.getByTestId('preview-subject').innerText()).toBe('Welcome, Grace Hopper');

    // A mistake in the source is marked at its line, live.
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('{% iff x %}');
    await page.getByText("Line 12: unknown tag 'iff'").waitFor({ timeout: 15_000 });
    expect(await page.locator('.cm-lint-marker-error').count()).toBeGreaterThan(0);
    for (let i = 0; i < '{% iff x %}'.length; i++) await page.keyboard.press('Backspace');
    await page.getByText("Line 12: unknown tag 'iff'").waitFor({ state: 'detached', timeout: 15_000 });

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template created').waitFor();
    await page.getByRole('heading', { name: 'Edit email template' }).waitFor();
    expect(page.url()).toMatch(/\/engage\/templates\/email\/\d+$/);
  });

  it('uploads an image into the source, with a public URL that serves it', async () => {
    await page
      .getByLabel('Insert image')
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('Image uploaded and inserted').waitFor();
    const source = await editor().innerText();
    const url = /<mj-image src="([^"]+)"/.exec(source)?.[1];
    expect(url).toMatch(new RegExp(`^${server.url}/public/template_images/\\d+/`));
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved as version 2').waitFor();
  });

  it('restores the first version as a new version', async () => {
    const versions = page.getByRole('list', { name: 'Versions' });
    await versions.getByText('Version 2').waitFor();
    await versions.getByRole('button', { name: 'Restore Version 1' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version 1 restored as version 3').waitFor();
    // The toast and the editor's new document come from one state change, but CodeMirror takes the
    // new value in its own effect after the render: read the editor until it shows version 1.
    await expect.poll(() => editor().innerText(), { timeout: 15_000 }).not.toContain('<mj-image');
    expect(problems).toEqual([]);
  });

  it('shows the rendered mail in the preview on a phone (390 px), within the screen', async () => {
    const phone = await signedInContext(browser, server.url, session, {
      viewport: { width: 390, height: 844 },
    });
    try {
      const small = await watchedPage(phone, problems);
      await small.goto(page.url());
      await small.getByRole('heading', { name: 'Edit email template' }).waitFor();
      const frame = small.getByTitle('Rendered email');
      await frame.scrollIntoViewIfNeeded();
      const body = small.frameLocator('iframe[title="Rendered email"]').locator('body');
      await expect.poll(() => body.innerText(), { timeout: 15_000 }).toContain('Hello');
      const box = (await frame.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      // What a person sees: the frame painted with the mail, not left blank. A blank frame's PNG is
      // one colour and compresses to well under 3 KB; the painted mail's is several times that.
      const painted = await frame.screenshot();
      const blank = await small.evaluate(({ width, height }) => {
        const div = document.createElement('div');
        Object.assign(div.style, { position: 'fixed', left: '0', top: '0', background: '#fff' });
        Object.assign(div.style, { width: `${width}px`, height: `${height}px`, zIndex: '99999' });
        div.id = 'blank-probe';
        document.body.append(div);
        return true;
      }, box);
      expect(blank).toBe(true);
      const white = await small.locator('#blank-probe').screenshot();
      expect(painted.length).toBeGreaterThan(white.length * 3);
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });

  it('opens an MJML template in the visual editor with its content, under the app’s content policy', async () => {
    const visualProblems: string[] = [];
    const visual = await watchedPage(context, visualProblems, { consoleErrors: true });
    await visual.goto(page.url());
    await visual.getByRole('heading', { name: 'Edit email template' }).waitFor();
    await visual.getByRole('radio', { name: 'Visual' }).click();
    await visual.getByRole('group', { name: 'Visual editor' }).waitFor({ timeout: 30_000 });
    // GrapesJS draws the email in its own canvas frame: the template's greeting is there.
    const canvas = visual.frameLocator('iframe.gjs-frame');
    await canvas.getByText('Hello', { exact: false }).first().waitFor({ timeout: 30_000 });
    await visual.waitForTimeout(500);
    expect(visualProblems).toEqual([]);
    await visual.close();
  });

  it('saves a brand, inserts its footer block in the visual editor, and stores the footer with the unsubscribe link', async () => {
    const templateUrl = page.url();
    const templateId = Number(/\/(\d+)$/.exec(templateUrl)![1]);
    await page.goto(`${server.url}/engage/templates/email`);
    await page.getByRole('link', { name: 'Brand', exact: true }).click();
    await page.getByRole('heading', { name: 'Email brand' }).waitFor();
    const brand = page.getByRole('form', { name: 'Brand' });
    await brand
      .getByLabel('Upload logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await brand.getByRole('img', { name: 'Your logo' }).waitFor();
    await brand.getByLabel('Primary colour', { exact: true }).fill('#0F766E');
    await brand.getByLabel('Font').selectOption('Georgia');
    await brand.getByLabel('Footer address').fill('Tess Templates Ltd, 9 Harbour Road, Portsmouth');
    await brand.getByRole('button', { name: 'Save brand' }).click();
    await page.getByText('Brand saved').waitFor();

    await page.goto(templateUrl);
    await page.getByRole('heading', { name: 'Edit email template' }).waitFor();
    await page.getByRole('radio', { name: 'Visual' }).click();
    await page.getByRole('group', { name: 'Visual editor' }).waitFor({ timeout: 30_000 });
    const canvas = page.frameLocator('iframe.gjs-frame');
    await canvas.getByText('Hello', { exact: false }).first().waitFor({ timeout: 30_000 });
    // A click on a block adds it at the end of the mail (no section is selected yet).
    await page.locator('.gjs-block[title="Footer"]').click();
    await canvas.getByText('9 Harbour Road', { exact: false }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/Saved as version \d+/).waitFor();

    const stored = await callAs(server.url, session, 'GET', `/api/template/${templateId}/`);
    const content = (stored.result as { content: string }).content;
    expect(content).toContain('Tess Templates Ltd, 9 Harbour Road, Portsmouth');
    expect(content).toMatch(/<a href="\{\{ unsubscribe_url \}\}"[^>]*>Unsubscribe<\/a>/);
    expect(content).toContain('font-family="Georgia, Times, serif"');

    // The section around a selected element saves as a block, offered in the Blocks panel.
    await canvas.getByText('9 Harbour Road', { exact: false }).click();
    await page.getByRole('button', { name: 'Save as block' }).click();
    await page.getByLabel('Block name').fill('Harbour footer');
    await page.getByRole('button', { name: 'Save block' }).click();
    await page.getByText('Block Harbour footer saved').waitFor();
    await page.locator('.gjs-block[title="Harbour footer"]').waitFor();
    const blocks = await callAs(server.url, session, 'GET', '/api/template/blocks/');
    expect(blocks.result).toEqual([
      expect.objectContaining({
        name: 'Harbour footer',
        content: expect.stringMatching(/^<mj-section[\s\S]*9 Harbour Road/),
      }),
    ]);
    expect(problems).toEqual([]);
  });
});
