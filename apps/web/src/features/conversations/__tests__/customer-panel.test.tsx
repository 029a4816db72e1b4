// The customer panel beside the conversation (issue 29): opened from the header, it shows the
// customer's details, consent, labels, lists, other conversations (linking to them) and recent
// sends; closed again, the choice is remembered.
import type { TDirectoryVisitor } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 15_000 });

const GRACE: TDirectoryVisitor = {
  id: 11,
  name: 'Grace Hopper',
  email: 'grace@example.com',
  phone: '+12015550123',
  external_id: null,
  fields: {},
  conversation_count: 2,
  created_at: '2026-01-01T09:00:00.000Z',
  updated_at: '2026-01-01T09:00:00.000Z',
  last_seen_at: null,
  email_status: 'subscribed',
  sms_status: 'unsubscribed',
  whatsapp_status: 'unknown',
  labels: [{ id: 4, name: 'VIP', color: '#aa0000' }],
};

function setup() {
  signIn();
  const OPEN = conversation({ id: 1 });
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/', () => ok(page([OPEN]))),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [], labels: [] }),
    ),
    http.get('/api/msg/conversations/:id/', () => ok(OPEN)),
    http.get('/api/msg/conversations/:id/messages/', () => ok([message({ id: 1, content: 'Where is it?' })])),
    http.get('/api/business/customer-directory/11/', () => ok(GRACE)),
    http.get('/api/business/customer-directory/11/lists/', () => ok([{ id: 3, name: 'Beta testers' }])),
    http.get('/api/business/customer-directory/11/conversations/', () =>
      ok(
        page([
          { ...OPEN, id: 1 },
          { ...OPEN, id: 6, title: 'Refund for order 42' },
        ]),
      ),
    ),
    http.get('/api/business/customer-directory/11/sends/', () =>
      ok({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            tracking_id: 't-1',
            channel: 'email',
            status: 'delivered',
            to: 'grace@example.com',
            subject: 'Your order shipped',
            template_name: null,
            error_message: null,
            conversation_id: null,
            created_at: '2026-02-01T09:00:00.000Z',
            updated_at: '2026-02-01T09:00:00.000Z',
          },
        ],
      }),
    ),
  );
  fakeRealtime();
}

describe('customer panel', { timeout: 40_000 }, () => {
  it('shows the customer beside the conversation and remembers being closed', async () => {
    setup();
    const view = renderApp('/messages?conversation=1');
    await screen.findByText('Where is it?');
    const toggle = screen.getByRole('button', { name: 'Customer details' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);

    const panel = await screen.findByRole('complementary', { name: 'Customer details' });
    expect(await within(panel).findByText('grace@example.com')).toBeInTheDocument();
    expect(within(panel).getByText('+12015550123')).toBeInTheDocument();
    const consent = within(panel).getByRole('region', { name: 'Consent' });
    expect(consent).toHaveTextContent('Email: Subscribed');
    expect(consent).toHaveTextContent('SMS: Unsubscribed');
    expect(consent).toHaveTextContent('WhatsApp: Unknown');
    expect(within(panel).getByRole('region', { name: 'Labels' })).toHaveTextContent('VIP');
    expect(await within(panel).findByText('Beta testers')).toBeInTheDocument();
    // Other conversations: not the open one; each links to its conversation.
    const others = within(panel).getByRole('region', { name: 'Other conversations' });
    const link = await within(others).findByRole('link', { name: 'Refund for order 42' });
    expect(link).toHaveAttribute('href', '/messages?conversation=6');
    expect(within(others).getAllByRole('link')).toHaveLength(1);
    const sends = within(panel).getByRole('region', { name: 'Recent sends' });
    expect(await within(sends).findByText(/Your order shipped/)).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Edit in the directory' })).toHaveAttribute(
      'href',
      '/engage/directory/visitor/11',
    );

    await userEvent.click(within(panel).getByRole('button', { name: 'Close customer details' }));
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Customer details' })).toBeNull());
    view.unmount();
    expect(localStorage.getItem('titan.customerPanel')).toBe('closed');
  });
});
