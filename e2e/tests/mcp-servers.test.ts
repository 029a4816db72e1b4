// MCP servers end to end in Chromium, against the built server and tools/mcp-sim: an owner adds the
// simulator's OAuth-protected MCP server in Settings → MCP servers, is sent to its authorization page,
// allows Titan, comes back through /engage/settings/mcp-servers/callback and sees the server
// connected with its tools and their descriptions.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startMcpSim, type McpSim } from '@titan/mcp-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { signUpOwner, type OwnerSession } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Mia', last: 'Mcp', email: `mia.${Date.now()}@example.com` };

describe.skipIf(!hasChromium)('MCP servers in Chromium: connect tools/mcp-sim through OAuth', () => {
  let sim: McpSim;
  let server: TitanServer;
  let session: OwnerSession;
  let browser: Browser;
  let staff: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    sim = await startMcpSim();
    server = await startTitan({ env: { NODE_ENV: 'development' } });
    session = await signUpOwner(server.url, owner, PASSWORD, 'MCP Browser Test');
    browser = await launchBrowser();
    staff = await signedInContext(browser, server.url, session, { viewport: { width: 1440, height: 1000 } });
    page = await watchedPage(staff, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sim?.close();
  });

  it('adds the server, authorizes Titan at the simulator, and sees its tools', async () => {
    await page.goto(`${server.url}/engage/settings/mcp-servers`);
    await page.getByText('No MCP servers yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add an MCP server' });
    await form.getByLabel('Name').fill('Shop');
    await form.getByLabel('Server URL').fill(sim.mcpUrl);
    await form.getByLabel('Authorization').selectOption('oauth');
    await form.getByRole('button', { name: 'Add server' }).click();

    // The simulator's consent page: Titan registered itself and asks with PKCE for this resource.
    await page.waitForURL((url) => url.href.startsWith(`${sim.url}/authorize`), { timeout: 20_000 });
    const asked = new URL(page.url());
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('resource')).toBe(sim.mcpUrl);
    expect(asked.searchParams.get('redirect_uri')).toBe(`${server.url}/engage/settings/mcp-servers/callback`);
    await page.getByRole('button', { name: 'Allow' }).click();

    // Back through the callback page to the tab: connected, with the tools and their descriptions.
    await page.waitForURL(`${server.url}/engage/settings/mcp-servers`, { timeout: 20_000 });
    const item = page.getByRole('listitem', { name: 'Shop' });
    await item.getByTestId('connection-status').getByText('Connected').waitFor();
    const tools = item.getByRole('list', { name: 'Shop tools' });
    await tools.getByText('lookup_order').waitFor();
    await tools.getByText(/Look up an order by its number/).waitFor();
    await tools.getByText('list_bookings').waitFor();
    expect(await tools.getByRole('listitem').count()).toBe(3);
    expect(sim.state().grants.authorization_code).toBe(1);
    // Reloading shows the same: the tools are cached on the server.
    await page.reload();
    await page.getByRole('listitem', { name: 'Shop' }).getByText('find_customer_orders').waitFor();
    expect(problems).toEqual([]);
  });
});
