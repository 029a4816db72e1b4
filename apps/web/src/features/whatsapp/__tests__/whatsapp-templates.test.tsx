import type { TWhatsappTemplate } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { ORDER_UPDATE_TEMPLATE } from '../../../test/whatsapp';

const ORDER_UPDATE = ORDER_UPDATE_TEMPLATE;
const SPRING_SALE: TWhatsappTemplate = {
  ...ORDER_UPDATE,
  id: 2,
  meta_id: '9002',
  name: 'spring_sale',
  status: 'REJECTED',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Everything 20% off this week.' }],
  header_format: null,
  body_parameters: 0,
  header_parameters: 0,
  body_parameter_names: [],
  header_parameter_names: [],
};

function withTemplates(role: 'owner' | 'agent' = 'owner') {
  signIn();
  const state = { templates: [ORDER_UPDATE], queries: [] as string[], syncs: 0 };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/whatsapp/template/', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search');
      state.queries.push(new URL(request.url).search);
      return ok(state.templates.filter((t) => !search || t.name.includes(search)));
    }),
    http.post('/api/whatsapp/template/sync/', () => {
      state.syncs += 1;
      state.templates = [ORDER_UPDATE, SPRING_SALE];
      return ok({ synced: 2, removed: 1 });
    }),
  );
  return state;
}

describe('WhatsApp templates', () => {
  it('lists the templates and syncs them from WhatsApp', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    renderApp('/engage/templates');

    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Templates' });
    expect(within(tabs).getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('aria-current', 'page');
    const table = await screen.findByRole('table', { name: 'WhatsApp templates' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Language', 'Category', 'Status', 'Body', 'Actions']);
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getByText('order_update')).toBeInTheDocument();
    expect(within(row!).getByText('en_US')).toBeInTheDocument();
    expect(within(row!).getByText('utility')).toBeInTheDocument();
    expect(within(row!).getByText('APPROVED')).toBeInTheDocument();
    expect(within(row!).getByText('Hi {{1}}, your order {{2}} has shipped.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Sync from WhatsApp' }));
    expect(await screen.findByText('Templates synced')).toBeInTheDocument();
    expect(screen.getByText('2 synced, 1 removed.')).toBeInTheDocument();
    expect(state.syncs).toBe(1);
    expect(await within(table).findByText('spring_sale')).toBeInTheDocument();
    expect(within(table).getByText('REJECTED')).toBeInTheDocument();
    // Only an approved template can be sent: "Send to…" opens a WhatsApp campaign with it chosen.
    const send = within(table).getAllByRole('link', { name: /^Send “/ });
    expect(send.map((l) => l.getAttribute('aria-label'))).toEqual([
      'Send “order_update” (en_US) to customers',
    ]);
    expect(send[0]).toHaveAttribute(
      'href',
      '/engage/campaigns/new?channel=whatsapp&wa_template=order_update&wa_language=en_US',
    );
  });

  it('offers no “Send to…” to a member who cannot write campaigns', { timeout: 20_000 }, async () => {
    withTemplates('agent');
    renderApp('/engage/templates');
    const table = await screen.findByRole('table', { name: 'WhatsApp templates' });
    expect(within(table).getAllByRole('columnheader')).toHaveLength(5);
    expect(within(table).queryByRole('link', { name: /^Send “/ })).toBeNull();
  });

  it('searches templates by name', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    state.templates = [ORDER_UPDATE, SPRING_SALE];
    const { router } = renderApp('/engage/templates');
    await screen.findByRole('table', { name: 'WhatsApp templates' });
    await userEvent.type(screen.getByLabelText('Search templates'), 'spring');
    await waitFor(() => expect(router.state.location.search).toBe('?search=spring'));
    await waitFor(() => expect(screen.queryByText('order_update')).toBeNull());
    expect(await screen.findByText('spring_sale')).toBeInTheDocument();
    expect(state.queries).toContain('?search=spring');
  });

  it("toasts the server's message when syncing is refused", async () => {
    withTemplates();
    server.use(
      http.post('/api/whatsapp/template/sync/', () =>
        fail(409, 'Connect a WhatsApp number in Settings → WhatsApp first.'),
      ),
    );
    renderApp('/engage/templates');
    await userEvent.click(await screen.findByRole('button', { name: 'Sync from WhatsApp' }));
    expect(
      await screen.findByText('Connect a WhatsApp number in Settings → WhatsApp first.'),
    ).toBeInTheDocument();
  });

  it('shows agents the templates without the sync button', async () => {
    withTemplates('agent');
    renderApp('/engage/templates');
    expect(await screen.findByRole('table', { name: 'WhatsApp templates' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sync from WhatsApp' })).toBeNull();
  });

  it('says when there are no templates yet', async () => {
    const state = withTemplates();
    state.templates = [];
    renderApp('/engage/templates');
    expect(await screen.findByText('No templates yet')).toBeInTheDocument();
  });
});
