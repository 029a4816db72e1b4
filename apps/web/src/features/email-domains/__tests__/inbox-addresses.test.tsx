// Settings → Inbox addresses (issue 30): add an address on a verified domain (routed to a chat
// group), see the MX / relay records to publish with copy buttons, the API's field message when it
// refuses, and delete only after confirming.
import type { TEmailDomain, TEmailInbox } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

configure({ asyncUtilTimeout: 15_000 });

const domain = (id: number, name: string, status: TEmailDomain['status']): TEmailDomain => ({
  id,
  domain: name,
  status,
  last_checked_at: null,
  default_from: null,
  created_at: '2026-11-20T10:00:00Z',
  records: [],
});

const inbox = (id: number, local: string, chatGroupId: number | null = null): TEmailInbox => ({
  id,
  domain_id: 3,
  local_part: local,
  address: `${local}@shop.example`,
  chat_group_id: chatGroupId,
  created_at: '2026-11-20T10:00:00Z',
  records: [
    {
      purpose: 'receive',
      type: 'MX',
      host: 'shop.example',
      value: 'mx.titan.example',
      priority: 10,
      detail: 'Publish this MX record when all mail for shop.example may come to Titan.',
    },
    {
      purpose: 'forward',
      type: 'FORWARD',
      host: `${local}@shop.example`,
      value: 'mx.titan.example',
      priority: null,
      detail: `Or keep your mail server and have it relay mail for ${local}@shop.example to mx.titan.example (SMTP, port 25).`,
    },
  ],
});

function setUp(
  role: 'owner' | 'agent' = 'owner',
  domains = [domain(3, 'shop.example', 'verified'), domain(4, 'news.example', 'pending')],
) {
  signIn();
  let inboxes: TEmailInbox[] = [inbox(1, 'hello')];
  const created: unknown[] = [];
  const deleted: number[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/email/domains/', () => ok(domains)),
    http.get('/api/msg/chat-groups/', () =>
      ok([
        {
          id: 8,
          name: 'Front desk',
          slug: 'front-desk',
          greeting: '',
          color: '#111827',
          launcher_position: 'right',
          visitor_form: [],
          allowed_origins: [],
          created_at: '2026-01-01T09:00:00.000Z',
        },
      ]),
    ),
    http.get('/api/email/inboxes/', () => ok(inboxes)),
    http.post('/api/email/inboxes/', async ({ request }) => {
      const body = (await request.json()) as { local_part: string; chat_group_id: number | null };
      created.push(body);
      if (body.local_part === 'hello')
        return fail(400, 'Invalid input.', { local_part: ['This address is already an inbox address.'] });
      const made = inbox(2, body.local_part, body.chat_group_id);
      inboxes = [...inboxes, made];
      return ok(made, 201);
    }),
    http.delete('/api/email/inboxes/:id/', ({ params }) => {
      deleted.push(Number(params.id));
      inboxes = inboxes.filter((i) => i.id !== Number(params.id));
      return new Response(null, { status: 204 });
    }),
  );
  renderApp('/engage/settings/inbox-addresses');
  return { created, deleted };
}

describe('Settings → Inbox addresses', { timeout: 60_000 }, () => {
  it('adds an address on a verified domain and shows the records to publish', async () => {
    const user = userEvent.setup();
    const { created } = setUp();
    expect(await screen.findByRole('heading', { name: 'hello@shop.example' })).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: 'Add an inbox address' });
    // Only verified domains are offered.
    const domainSelect = within(form).getByLabelText('Domain');
    expect(
      within(domainSelect)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['@shop.example']);

    await user.type(within(form).getByLabelText('Address'), 'hello');
    await user.click(within(form).getByRole('button', { name: 'Add address' }));
    expect(await within(form).findByText('This address is already an inbox address.')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Address'));
    await user.type(within(form).getByLabelText('Address'), 'Support');
    await user.selectOptions(within(form).getByLabelText('Chat group'), 'Front desk');
    await user.click(within(form).getByRole('button', { name: 'Add address' }));
    await waitFor(() => expect(created).toHaveLength(2));
    expect(created[1]).toEqual({ local_part: 'support', domain_id: 3, chat_group_id: 8 });
    expect(await screen.findByRole('heading', { name: 'support@shop.example' })).toBeInTheDocument();
    expect(screen.getByText('Opens conversations in Front desk')).toBeInTheDocument();
    const records = screen.getByRole('table', { name: 'How mail for support@shop.example reaches Titan' });
    expect(within(records).getByText('MX')).toBeInTheDocument();
    expect(within(records).getAllByText('mx.titan.example')).toHaveLength(2);
    expect(within(records).getByRole('button', { name: 'Copy Receive all mail value' })).toBeInTheDocument();
  });

  it('deletes an address only after confirming', async () => {
    const user = userEvent.setup();
    const { deleted } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Delete hello@shop.example' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete hello@shop.example?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete hello@shop.example' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([1]));
    expect(
      await screen.findByText('No inbox addresses yet. Add one so customers can write to you.'),
    ).toBeInTheDocument();
  });

  it('asks for a verified domain first', async () => {
    setUp('owner', [domain(4, 'news.example', 'pending')]);
    const note = await screen.findByText(/Verify a sending domain first/);
    expect(within(note).getByRole('link', { name: 'Email domains' })).toHaveAttribute(
      'href',
      '/engage/settings/email-domains',
    );
  });

  it('an agent sees the addresses but cannot change them', async () => {
    setUp('agent');
    expect(await screen.findByRole('heading', { name: 'hello@shop.example' })).toBeInTheDocument();
    expect(
      screen.getByText('Your role can see inbox addresses but not change them. Ask an owner or admin.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete hello@shop.example' })).toBeNull();
  });
});
