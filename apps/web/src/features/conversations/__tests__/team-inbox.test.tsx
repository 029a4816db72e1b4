// The team inbox in the app (issue 29): views with counts, the assignee on rows and in the header,
// assigning from the menus and in bulk, notes drawn apart with their mentions, and the note mode.
import type { TConversation, TMember } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 10_000 });

const member = (pk: number, first: string, last: string): TMember => ({
  id: pk + 100,
  user: { pk, first_name: first, last_name: last, email: `${first.toLowerCase()}@example.com` },
  role: 'admin',
  joined_at: '2026-01-01T00:00:00.000Z',
});
const ADA = member(7, 'Ada', 'Lovelace');
const BOB = member(8, 'Bob', 'Builder');

const MINE = conversation({ id: 1, assignee: { id: 7, name: 'Ada Lovelace', avatar_url: null } });
const OPEN = conversation({
  id: 2,
  title: 'Refund',
  initiator: { id: 12, name: 'Alan Turing', email: null },
});

function inbox(rows: TConversation[] = [MINE, OPEN]) {
  signIn();
  const calls = {
    lists: [] as Record<string, string>[],
    puts: [] as unknown[],
    bulk: [] as unknown[],
    notes: [] as unknown[],
  };
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([ADA, BOB])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      calls.lists.push(params);
      const shown = rows.filter(
        (c) =>
          !params.assignee ||
          (params.assignee === 'none'
            ? c.assignee === null
            : c.assignee?.id === (params.assignee === 'me' ? 7 : Number(params.assignee))),
      );
      return ok(page(shown));
    }),
    http.get('/api/msg/conversations/counts/', () =>
      ok({
        all: 2,
        mine: 1,
        unassigned: 1,
        assignees: [{ id: 7, count: 1 }],
        groups: [{ id: null, count: 2 }],
        labels: [],
      }),
    ),
    http.get('/api/msg/conversations/:id/', ({ params }) => ok(rows.find((c) => c.id === Number(params.id)))),
    http.get('/api/msg/conversations/:id/messages/', () =>
      ok([
        message({ id: 1, content: 'Where is it?' }),
        message({
          id: 2,
          message_type: 'activity',
          sender_type: 'system',
          content: 'Ada Lovelace assigned this conversation to Ada Lovelace',
          meta_data: { action: 'assigned' },
        }),
        message({
          id: 3,
          message_type: 'note',
          sender_type: 'staff',
          sender: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', avatar_url: null },
          content: '@[Bob Builder](member:8) please check the courier',
          meta_data: { mentions: [8] },
        }),
      ]),
    ),
    http.put('/api/msg/conversations/:id/', async ({ request, params }) => {
      const body = (await request.json()) as { assignee_id?: number | null };
      calls.puts.push(body);
      const found = rows.find((c) => c.id === Number(params.id))!;
      const assignee = body.assignee_id
        ? { id: body.assignee_id, name: 'Bob Builder', avatar_url: null }
        : null;
      return ok({ ...found, assignee });
    }),
    http.post('/api/msg/conversations/bulk/', async ({ request }) => {
      const body = (await request.json()) as { ids: number[] };
      calls.bulk.push(body);
      return ok({ updated: body.ids });
    }),
    http.post('/api/msg/conversations/:id/notes/', async ({ request }) => {
      const body = (await request.json()) as { content: string };
      calls.notes.push(body);
      return ok(message({ id: 9, message_type: 'note', sender_type: 'staff', content: body.content }), 201);
    }),
  );
  fakeRealtime();
  return calls;
}

describe('team inbox', { timeout: 20_000 }, () => {
  it('shows the views with their counts and filters the list by the one picked', async () => {
    const calls = inbox();
    renderApp('/messages');
    const views = await screen.findByRole('group', { name: 'Inbox views' });
    expect(await within(views).findByRole('button', { name: 'Mine 1 conversation' })).toBeInTheDocument();
    expect(within(views).getByRole('button', { name: 'All 2 conversations' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(within(views).getByRole('button', { name: 'Unassigned 1 conversation' }));
    await waitFor(() => expect(calls.lists.at(-1)).toMatchObject({ assignee: 'none' }));
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByText('Alan Turing')).toBeInTheDocument();
  });

  it('shows the assignee on a row and assigns from the row menu', async () => {
    const calls = inbox();
    renderApp('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText('Ada Lovelace')).toBeInTheDocument();
    await userEvent.click(within(second!).getByRole('button', { name: 'Actions for Alan Turing' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Bob Builder' }));
    await waitFor(() => expect(calls.puts).toEqual([{ assignee_id: 8 }]));
    expect(await screen.findByText('Assigned to Bob Builder.')).toBeInTheDocument();
  });

  it('selects rows and changes them in bulk', async () => {
    const calls = inbox();
    renderApp('/messages');
    await screen.findByRole('list', { name: 'Conversations' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select conversation with Grace Hopper' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select conversation with Alan Turing' }));
    const bar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(calls.bulk).toEqual([{ ids: [1, 2], status: 'resolved' }]));
    expect(await screen.findByText('2 conversations updated.')).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('draws notes and activity lines apart, and writes a note with a mention', async () => {
    const calls = inbox();
    renderApp('/messages?conversation=1');
    const note = (await screen.findByText(/please check the courier/)).closest('li')!;
    expect(note).toHaveAttribute('data-message-type', 'note');
    expect(within(note).getByText('Private note')).toBeInTheDocument();
    expect(within(note).getByText('@Bob Builder')).toHaveAttribute('data-member-id', '8');
    expect(screen.getByText(/assigned this conversation to Ada Lovelace/).closest('li')).toHaveAttribute(
      'data-message-type',
      'activity',
    );
    // The header shows the assignee (as the row does).
    expect(screen.getAllByTitle('Assigned to Ada Lovelace')).toHaveLength(2);

    await userEvent.click(screen.getByRole('tab', { name: 'Private note' }));
    const box = screen.getByRole('textbox', { name: 'Private note' });
    await userEvent.type(box, 'Over to @bo');
    await userEvent.click(
      within(await screen.findByRole('listbox', { name: 'Mention a member' })).getByText('Bob Builder'),
    );
    expect(box).toHaveValue('Over to @[Bob Builder](member:8) ');
    await userEvent.type(box, 'thanks{Enter}');
    await waitFor(() =>
      expect(calls.notes).toEqual([{ content: 'Over to @[Bob Builder](member:8) thanks' }]),
    );
    expect(box).toHaveValue('');
  });
});

// jsdom lays nothing out: cmdk and the shortcuts scroll the chosen item into view.
Element.prototype.scrollIntoView ??= () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
const openRow = (list: HTMLElement) =>
  within(list)
    .getAllByRole('link')
    .find((a) => a.getAttribute('aria-current') === 'true')
    ?.getAttribute('data-conversation-id');

describe('the inbox keyboard and the command palette', { timeout: 30_000 }, () => {
  it('j and k move through the list, a assigns to me, e resolves, ? lists the shortcuts', async () => {
    const calls = inbox();
    renderApp('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    await userEvent.keyboard('j');
    await waitFor(() => expect(openRow(list)).toBe('1'));
    await userEvent.keyboard('j');
    await waitFor(() => expect(openRow(list)).toBe('2'));
    await userEvent.keyboard('k');
    await waitFor(() => expect(openRow(list)).toBe('1'));
    await screen.findByRole('tablist', { name: /./ });
    await userEvent.keyboard('a');
    await waitFor(() => expect(calls.puts.at(-1)).toHaveProperty('assignee_id'));
    await userEvent.keyboard('e');
    await waitFor(() => expect(calls.puts.at(-1)).toEqual({ status: 'resolved' }));
    await userEvent.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Assign to me')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    // Typing in a field is the field's: no move.
    await userEvent.keyboard('n');
    const note = await screen.findByRole('textbox', { name: /note/i });
    expect(note).toHaveFocus();
    await userEvent.keyboard('j');
    expect(openRow(list)).toBe('1');
  });

  it('Ctrl-K opens the palette, which finds screens and goes there', async () => {
    inbox();
    renderApp('/messages');
    await screen.findByRole('list', { name: 'Conversations' });
    await userEvent.keyboard('{Control>}k{/Control}');
    const palette = await screen.findByRole('dialog', { name: 'Go to' });
    await userEvent.type(within(palette).getByRole('combobox'), 'campa');
    expect(
      within(palette)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Campaigns']);
    await userEvent.click(within(palette).getByRole('option', { name: 'Campaigns' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Go to' })).toBeNull());
    // The inbox gave way to the campaigns screen.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Conversations' })).toBeNull());
  });
});
