// AI email templates in Chromium against the built server and tools/llm-sim as the server's model:
// the prompt's generation streams into the page (real server-sent events through the real client),
// the compiled template is previewed, edited, saved and opened in the template editor; Settings →
// AI model shows the server's model and tests it.
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { signUpOwner } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Ada', last: 'Prompt', email: `ada.prompt.${Date.now()}@example.com` };

describe.skipIf(!hasChromium)('AI email templates in Chromium', () => {
  let sim: LlmSim;
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    // Slow enough that the page shows the text arriving before the result.
    sim = await startLlmSim({ chunkDelayMs: 10 });
    server = await startTitan({
      env: {
        NODE_ENV: 'development',
        LLM_BASE_URL: sim.baseUrl,
        LLM_API_KEY: DEFAULT_SIM_KEY,
        LLM_MODEL: DEFAULT_SIM_MODEL,
      },
    });
    const session = await signUpOwner(server.url, owner, PASSWORD, 'Prompt Garden');
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
  });

  const previewFrame = async (): Promise<Frame> => {
    const handle = await page.getByTitle('Rendered email').elementHandle();
    return (await handle!.contentFrame())!;
  };

  it('streams a generated template, previews it, and saves it as a template', async () => {
    await page.goto(`${server.url}/engage`);
    await page.getByRole('link', { name: 'AI template' }).click();
    await page.getByRole('heading', { name: 'AI email template' }).waitFor();
    await page
      .getByLabel('What should the email say?')
      .fill('Spring sale on garden furniture, 20% off this weekend');
    await page.getByLabel('Tone').selectOption('Playful');
    await page.getByLabel('Audience (optional)').fill('loyal customers');
    await page.getByRole('button', { name: 'Generate' }).click();

    // The model's answer arrives piece by piece, as its fields forming (never raw JSON), before the
    // result replaces it.
    const streamed = page.getByLabel('Text from the model');
    await expect.poll(() => streamed.innerText(), { timeout: 15_000 }).toMatch(/Name\s+Spring Sale/);
    expect(await streamed.innerText()).not.toContain('{"name"');
    const name = page.getByLabel('Name', { exact: true });
    await name.waitFor({ timeout: 30_000 });
    expect(await name.inputValue()).toBe('Spring Sale Garden Furniture 20 email');

    await expect
      .poll(async () => (await previewFrame()).locator('body').innerText(), { timeout: 15_000 })
      .toContain('Spring sale on garden furniture, 20% off this weekend');
    expect(await (await previewFrame()).locator('body').innerText()).toContain('loyal customers');

    await name.fill('Spring sale 2027');
    await page.getByRole('button', { name: 'Save as template' }).click();
    await page.getByRole('link', { name: 'Open in the template editor' }).click();
    await page.getByRole('heading', { name: 'Edit email template' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Spring sale 2027');
    expect(page.url()).toMatch(/\/engage\/templates\/email\/\d+$/);
  });

  it("shows the server's model in Settings → AI model and tests it", async () => {
    await page.goto(`${server.url}/engage/settings/ai-model`);
    await page
      .getByText(`AI features use the server’s model, ${DEFAULT_SIM_MODEL}.`, { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(`${DEFAULT_SIM_MODEL} answered in`, { exact: false }).waitFor();
    await page.getByText('You said: This is a connection test.').waitFor();
    expect(problems).toEqual([]);
  });
});
