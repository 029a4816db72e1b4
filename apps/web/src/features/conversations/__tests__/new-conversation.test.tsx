// "New conversation" (issue 29): pick a customer, and on a channel they agreed to (WhatsApp) send an
// approved template to their number; the inbox then opens the conversation it started. A customer
// without consent is told why nothing can be sent; the customer's page opens it for them.
import type { TDirectoryVisitor } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { ORDER_UPDATE_TEMPLATE } from '../../../test/whatsapp';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 15_000 });

// jsdom lays nothing out: ProseMirror (the email editor) asks a Range where the caret is.
beforeAll(() => {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  document.elementFromPoint = () => null;
});

const customer = (
  id: number,
  name: string,
  overrides: Partial<TDirectoryVisitor> = {},
): TDirectoryVisitor => ({
  id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  phone: '+12015550123',
  external_id: null,
  fields: {},
  conversation_count: 0,
  created_at: '2026-01-01T09:00:00.000Z',
  updated_at: '2026-01-01T09:00:00.000Z',
  last_seen_at: null,
  email_status: 'subscribed',
  sms_status: 'unknown',
  whatsapp_status: 'subscribed',
  labels: [],
  ...overrides,
});
const GRACE = customer(11, 'Grace Hopper');
const ALAN = customer(12, 'Alan Turing', { whatsapp_status: 'unsubscribed' });
const STARTED = conversation({ id: 9, channel: 'whatsapp', title: 'WhatsApp with Grace Hopper' });

const SENT = message({
  id: 50,
  conversation_id: 9,
  sender_type: 'staff',
  content: 'Hi Grace, your order #1 has shipped.',
});

function setup() {
  signIn();
  const calls = { searches: [] as string[], sends: [] as unknown[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/', () => ok(page([]))),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 0, mine: 0, unassigned: 0, assignees: [], groups: [], labels: [] }),
    ),
    http.get('/api/msg/conversations/9/', () => ok(STARTED)),
    http.get('/api/msg/conversations/9/messages/', () => ok(calls.sends.length > 0 ? [SENT] : [])),
    http.get('/api/whatsapp/conversations/9/window/', () =>
      ok({ open: false, expires_at: null, last_customer_message_at: null }),
    ),
    http.get('/api/business/customer-directory/', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      calls.searches.push(search);
      const results = [GRACE, ALAN].filter((c) => c.name!.toLowerCase().includes(search.toLowerCase()));
      return ok({ count: results.length, next: null, previous: null, results, count_capped: false });
    }),
    http.get('/api/business/customer-directory/11/', () => ok(GRACE)),
    http.get('/api/whatsapp/template/', () => ok([ORDER_UPDATE_TEMPLATE])),
    http.post('/api/whatsapp/message/send-template/', async ({ request }) => {
      calls.sends.push(await request.json());
      return ok(SENT, 201);
    }),
  );
  fakeRealtime();
  return calls;
}

async function sendOrderUpdate(dialog: HTMLElement) {
  await userEvent.selectOptions(await within(dialog).findByLabelText('Template'), 'order_update (en_US)');
  await userEvent.type(within(dialog).getByLabelText('Header {{1}}'), '#1');
  await userEvent.type(within(dialog).getByLabelText('Body {{1}}'), 'Grace');
  await userEvent.type(within(dialog).getByLabelText('Body {{2}}'), '#1');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send template' }));
}

describe('new conversation', { timeout: 45_000 }, () => {
  it('sends a template to a consenting customer and opens the conversation it started', async () => {
    const calls = setup();
    renderApp('/messages');
    await userEvent.click(await screen.findByRole('button', { name: 'New conversation' }));
    const dialog = await screen.findByRole('dialog', { name: 'New conversation' });
    await userEvent.type(within(dialog).getByLabelText('Search customers'), 'alan');
    await waitFor(() => expect(calls.searches.at(-1)).toBe('alan'));
    await userEvent.click(await within(dialog).findByRole('button', { name: /^Choose\s+Alan Turing\s/ }));
    // No WhatsApp consent: said, and no template form.
    expect(within(dialog).getByText(/Has not agreed to WhatsApp messages/)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Template')).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Change customer' }));
    await userEvent.type(within(dialog).getByLabelText('Search customers'), 'grace');
    await userEvent.click(await within(dialog).findByRole('button', { name: /^Choose\s+Grace Hopper\s/ }));
    await sendOrderUpdate(dialog);

    await waitFor(() =>
      expect(calls.sends).toEqual([
        {
          to: '+12015550123',
          name: 'order_update',
          language: 'en_US',
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Grace' },
                { type: 'text', text: '#1' },
              ],
            },
            { type: 'header', parameters: [{ type: 'text', text: '#1' }] },
          ],
        },
      ]),
    );
    expect(await screen.findByText('Conversation started.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const pane = screen.getByRole('region', { name: 'Conversation' });
    expect(await within(pane).findByText('Hi Grace, your order #1 has shipped.')).toBeInTheDocument();
  });

  it('opens for the customer named in the address (the customer page’s link)', async () => {
    setup();
    renderApp('/messages?new_conversation=11');
    const dialog = await screen.findByRole('dialog', { name: 'New conversation' });
    expect(await within(dialog).findByText('Grace Hopper')).toBeInTheDocument();
    expect(await within(dialog).findByLabelText('Template')).toBeInTheDocument();
  });

  it('emails an address typed in: subject and rich text, one idempotency key, then opens the conversation', async () => {
    const calls = setup();
    const starts: Record<string, unknown>[] = [];
    const emailConversation = conversation({ id: 9, channel: 'email', title: 'Your quote' });
    const first = message({ id: 50, conversation_id: 9, sender_type: 'staff', content: 'Here it is.' });
    server.use(
      http.get('/api/msg/conversations/9/', () => ok(emailConversation)),
      http.get('/api/msg/conversations/9/messages/', () => ok(starts.length > 1 ? [first] : [])),
      http.post('/api/msg/conversations/', async ({ request }) => {
        starts.push((await request.json()) as Record<string, unknown>);
        // The first try is refused with a field message; the second goes.
        if (starts.length === 1)
          return fail(409, 'Not verified', { from: ['Verify acme.test first (Settings → Email domains).'] });
        return ok({ conversation: emailConversation, message: first }, 201);
      }),
    );
    renderApp('/messages');
    await userEvent.click(await screen.findByRole('button', { name: 'New conversation' }));
    const dialog = await screen.findByRole('dialog', { name: 'New conversation' });
    await userEvent.type(within(dialog).getByLabelText('Search customers'), 'erin@customer.test');
    await waitFor(() => expect(calls.searches.at(-1)).toBe('erin@customer.test'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Email erin@customer.test' }));
    const form = within(dialog).getByRole('form', { name: 'First email' });
    const send = within(form).getByRole('button', { name: 'Send email' });
    expect(send).toBeDisabled();
    await userEvent.type(within(form).getByLabelText('Subject'), 'Your quote');
    await userEvent.click(within(form).getByRole('textbox', { name: 'Email body' }));
    await userEvent.keyboard('Here it is.');
    await userEvent.click(send);
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Verify acme.test first (Settings → Email domains).',
    );
    await userEvent.click(send);
    expect(await screen.findByText('Conversation started.')).toBeInTheDocument();
    expect(starts).toHaveLength(2);
    expect(starts[1]).toMatchObject({
      channel: 'email',
      to: 'erin@customer.test',
      subject: 'Your quote',
      content: 'Here it is.',
      html: '<p>Here it is.</p>',
    });
    expect(starts[1]!.idempotency_key).toEqual(expect.any(String));
    expect(starts[1]!.idempotency_key).toBe(starts[0]!.idempotency_key);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const pane = screen.getByRole('region', { name: 'Conversation' });
    expect(await within(pane).findByText('Here it is.')).toBeInTheDocument();
  });

  it('texts a chosen customer by SMS; a customer without an email is told so on Email', async () => {
    setup();
    const starts: Record<string, unknown>[] = [];
    const smsConversation = conversation({ id: 9, channel: 'sms', title: 'Grace Hopper' });
    const first = message({ id: 51, conversation_id: 9, sender_type: 'staff', content: 'Table ready' });
    server.use(
      http.get('/api/msg/conversations/9/', () => ok(smsConversation)),
      http.get('/api/msg/conversations/9/messages/', () => ok(starts.length > 0 ? [first] : [])),
      http.get('/api/business/customer-directory/13/', () =>
        ok(customer(13, 'Ada Lovelace', { email: null })),
      ),
      http.post('/api/msg/conversations/', async ({ request }) => {
        starts.push((await request.json()) as Record<string, unknown>);
        return ok({ conversation: smsConversation, message: first }, 201);
      }),
    );
    renderApp('/messages?new_conversation=13');
    const dialog = await screen.findByRole('dialog', { name: 'New conversation' });
    expect(await within(dialog).findByText('Ada Lovelace')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Email' }));
    expect(within(dialog).getByText(/No email address on file/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'SMS' }));
    const form = within(dialog).getByRole('form', { name: 'First text' });
    await userEvent.type(within(form).getByLabelText('Text'), 'Table ready');
    expect(within(form).getByText('11 / 1,600 characters')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByText('Conversation started.')).toBeInTheDocument();
    expect(starts).toEqual([
      { channel: 'sms', customer_id: 13, content: 'Table ready', idempotency_key: expect.any(String) },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const pane = await screen.findByRole('region', { name: 'Conversation' });
    expect(await within(pane).findByText('Table ready')).toBeInTheDocument();
  });
});
