import type { TCustomerList, TDirectoryVisitor } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

function visitor(id: number, name: string, email: string | null): TDirectoryVisitor {
  return {
    id,
    name,
    email,
    phone: null,
    external_id: null,
    fields: {},
    conversation_count: 0,
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-01T09:00:00.000Z',
    last_seen_at: null,
    email_status: 'unknown',
    sms_status: 'unknown',
    whatsapp_status: 'unknown',
    labels: [],
  };
}

function list(overrides: Partial<TCustomerList> = {}): TCustomerList {
  return {
    id: 7,
    name: 'VIPs',
    description: 'Our best customers',
    kind: 'static',
    double_opt_in: false,
    filter: null,
    member_count: 1,
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-02T09:00:00.000Z',
    ...overrides,
  };
}

const ADA = visitor(1, 'Ada Lovelace', 'ada@example.com');
const BOB = visitor(2, 'Bob Baker', 'bob@example.com');

/** A server holding lists and their members, recording what the screens send. */
function lists(
  initial: TCustomerList[],
  members: Record<number, TDirectoryVisitor[]>,
  role: 'owner' | 'agent' = 'owner',
) {
  signIn();
  const sent: { method: string; path: string; body: unknown }[] = [];
  const all = [...initial];
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/business/customer-lists/', () =>
      ok({ count: all.length, next: null, previous: null, results: all }),
    ),
    http.post('/api/business/customer-lists/', async ({ request }) => {
      const body = (await request.json()) as Partial<TCustomerList>;
      sent.push({ method: 'POST', path: 'lists', body });
      if (all.some((l) => l.name.toLowerCase() === body.name?.toLowerCase()))
        return fail(400, 'Invalid input.', { name: ['A list with this name already exists.'] });
      const created = list({ ...body, id: 99, member_count: 0, filter: body.filter ?? null });
      all.push(created);
      members[99] = [];
      return ok(created, 201);
    }),
    http.get('/api/business/customer-lists/:id/', ({ params }) => {
      const found = all.find((l) => l.id === Number(params.id));
      return found
        ? ok({ ...found, member_count: members[found.id]?.length ?? 0 })
        : fail(404, 'No such list.');
    }),
    http.get('/api/business/customer-lists/:id/members/', ({ params }) => {
      const found = members[Number(params.id)] ?? [];
      return ok({ count: found.length, next: null, previous: null, results: found });
    }),
    http.post('/api/business/customer-lists/:id/members/', async ({ params, request }) => {
      const body = (await request.json()) as { customer_ids: number[] };
      sent.push({ method: 'POST', path: `members ${params.id}`, body });
      const added = body.customer_ids.map((id) => [ADA, BOB].find((v) => v.id === id)!);
      members[Number(params.id)] = [...(members[Number(params.id)] ?? []), ...added];
      return ok({ added: added.length, removed: 0 });
    }),
    http.post('/api/business/customer-lists/:id/members/remove/', async ({ params, request }) => {
      const body = (await request.json()) as { customer_ids: number[] };
      sent.push({ method: 'POST', path: `remove ${params.id}`, body });
      members[Number(params.id)] = (members[Number(params.id)] ?? []).filter(
        (v) => !body.customer_ids.includes(v.id),
      );
      return ok({ added: 0, removed: body.customer_ids.length });
    }),
    http.delete('/api/business/customer-lists/:id/', ({ params }) => {
      sent.push({ method: 'DELETE', path: `list ${params.id}`, body: null });
      all.splice(
        all.findIndex((l) => l.id === Number(params.id)),
        1,
      );
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/business/customer-directory/', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search')?.toLowerCase() ?? '';
      const found = [ADA, BOB].filter((v) => v.name?.toLowerCase().includes(search));
      return ok({ count: found.length, next: null, previous: null, results: found });
    }),
  );
  return sent;
}

describe('customer lists', () => {
  it('lists the lists with their type and live counts, reached from the directory', async () => {
    lists(
      [
        list(),
        list({
          id: 8,
          name: 'Pro plan',
          kind: 'segment',
          double_opt_in: false,
          filter: { fields: { plan: 'pro' } },
          member_count: 1234,
        }),
      ],
      {},
    );
    const { router } = renderApp('/engage/directory/lists');
    const table = await screen.findByRole('table', { name: 'Lists' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('VIPs');
    expect(rows[0]).toHaveTextContent('Static list');
    expect(rows[1]).toHaveTextContent('Segment');
    expect(rows[1]).toHaveTextContent('1,234');
    expect(within(rows[0]!).getByRole('link', { name: 'VIPs' })).toHaveAttribute(
      'href',
      '/engage/directory/lists/7',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Visitors' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/directory'));
  });

  it('creates a segment from conditions, refusing one without any, and opens it', async () => {
    const sent = lists([list()], {});
    const { router } = renderApp('/engage/directory/lists');
    await userEvent.click(await screen.findByRole('button', { name: 'New list' }));
    const form = await screen.findByRole('form', { name: 'New list' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Pro with email');
    await userEvent.selectOptions(within(form).getByLabelText('Type'), 'segment');
    await userEvent.click(within(form).getByRole('button', { name: 'Create list' }));
    expect(await within(form).findByText('A segment needs at least one condition.')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await userEvent.selectOptions(within(form).getByLabelText('Email address'), 'yes');
    await userEvent.click(within(form).getByRole('button', { name: 'Add a field condition' }));
    await userEvent.type(within(form).getByLabelText('Field'), 'plan');
    await userEvent.type(within(form).getByLabelText('Value'), 'pro');
    await userEvent.click(within(form).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/directory/lists/99'));
    expect(sent[0]!.body).toEqual({
      name: 'Pro with email',
      description: '',
      kind: 'segment',
      double_opt_in: false,
      filter: { has_email: true, fields: { plan: 'pro' } },
    });
  });

  it('creates a static list whose new members confirm by email (double opt-in)', async () => {
    const sent = lists([list()], {});
    renderApp('/engage/directory/lists');
    await userEvent.click(await screen.findByRole('button', { name: 'New list' }));
    const form = await screen.findByRole('form', { name: 'New list' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Newsletter');
    const confirm = within(form).getByRole('checkbox', {
      name: 'Ask new members to confirm by email (double opt-in)',
    });
    expect(confirm).toHaveAccessibleDescription(/Until they press it they are “Pending confirmation”/);
    await userEvent.click(confirm);
    // A segment follows its conditions: nobody joins it, so nobody confirms.
    await userEvent.selectOptions(within(form).getByLabelText('Type'), 'segment');
    expect(within(form).queryByRole('checkbox', { name: /double opt-in/ })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByLabelText('Type'), 'static');
    await userEvent.click(within(form).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({
      name: 'Newsletter',
      description: '',
      kind: 'static',
      double_opt_in: true,
    });
  });

  it('shows the server’s message on the name when it is taken', async () => {
    lists([list()], {});
    renderApp('/engage/directory/lists');
    await userEvent.click(await screen.findByRole('button', { name: 'New list' }));
    const form = await screen.findByRole('form', { name: 'New list' });
    await userEvent.type(within(form).getByLabelText('Name'), 'vips');
    await userEvent.click(within(form).getByRole('button', { name: 'Create list' }));
    expect(await within(form).findByText('A list with this name already exists.')).toBeInTheDocument();
  });

  it('adds customers found in the directory to a static list, and removes one', async () => {
    const sent = lists([list({ member_count: 0 })], { 7: [] });
    renderApp('/engage/directory/lists/7');
    expect(
      await screen.findByText('No customers in this list yet. Add some from your directory.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add customers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add customers' });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select Bob Baker' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add 2' }));
    const table = await screen.findByRole('table', { name: 'Customers in this list' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(sent.at(-1)).toEqual({ method: 'POST', path: 'members 7', body: { customer_ids: [1, 2] } });
    expect(screen.getByText('2 customers')).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Remove Bob Baker from this list' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(sent.at(-1)).toEqual({ method: 'POST', path: 'remove 7', body: { customer_ids: [2] } });
  });

  it('deletes a list only after confirming, saying its customers stay', async () => {
    const sent = lists([list()], { 7: [ADA] });
    const { router } = renderApp('/engage/directory/lists/7');

    await userEvent.click(await screen.findByRole('button', { name: 'Delete list' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete this list?' });
    expect(dialog).toHaveTextContent('The list goes away; the customers stay in your directory.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(sent.filter((s) => s.method === 'DELETE')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete list' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete this list?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('List deleted.')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'DELETE')).toEqual([
      { method: 'DELETE', path: 'list 7', body: null },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/directory/lists'));
  });

  it('shows a segment’s matches without member editing, and agents cannot change lists', async () => {
    lists(
      [list({ id: 8, name: 'Pro plan', kind: 'segment', filter: { fields: { plan: 'pro' } } })],
      { 8: [ADA] },
      'agent',
    );
    renderApp('/engage/directory/lists/8');
    const table = await screen.findByRole('table', { name: 'Customers in this list' });
    expect(within(table).getByRole('link', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add customers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Send to…' })).not.toBeInTheDocument();
  });

  it.each([
    ['segment', 8, { list_ids: [], segment_ids: [8] }],
    ['static list', 7, { list_ids: [7], segment_ids: [] }],
  ] as const)(
    '“Send to…” on a %s opens the campaign composer with it as the audience, counted',
    { timeout: 30_000 },
    async (_kind, id, audience) => {
      lists(
        [list(), list({ id: 8, name: 'Pro plan', kind: 'segment', filter: { fields: { plan: 'pro' } } })],
        { 7: [ADA, BOB], 8: [ADA] },
      );
      const counts: unknown[] = [];
      server.use(
        http.get('/api/template/', () => ok([])),
        http.get('/api/consent/topics/', () => ok([])),
        http.post('/api/campaigns/audience/count/', async ({ request }) => {
          counts.push(await request.json());
          return ok({
            total: 2,
            reachable: 1,
            suppressed: 0,
            no_consent: 1,
            no_address: 0,
            out_of_topic: 0,
          });
        }),
      );
      const { router } = renderApp(`/engage/directory/lists/${id}`);
      await userEvent.click(await screen.findByRole('link', { name: 'Send to…' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/engage/campaigns/new'));
      const name = id === 8 ? /^Pro plan \(segment/ : /^VIPs \(list/;
      // Chosen as the audience, not excluded; the other list is not chosen.
      const [chosen, excluded] = await screen.findAllByRole('checkbox', { name });
      expect(chosen).toBeChecked();
      expect(excluded).not.toBeChecked();
      const other = screen.getAllByRole('checkbox', { name: id === 8 ? /^VIPs/ : /^Pro plan/ });
      expect(other.every((c) => !(c as HTMLInputElement).checked)).toBe(true);
      expect(await screen.findByText('1 will receive it')).toBeInTheDocument();
      // Counted as what it is from the first request (a segment is never sent as a static list).
      expect(counts).toEqual([
        { channel: 'email', audience: { ...audience, exclude_list_ids: [], topic_id: null } },
      ]);
    },
  );

  it('exports the list’s customers as CSV', async () => {
    lists([list()], { 7: [ADA] });
    const queries: string[] = [];
    server.use(
      http.get('/api/business/customer-directory/download/', ({ request }) => {
        queries.push(new URL(request.url).search);
        return new HttpResponse('id,name\r\n1,Ada Lovelace\r\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="visitors-vips-2026-04-01.csv"',
          },
        });
      }),
    );
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:list'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderApp('/engage/directory/lists/7');
    await screen.findByRole('table', { name: 'Customers in this list' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Downloaded visitors-vips-2026-04-01.csv')).toBeInTheDocument();
    expect(queries).toEqual(['?list_id=7']);
    expect(saved).toEqual(['visitors-vips-2026-04-01.csv']);
    vi.restoreAllMocks();
  });

  it('says so when the list does not exist', async () => {
    lists([], {});
    renderApp('/engage/directory/lists/404');
    expect(await screen.findByText('List not found')).toBeInTheDocument();
  });
});
