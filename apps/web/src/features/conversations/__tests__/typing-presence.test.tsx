// Typing and presence in the inbox (issue 29): the customer's and other staff's typing shown under
// the messages and cleared by their message; the reply box says "typing" (throttled), the note box
// never does; members' presence dots in the assign menu, live from the presence topic; the row's
// last-message preview.
import type { TConversation, TMember } from '@titan/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { fakeRealtime, type TFakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { resetTyping } from '../hooks/use-typing';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 15_000 });

const member = (pk: number, first: string, last: string, presence: TMember['presence']): TMember => ({
  id: pk + 100,
  user: { pk, first_name: first, last_name: last, email: `${first.toLowerCase()}@example.com` },
  role: 'admin',
  joined_at: '2026-01-01T00:00:00.000Z',
  presence,
});
const ADA = member(7, 'Ada', 'Lovelace', 'online');
const BOB = member(8, 'Bob', 'Builder', 'away');
const OPEN: TConversation = conversation({
  id: 1,
  last_message_preview: { sender_type: 'staff', message_type: 'text', content: 'On its\n  way' },
});

function inbox(): TFakeRealtime {
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([ADA, BOB])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/', () => ok(page([OPEN]))),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [{ id: null, count: 1 }], labels: [] }),
    ),
    http.get('/api/msg/conversations/:id/', () => ok(OPEN)),
    http.get('/api/msg/conversations/:id/messages/', () => ok([message({ id: 1, content: 'Where is it?' })])),
  );
  return fakeRealtime();
}

const typingSent = (rt: TFakeRealtime) => rt.sent.filter((m) => m.type === 'typing');

afterEach(() => resetTyping());

describe('typing', { timeout: 40_000 }, () => {
  it('shows who is typing in the open conversation and clears it when their message arrives', async () => {
    const rt = inbox();
    renderApp('/messages?conversation=1');
    await screen.findByText('Where is it?');
    await waitFor(() => expect(rt.subscriptions().some((s) => s.topic === 'messages')).toBe(true));
    const sub = rt
      .subscriptions()
      .filter((s) => s.topic === 'messages')
      .at(-1)!;
    const indicator = screen.getByTestId('typing-indicator');
    expect(indicator).toHaveTextContent('');

    act(() =>
      rt.push({
        type: 'typing',
        sub: sub.id,
        conversation_id: 1,
        who: { type: 'customer', id: 11, name: 'Grace Hopper' },
      }),
    );
    await waitFor(() => expect(indicator).toHaveTextContent('Grace Hopper is typing…'));
    expect(indicator).toHaveAttribute('aria-live', 'polite');

    act(() =>
      rt.push({
        type: 'typing',
        sub: sub.id,
        conversation_id: 1,
        who: { type: 'staff', id: 8, name: 'Bob Builder' },
      }),
    );
    await waitFor(() => expect(indicator).toHaveTextContent('Grace Hopper and Bob Builder are typing…'));
    // Another conversation's signal is not this one's.
    act(() =>
      rt.push({
        type: 'typing',
        sub: sub.id,
        conversation_id: 2,
        who: { type: 'customer', id: 99, name: 'Zed' },
      }),
    );

    act(() =>
      rt.change('messages', {
        table: 'messages',
        event: 'INSERT',
        old: null,
        new: message({ id: 2, content: 'Found it', sender_id: 11 }),
      }),
    );
    await screen.findByText('Found it');
    await waitFor(() => expect(indicator).toHaveTextContent('Bob Builder is typing…'));
    expect(indicator).not.toHaveTextContent('Zed');
  });

  it('says "typing" from the reply box at most once per few seconds, never from the note box', async () => {
    const rt = inbox();
    renderApp('/messages?conversation=1');
    await screen.findByText('Where is it?');
    await waitFor(() => expect(rt.subscriptions().some((s) => s.topic === 'messages')).toBe(true));

    await userEvent.click(screen.getByRole('tab', { name: 'Private note' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Private note' }), 'internal only');
    expect(typingSent(rt)).toEqual([]);

    await userEvent.click(screen.getByRole('tab', { name: 'Reply' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'On its way');
    await waitFor(() => expect(typingSent(rt)).toEqual([{ type: 'typing', conversation_id: 1 }]));
  });
});

describe('the list row', { timeout: 40_000 }, () => {
  it('shows a one-line preview of the last message under the title, naming the team', async () => {
    inbox();
    renderApp('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const preview = within(list).getByTestId('last-message-preview');
    expect(preview).toHaveTextContent('Team: On its way');
  });
});

describe('presence', { timeout: 40_000 }, () => {
  it('shows each member’s presence in the assign menu and follows the presence topic', async () => {
    const rt = inbox();
    renderApp('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await waitFor(() => expect(rt.subscriptions().some((s) => s.topic === 'presence')).toBe(true));
    await userEvent.click(within(list).getByRole('button', { name: 'Actions for Grace Hopper' }));
    const bob = await screen.findByRole('menuitem', { name: /Bob Builder/ });
    expect(within(bob).getByRole('img', { name: 'Away' })).toHaveAttribute('data-presence', 'away');
    expect(
      within(screen.getByRole('menuitem', { name: /Ada Lovelace/ })).getByRole('img', { name: 'Online' }),
    ).toBeInTheDocument();

    act(() =>
      rt.change('presence', {
        table: 'user_presence',
        event: 'UPDATE',
        old: null,
        new: { user_id: 8, status: 'online', updated_at: '2026-03-01T10:00:00.000Z' },
      }),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('menuitem', { name: /Bob Builder/ })).getByRole('img', { name: 'Online' }),
      ).toBeInTheDocument(),
    );
  });
});
