import type { TEmailDomain } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'x'.repeat(300);

function domain(overrides: Partial<TEmailDomain> = {}): TEmailDomain {
  return {
    id: 3,
    domain: 'shop.example',
    status: 'pending',
    last_checked_at: null,
    default_from: null,
    created_at: '2026-11-20T10:00:00Z',
    records: [
      {
        purpose: 'ownership',
        type: 'TXT',
        host: '_titan-verification.shop.example',
        value: 'titan-verification=abc123',
        status: 'missing',
        detail: 'Not checked yet: publish this record, then verify.',
      },
      {
        purpose: 'spf',
        type: 'TXT',
        host: 'shop.example',
        value: 'v=spf1 include:_spf.titan.example ~all',
        status: 'missing',
        detail: 'Not checked yet: publish this record, then verify.',
      },
      {
        purpose: 'dkim',
        type: 'TXT',
        host: 'titan202611._domainkey.shop.example',
        value: `v=DKIM1; k=rsa; p=${KEY}`,
        status: 'missing',
        detail: 'Not checked yet: publish this record, then verify.',
      },
      {
        purpose: 'dmarc',
        type: 'TXT',
        host: '_dmarc.shop.example',
        value: 'v=DMARC1; p=none; adkim=r; aspf=r',
        status: 'missing',
        detail: 'Not checked yet: publish this record, then verify.',
      },
      {
        purpose: 'return_path',
        type: 'CNAME',
        host: 'bounces.shop.example',
        value: 'rp.titan.example',
        status: 'missing',
        detail: 'Not checked yet: publish this record, then verify.',
      },
    ],
    ...overrides,
  };
}

function asMember(role: 'owner' | 'agent') {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))));
}

// Each test walks the real route table through several API round trips: generous on a loaded machine.
describe('Settings → Email domains', { timeout: 20_000 }, () => {
  it('adds a domain and shows the records to publish with copy buttons', async () => {
    const user = userEvent.setup();
    asMember('owner');
    let domains: TEmailDomain[] = [];
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/email/domains/', () => ok(domains)),
      http.post('/api/email/domains/', async ({ request }) => {
        const body = (await request.json()) as { domain: string };
        bodies.push(body);
        if (body.domain === 'me@shop.example') {
          return fail(400, 'Invalid input.', {
            domain: ['Enter the domain only, such as example.com, not an email address.'],
          });
        }
        domains = [domain()];
        return ok(domains[0], 201);
      }),
    );
    renderApp('/engage/settings/email-domains');

    expect(
      await screen.findByText('No email domains yet. Add the domain you want to send from.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Email domains' })).toHaveAttribute('aria-current', 'page');
    const form = screen.getByRole('form', { name: 'Add a domain' });
    await userEvent.type(within(form).getByLabelText('Domain'), 'me@shop.example');
    await userEvent.click(within(form).getByRole('button', { name: 'Add domain' }));
    expect(
      await screen.findByText('Enter the domain only, such as example.com, not an email address.'),
    ).toBeInTheDocument();

    await userEvent.clear(within(form).getByLabelText('Domain'));
    await userEvent.type(within(form).getByLabelText('Domain'), 'shop.example');
    await userEvent.click(within(form).getByRole('button', { name: 'Add domain' }));
    const table = await screen.findByRole('table', { name: 'DNS records for shop.example' });
    expect(bodies).toEqual([{ domain: 'me@shop.example' }, { domain: 'shop.example' }]);
    expect(within(table).getByText('_dmarc.shop.example')).toBeInTheDocument();
    expect(within(table).getByText('rp.titan.example')).toBeInTheDocument();
    expect(within(table).getAllByText('Missing')).toHaveLength(5);
    expect(screen.getByText('Pending')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Copy DKIM value' }));
    expect(await navigator.clipboard.readText()).toBe(`v=DKIM1; k=rsa; p=${KEY}`);
    await user.click(within(table).getByRole('button', { name: 'Copy DMARC host' }));
    expect(await navigator.clipboard.readText()).toBe('_dmarc.shop.example');
    expect(screen.getByRole('link', { name: 'How to add these records' })).toHaveAttribute(
      'href',
      '/engage/dns-help',
    );
  });

  it('verifies and shows each record status with its reason', async () => {
    asMember('owner');
    let verified = false;
    const checked = domain({
      status: 'failed',
      last_checked_at: '2026-11-20T10:05:00Z',
      records: domain().records.map((r) =>
        r.purpose === 'spf'
          ? {
              ...r,
              status: 'invalid',
              detail: 'SPF record found but it does not include include:_spf.titan.example',
            }
          : { ...r, status: 'ok', detail: null },
      ),
    });
    server.use(
      http.get('/api/email/domains/', () => ok([verified ? checked : domain()])),
      http.post('/api/email/domains/3/verify/', () => {
        verified = true;
        return ok(checked);
      }),
    );
    renderApp('/engage/settings/email-domains');
    await userEvent.click(await screen.findByRole('button', { name: 'Verify shop.example' }));

    expect(
      await screen.findByText('SPF record found but it does not include include:_spf.titan.example'),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'DNS records for shop.example' });
    expect(within(table).getAllByText('OK')).toHaveLength(4);
    expect(within(table).getByText('Invalid')).toBeInTheDocument();
    expect(screen.getByText('Not verified')).toBeInTheDocument();
    expect(
      await screen.findByText('shop.example is not verified yet: 1 record needs attention.'),
    ).toBeInTheDocument();
  });

  it('deletes a domain only after confirming', async () => {
    asMember('owner');
    let deleted = false;
    server.use(
      http.get('/api/email/domains/', () => ok(deleted ? [] : [domain({ status: 'verified' })])),
      http.delete('/api/email/domains/3/', () => {
        deleted = true;
        return ok(null);
      }),
    );
    renderApp('/engage/settings/email-domains');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete shop.example' }));
    expect(await screen.findByText(/Titan stops sending from this domain at once/)).toBeInTheDocument();
    expect(deleted).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toBe(true));
    expect(await screen.findByText('shop.example deleted.')).toBeInTheDocument();
    expect(await screen.findByText(/No email domains yet/)).toBeInTheDocument();
  });

  it('shows an agent the records without the buttons that change them', async () => {
    asMember('agent');
    server.use(http.get('/api/email/domains/', () => ok([domain({ status: 'verified' })])));
    renderApp('/engage/settings/email-domains');
    expect(await screen.findByRole('table', { name: 'DNS records for shop.example' })).toBeInTheDocument();
    expect(screen.getByText('Verified')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a domain' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verify shop.example' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete shop.example' })).not.toBeInTheDocument();
    expect(screen.getByText(/Your role can see email domains but not change them/)).toBeInTheDocument();
  });
});

describe('/engage/dns-help', () => {
  it('explains every record and the common DNS hosts without signing in', async () => {
    renderApp('/engage/dns-help');
    expect(
      await screen.findByRole('heading', { name: 'Setting up your sending domain' }),
    ).toBeInTheDocument();
    for (const name of ['Ownership (TXT)', 'SPF (TXT)', 'DKIM (TXT)', 'DMARC (TXT)', 'Return path (CNAME)']) {
      expect(screen.getByRole('heading', { name })).toBeInTheDocument();
    }
    for (const host of [
      'Cloudflare',
      'GoDaddy',
      'Namecheap',
      'Amazon Route 53',
      'Squarespace Domains (formerly Google Domains)',
    ]) {
      expect(screen.getByRole('region', { name: host })).toBeInTheDocument();
    }
    expect(screen.getByText(/Proxy status to "DNS only"/)).toBeInTheDocument();
    expect(screen.getByText(/split into several quoted pieces/)).toBeInTheDocument();
  });
});
