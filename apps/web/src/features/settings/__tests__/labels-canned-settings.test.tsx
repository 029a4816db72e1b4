// Settings → Labels and Settings → Canned responses (issue 29): owners add, edit and delete; the
// server's field messages land on their fields; agents read without the controls.
import type { TCannedResponse, TLabel } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, ROLES_INFO, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

configure({ asyncUtilTimeout: 10_000 });

const BILLING: TLabel = {
  id: 1,
  name: 'Billing',
  color: '#ef4444',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const HELLO: TCannedResponse = {
  id: 1,
  short_code: 'hello',
  content: 'Hi {{ customer.name }}!',
  attachment_id: null,
  attachment: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

function asMember(role: 'owner' | 'agent') {
  signIn();
  let labels = [BILLING];
  let canned = [HELLO];
  const calls = {
    posts: [] as unknown[],
    puts: [] as unknown[],
    deletes: [] as string[],
    searches: [] as string[],
  };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/business/roles/', () => ok(ROLES_INFO)),
    http.get('/api/msg/labels/', () => ok(labels)),
    http.post('/api/msg/labels/', async ({ request }) => {
      const body = (await request.json()) as { name: string; color: string };
      calls.posts.push(body);
      if (body.name.toLowerCase() === 'billing')
        return fail(400, 'Invalid input.', { name: ['A label with this name already exists.'] });
      const created = { ...BILLING, id: 2, ...body };
      labels = [...labels, created];
      return ok(created, 201);
    }),
    http.put('/api/msg/labels/:id/', async ({ request, params }) => {
      const body = (await request.json()) as Partial<TLabel>;
      calls.puts.push(body);
      labels = labels.map((l) => (l.id === Number(params.id) ? { ...l, ...body } : l));
      return ok(labels.find((l) => l.id === Number(params.id)));
    }),
    http.delete('/api/msg/labels/:id/', ({ params }) => {
      calls.deletes.push(`label ${String(params.id)}`);
      labels = labels.filter((l) => l.id !== Number(params.id));
      return ok(null);
    }),
    http.get('/api/msg/canned-responses/', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      calls.searches.push(search);
      return ok(canned.filter((c) => c.short_code.includes(search) || c.content.includes(search)));
    }),
    http.post('/api/msg/canned-responses/', async ({ request }) => {
      const body = (await request.json()) as { short_code: string; content: string };
      calls.posts.push(body);
      if (body.short_code === 'hello')
        return fail(400, 'Invalid input.', {
          short_code: ['A canned response with this short code already exists.'],
        });
      const created = { ...HELLO, id: 2, ...body };
      canned = [...canned, created];
      return ok(created, 201);
    }),
    http.delete('/api/msg/canned-responses/:id/', ({ params }) => {
      calls.deletes.push(`canned ${String(params.id)}`);
      canned = canned.filter((c) => c.id !== Number(params.id));
      return ok(null);
    }),
  );
  return calls;
}

describe('Settings → Labels', { timeout: 20_000 }, () => {
  it('adds a label with a colour, shows the server’s field message, edits and deletes', async () => {
    const calls = asMember('owner');
    renderApp('/engage/settings/labels');
    const table = await screen.findByRole('table', { name: 'Labels' });
    expect(within(table).getByText('Billing')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New label' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'billing');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A label with this name already exists.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'VIP');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Colour #22c55e' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.posts.at(-1)).toEqual({ name: 'VIP', color: '#22c55e' }));
    expect(await within(table).findByText('VIP')).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Edit Billing' }));
    const edit = await screen.findByRole('dialog');
    await userEvent.clear(within(edit).getByLabelText('Name'));
    await userEvent.type(within(edit).getByLabelText('Name'), 'Invoices');
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.puts).toEqual([{ name: 'Invoices', color: '#ef4444' }]));
    expect(await within(table).findByText('Invoices')).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Delete VIP' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.deletes).toEqual(['label 2']));
    await waitFor(() => expect(within(table).queryByText('VIP')).not.toBeInTheDocument());
  });

  it('shows agents the labels without the controls', async () => {
    asMember('agent');
    renderApp('/engage/settings/labels');
    const table = await screen.findByRole('table', { name: 'Labels' });
    expect(within(table).getByText('Billing')).toBeInTheDocument();
    expect(screen.getByText('Only owners and admins can add, change or delete labels.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New label' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Edit Billing' })).not.toBeInTheDocument();
  });
});

describe('Settings → Canned responses', { timeout: 20_000 }, () => {
  it('lists, searches, adds (a taken code refused on its field) and deletes', async () => {
    const calls = asMember('owner');
    renderApp('/engage/settings/canned-responses');
    const table = await screen.findByRole('table', { name: 'Canned responses' });
    expect(within(table).getByText('/hello')).toBeInTheDocument();
    expect(within(table).getByText('Hi {{ customer.name }}!')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New canned response' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('{{ customer.name }}')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Short code'), 'hello');
    await userEvent.type(within(dialog).getByLabelText('Text'), 'Thanks, {{{{ agent.name }}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('A canned response with this short code already exists.'),
    ).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Short code'));
    await userEvent.type(within(dialog).getByLabelText('Short code'), 'Thanks');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.posts.at(-1)).toEqual({
        short_code: 'thanks',
        content: 'Thanks, {{ agent.name }}',
        attachment_id: null,
      }),
    );
    expect(await within(table).findByText('/thanks')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search canned responses' }), 'agent');
    await waitFor(() => expect(calls.searches).toContain('agent'));
    await waitFor(() => expect(within(table).queryByText('/hello')).not.toBeInTheDocument());

    await userEvent.click(within(table).getByRole('button', { name: 'Delete /thanks' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.deletes).toEqual(['canned 2']));
  });
});
