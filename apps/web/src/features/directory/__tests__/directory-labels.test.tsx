// Labels on customers in the directory (issue 29): chips in the table, the filter by label (in the
// URL), and a customer's labels edited on their page by owners, read by agents.
import type { TDirectoryVisitor, TLabel } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

configure({ asyncUtilTimeout: 10_000 });

const VIP: TLabel = {
  id: 3,
  name: 'VIP',
  color: '#22c55e',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const LEAD: TLabel = { ...VIP, id: 4, name: 'Lead', color: '#3b82f6' };
const ref = (l: TLabel) => ({ id: l.id, name: l.name, color: l.color });

const visitor = (id: number, name: string, labels: TLabel[]): TDirectoryVisitor => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  phone: null,
  external_id: null,
  fields: {},
  conversation_count: 1,
  created_at: '2026-03-01T09:00:00.000Z',
  updated_at: '2026-03-01T09:00:00.000Z',
  last_seen_at: null,
  email_status: 'unknown',
  sms_status: 'unknown',
  whatsapp_status: 'unknown',
  labels: labels.map(ref),
});

function directory(role: 'owner' | 'agent' = 'owner') {
  signIn();
  let people = [visitor(5, 'Grace', [VIP]), visitor(6, 'Alan', [])];
  const calls = { lists: [] as Record<string, string>[], puts: [] as unknown[] };
  const EMPTY = { count: 0, next: null, previous: null, results: [] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/msg/labels/', () => ok([LEAD, VIP])),
    http.get('/api/business/customer-directory/', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      calls.lists.push(params);
      const results = people.filter(
        (p) => !params.label || p.labels.some((l) => l.id === Number(params.label)),
      );
      return ok({ count: results.length, count_capped: false, next: null, previous: null, results });
    }),
    http.get('/api/business/customer-directory/:id/', ({ params }) =>
      ok(people.find((p) => p.id === Number(params.id))),
    ),
    http.put('/api/business/customer-directory/:id/', async ({ request, params }) => {
      const body = (await request.json()) as { label_ids: number[] };
      calls.puts.push(body);
      people = people.map((p) =>
        p.id === Number(params.id)
          ? { ...p, labels: [LEAD, VIP].filter((l) => body.label_ids.includes(l.id)).map(ref) }
          : p,
      );
      return ok(people.find((p) => p.id === Number(params.id)));
    }),
    http.get('/api/business/customer-directory/:id/conversations/', () => ok(EMPTY)),
    http.get('/api/business/customer-directory/:id/sends/', () => ok(EMPTY)),
    http.get('/api/sms/inbound/', () => ok(EMPTY)),
  );
  return calls;
}

describe('labels in the directory', { timeout: 20_000 }, () => {
  it('shows the labels in the table and filters by one, kept in the URL', async () => {
    const calls = directory();
    const { router } = renderApp('/engage/directory');
    const table = await screen.findByRole('table', { name: 'Visitors' });
    const grace = within(table).getByRole('link', { name: 'Grace' }).closest('tr')!;
    expect(within(grace).getByText('VIP')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Filter by label' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'VIP' }));
    await waitFor(() => expect(calls.lists.at(-1)).toMatchObject({ label: '3' }));
    expect(router.state.location.search).toBe('?label=3');
    await waitFor(() => expect(within(table).queryByRole('link', { name: 'Alan' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Label: VIP' })).toBeInTheDocument();
  });

  it("edits a customer's labels on their page", async () => {
    const calls = directory();
    renderApp('/engage/directory/visitor/5');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit labels' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Lead' }));
    await waitFor(() => expect(calls.puts).toEqual([{ label_ids: [3, 4] }]));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'VIP' }));
    await waitFor(() => expect(calls.puts.at(-1)).toEqual({ label_ids: [4] }));
  });

  it('shows agents the labels without the picker', async () => {
    directory('agent');
    renderApp('/engage/directory/visitor/5');
    expect(await screen.findByText('VIP')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit labels' })).not.toBeInTheDocument();
  });
});
