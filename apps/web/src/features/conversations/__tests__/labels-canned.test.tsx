// Labels and canned responses in the inbox (issue 29): chips on rows and in the header, labelling
// from the header and the row menu, adding a label in bulk, the label filter, and the composer's
// `/` picker (search, keyboard, rendered insert, attachment sent after the text).
import type { TCannedResponse, TConversation, TLabel } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { conversation, page } from './fixtures';

configure({ asyncUtilTimeout: 10_000 });

const label = (id: number, name: string, color: string): TLabel => ({
  id,
  name,
  color,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
const BILLING = label(1, 'Billing', '#ef4444');
const VIP = label(2, 'VIP', '#22c55e');
const ref = (l: TLabel) => ({ id: l.id, name: l.name, color: l.color });

const canned = (id: number, short_code: string, content: string, file?: string): TCannedResponse => ({
  id,
  short_code,
  content,
  attachment_id: file ? `chat_media/1/${file}` : null,
  attachment: file
    ? { key: `chat_media/1/${file}`, file_name: file, mime_type: 'application/pdf', size: 10 }
    : null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
const HELLO = canned(1, 'hello', 'Hi {{ customer.name }}!');
const PRICES = canned(2, 'prices', 'Our prices are attached.', 'prices.pdf');

const LABELLED = conversation({ id: 1, labels: [ref(BILLING)] });
const PLAIN = conversation({
  id: 2,
  title: 'Refund',
  initiator: { id: 12, name: 'Alan Turing', email: null },
});

function inbox(rows: TConversation[] = [LABELLED, PLAIN]) {
  signIn();
  const calls = {
    lists: [] as Record<string, string>[],
    puts: [] as unknown[],
    bulk: [] as unknown[],
    sent: [] as unknown[],
    searches: [] as string[],
    renders: [] as unknown[],
  };
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/labels/', () => ok([BILLING, VIP])),
    http.get('/api/msg/canned-responses/', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      calls.searches.push(search);
      return ok([HELLO, PRICES].filter((c) => c.short_code.startsWith(search)));
    }),
    http.post('/api/msg/canned-responses/:id/render/', async ({ request, params }) => {
      calls.renders.push({ id: Number(params.id), ...((await request.json()) as object) });
      return Number(params.id) === HELLO.id
        ? ok({ content: 'Hi Grace Hopper!', attachment: null })
        : ok({
            content: 'Our prices are attached.',
            attachment: { ...PRICES.attachment!, url: '/files/chat_media/1/prices.pdf' },
          });
    }),
    http.get('/api/msg/conversations/', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      calls.lists.push(params);
      const shown = rows.filter((c) => !params.label || c.labels.some((l) => l.id === Number(params.label)));
      return ok(page(shown));
    }),
    http.get('/api/msg/conversations/counts/', () =>
      ok({
        all: 2,
        mine: 0,
        unassigned: 2,
        assignees: [],
        groups: [{ id: null, count: 2 }],
        labels: [{ id: 1, count: 1 }],
      }),
    ),
    http.get('/api/msg/conversations/:id/', ({ params }) => ok(rows.find((c) => c.id === Number(params.id)))),
    http.get('/api/msg/conversations/:id/messages/', () => ok([])),
    http.put('/api/msg/conversations/:id/', async ({ request, params }) => {
      const body = (await request.json()) as { label_ids?: number[]; is_read?: boolean };
      calls.puts.push(body);
      const found = rows.find((c) => c.id === Number(params.id))!;
      const labels = body.label_ids
        ? [BILLING, VIP].filter((l) => body.label_ids!.includes(l.id)).map(ref)
        : found.labels;
      return ok({ ...found, labels });
    }),
    http.post('/api/msg/conversations/bulk/', async ({ request }) => {
      const body = (await request.json()) as { ids: number[] };
      calls.bulk.push(body);
      return ok({ updated: body.ids });
    }),
    http.post('/api/msg/conversations/:id/messages/', async ({ request }) => {
      const body = (await request.json()) as { message_type: string; content: string };
      calls.sent.push(body);
      return ok(
        {
          id: 50 + calls.sent.length,
          conversation_id: 1,
          content: body.content,
          created_at: '2026-03-01T10:05:00.000Z',
          is_read: true,
          sender_id: 1,
          sender_type: 'staff',
          message_type: body.message_type,
          meta_data: {},
          status: 'sent',
          timestamp: 1,
          sender: null,
        },
        201,
      );
    }),
  );
  fakeRealtime();
  return calls;
}

describe('labels in the inbox', { timeout: 20_000 }, () => {
  it('shows label chips on rows and in the header, and labels from the header picker', async () => {
    const calls = inbox();
    renderApp('/messages?conversation=1');
    const header = (await screen.findByRole('button', { name: 'Label conversation' })).closest('header')!;
    expect(within(header).getByText('Billing')).toBeInTheDocument();
    const row = document.querySelector<HTMLElement>('[data-conversation-id="1"]')!;
    expect(
      within(within(row).getByRole('list', { name: 'Labels' })).getByText('Billing'),
    ).toBeInTheDocument();

    await userEvent.click(within(header).getByRole('button', { name: 'Label conversation' }));
    const vip = await screen.findByRole('menuitemcheckbox', { name: 'VIP' });
    expect(screen.getByRole('menuitemcheckbox', { name: 'Billing' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(vip);
    await waitFor(() => expect(calls.puts).toContainEqual({ label_ids: [1, 2] }));
    await waitFor(() => expect(within(header).getByText('VIP')).toBeInTheDocument());
  });

  it('labels from the row menu, adds a label in bulk and filters the list by label, counted', async () => {
    const calls = inbox();
    renderApp('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const second = list.querySelectorAll(':scope > li')[1] as HTMLElement;
    await userEvent.click(within(second).getByRole('button', { name: 'Actions for Alan Turing' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Billing' }));
    await waitFor(() => expect(calls.puts).toEqual([{ label_ids: [1] }]));
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select conversation with Grace Hopper' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select conversation with Alan Turing' }));
    const bar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Add label' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'VIP' }));
    await waitFor(() => expect(calls.bulk).toEqual([{ ids: [1, 2], label_ids: [2] }]));

    await userEvent.click(screen.getByRole('button', { name: 'Filter by label' }));
    // Each label with how many conversations carry it (the views' counts).
    expect(await screen.findByRole('menuitem', { name: 'VIP, 0 conversations' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Billing, 1 conversation' }));
    await waitFor(() => expect(calls.lists.at(-1)).toMatchObject({ label: '1' }));
    expect(await screen.findByRole('button', { name: 'Label: Billing' })).toBeInTheDocument();
  });
});

describe('canned responses in the composer', { timeout: 20_000 }, () => {
  it('opens on /, narrows as the code is typed, moves with the arrow keys and inserts the rendered text', async () => {
    const calls = inbox();
    renderApp('/messages?conversation=1');
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'Hello /');
    const picker = await screen.findByRole('listbox', { name: 'Canned responses' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(2));
    expect(within(picker).getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(within(picker).getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', within(picker).getAllByRole('option')[1]!.id);
    await userEvent.keyboard('{ArrowUp}');
    await userEvent.type(box, 'hel');
    await waitFor(() => expect(calls.searches).toContain('hel'));
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(box).toHaveValue('Hello Hi Grace Hopper!'));
    expect(calls.renders).toEqual([{ id: 1, conversation_id: 1 }]);
    expect(screen.queryByRole('listbox', { name: 'Canned responses' })).not.toBeInTheDocument();
    // Nothing was sent by the Enter that picked; the next one sends.
    expect(calls.sent).toEqual([]);
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(calls.sent).toEqual([{ message_type: 'text', content: 'Hello Hi Grace Hopper!' }]),
    );
  });

  it('closes on Escape, and sends a picked reply’s file after its text', async () => {
    const calls = inbox();
    renderApp('/messages?conversation=1');
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await userEvent.type(box, '/');
    await screen.findByRole('listbox', { name: 'Canned responses' });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox', { name: 'Canned responses' })).not.toBeInTheDocument();
    await userEvent.clear(box);
    await userEvent.type(box, '/pri');
    const picker = await screen.findByRole('listbox', { name: 'Canned responses' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(1));
    await userEvent.click(within(picker).getByText('/prices'));
    await waitFor(() => expect(box).toHaveValue('Our prices are attached.'));
    expect(screen.getByText('prices.pdf')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(calls.sent).toEqual([
        { message_type: 'text', content: 'Our prices are attached.' },
        { message_type: 'file', content: 'chat_media/1/prices.pdf' },
      ]),
    );
  });
});
