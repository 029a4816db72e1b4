// Sending domains in Chromium against the built server and a real authoritative DNS server
// (tools/dns-sim, named by DNS_SERVERS): an owner adds a domain in Settings → Email domains, the
// records it lists are published, Verify finds them at once and every record turns OK; the public
// DNS help page opens without signing in.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signedInContext, watchedPage } from '../support/browser';
import { signUpOwner } from '../support/staff';
import { startTitan, type TitanServer } from '../support/server';

type TRecord = { purpose: string; type: 'TXT' | 'CNAME'; host: string; value: string; status: string };
type TDomain = { id: number; domain: string; status: string; records: TRecord[] };

const PASSWORD = 'a long enough passphrase 42';
const owner = { first: 'Dina', last: 'Domains', email: `dina.${Date.now()}@example.com` };
const DOMAIN = 'brand-mail.test';

describe.skipIf(!hasChromium)('email domains in Chromium', () => {
  let dns: DnsSim;
  let server: TitanServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let access = '';
  let businessCode = '';
  const problems: string[] = [];

  async function domains(): Promise<TDomain[]> {
    const res = await fetch(`${server.url}/api/email/domains/`, {
      headers: { authorization: `Bearer ${access}`, 'x-business-code': businessCode },
    });
    return ((await res.json()) as { result: TDomain[] }).result;
  }

  beforeAll(async () => {
    dns = await startDnsSim();
    dns.setZone(DOMAIN);
    server = await startTitan({
      env: {
        NODE_ENV: 'development',
        DNS_SERVERS: dns.address,
        EMAIL_SPF_INCLUDE: '_spf.titan.test',
        EMAIL_RETURN_PATH_HOST: 'rp.titan.test',
      },
    });
    const session = await signUpOwner(server.url, owner, PASSWORD, 'Domains Browser Test');
    access = session.access;
    businessCode = session.businessCode;
    browser = await launchBrowser();
    context = await signedInContext(browser, server.url, session, { viewport: { width: 1280, height: 900 } });
    page = await watchedPage(context, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
  });

  it('adds a domain, publishes its records and verifies it', async () => {
    await page.goto(`${server.url}/engage/settings/email-domains`);
    const form = page.getByRole('form', { name: 'Add a domain' });
    await form.getByLabel('Domain').fill(DOMAIN);
    await form.getByRole('button', { name: 'Add domain' }).click();
    const table = page.getByRole('table', { name: `DNS records for ${DOMAIN}` });
    await table.waitFor();
    expect(await table.getByText('Missing', { exact: true }).count()).toBe(5);

    // Published as the table lists them (the same values the copy buttons copy).
    const [added] = await domains();
    expect(added!.domain).toBe(DOMAIN);
    for (const record of added!.records) dns.setRecord(record.host, record.type, record.value);

    await page.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
    await page.getByText('Verified', { exact: true }).waitFor();
    expect(await table.getByText('OK', { exact: true }).count()).toBe(5);
    expect((await domains())[0]!.status).toBe('verified');
    // Titan asked the DNS server for every record.
    expect(dns.queries.map((q) => q.name)).toContain(`_dmarc.${DOMAIN}`);
    expect(problems).toEqual([]);
  });

  it('opens the DNS help page without signing in', async () => {
    const anonymous = await browser.newContext();
    try {
      const help = await anonymous.newPage();
      await help.goto(`${server.url}/engage/dns-help`);
      await help.getByRole('heading', { name: 'Setting up your sending domain' }).waitFor();
      expect(help.url()).toBe(`${server.url}/engage/dns-help`);
      expect(await help.getByRole('heading', { name: 'Cloudflare' }).count()).toBe(1);
    } finally {
      await anonymous.close();
    }
  });
});
