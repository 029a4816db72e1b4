// The bell (issue 29): the unread count in the header, the tab title and the navigation; the list
// to mark read or open a conversation; live arrivals on the notifications topic; and Settings →
// Notifications saving the member's preferences.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type TNotification,
  type TNotificationPage,
  type TNotificationPreferences,
} from '@titan/contracts';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

/** The machine may be busy: generous waits (the default second is not enough under load). */
const WAIT = { timeout: 10_000 };

const note = (over: Partial<TNotification> = {}): TNotification => ({
  id: 1,
  type: 'mentioned',
  title: 'Ann mentioned you in “Order 1234”',
  body: 'Can you take this @Ada?',
  conversation_id: 41,
  actor: { id: 3, name: 'Ann' },
  read: false,
  created_at: '2026-11-28T09:00:00Z',
  ...over,
});

function signedIn(results: TNotification[]) {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile())));
  const page = (): TNotificationPage => ({
    count: results.length,
    next: null,
    previous: null,
    results,
    unread_count: results.filter((n) => !n.read).length,
  });
  const reads: unknown[] = [];
  server.use(
    http.get('/api/notifications/', () => ok(page())),
    http.post('/api/notifications/read/', async ({ request }) => {
      const body = (await request.json()) as { ids?: number[]; all?: boolean };
      reads.push(body);
      for (const n of results) if (body.all || body.ids?.includes(n.id)) n.read = true;
      return ok({ updated: 1, unread_count: page().unread_count });
    }),
  );
  return { reads };
}

describe('the notification bell', () => {
  it('counts unread in the header, the tab title and the navigation, and marks read', async () => {
    const { reads } = signedIn([
      note(),
      note({ id: 2, type: 'assigned', title: 'Bo assigned you “Refund”', body: '', read: true }),
    ]);
    fakeRealtime();
    renderApp('/engage');
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' }, WAIT);
    expect(within(bell).getByTestId('notification-count')).toHaveTextContent('1');
    await waitFor(() => expect(document.title).toBe('(1) Dashboard · Titan'), WAIT);
    const nav = screen.getByRole('navigation', { name: /navigation|areas/i });
    expect(within(nav).getByRole('link', { name: /Conversations/ })).toHaveTextContent('Conversations1');

    await userEvent.click(bell);
    const list = await screen.findByRole('list', { name: 'Notifications' }, WAIT);
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('Can you take this @Ada?')).toBeInTheDocument();
    await userEvent.click(
      within(list).getByRole('button', { name: 'Mark read: Ann mentioned you in “Order 1234”' }),
    );
    await waitFor(() => expect(reads).toEqual([{ ids: [1] }]), WAIT);
    await waitFor(
      () => expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument(),
      WAIT,
    );
    await waitFor(() => expect(document.title).toBe('Dashboard · Titan'), WAIT);
  }, 20_000);

  it('shows a live arrival at once, and opens its conversation (marking it read)', async () => {
    const results: TNotification[] = [];
    const { reads } = signedIn(results);
    const realtime = fakeRealtime();
    const { router } = renderApp('/engage');
    await screen.findByRole('button', { name: 'Notifications' }, WAIT);
    await waitFor(
      () =>
        expect(realtime.subscriptions().at(-1)).toMatchObject({
          topic: 'notifications',
          business_code: ACME.unique_code,
        }),
      WAIT,
    );
    const arrived = note({
      id: 7,
      type: 'new_message',
      title: 'New message from Vic in “Parcel”',
      body: 'Where is it?',
      conversation_id: 99,
    });
    results.unshift(arrived);
    realtime.change('notifications', { table: 'notifications', event: 'INSERT', new: arrived, old: null });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' }, WAIT);
    await userEvent.click(bell);
    await userEvent.click(
      await screen.findByRole(
        'button',
        { name: 'New message from Vic in “Parcel” — Open the conversation' },
        WAIT,
      ),
    );
    await waitFor(
      () =>
        expect(router.state.location.pathname + router.state.location.search).toBe(
          '/messages?conversation=99',
        ),
      WAIT,
    );
    await waitFor(() => expect(reads).toEqual([{ ids: [7] }]), WAIT);
  }, 20_000);

  it('marks all read', async () => {
    const { reads } = signedIn([note(), note({ id: 2 })]);
    fakeRealtime();
    renderApp('/engage');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }, WAIT));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }, WAIT));
    await waitFor(() => expect(reads).toEqual([{ all: true }]), WAIT);
    await screen.findByRole('button', { name: 'Notifications' }, WAIT);
  }, 20_000);
});

describe('Settings → Notifications', () => {
  it('shows each kind with its channels and saves the change', async () => {
    signedIn([]);
    fakeRealtime();
    const puts: TNotificationPreferences[] = [];
    server.use(
      http.get('/api/notifications/preferences/', () => ok(DEFAULT_NOTIFICATION_PREFERENCES)),
      http.put('/api/notifications/preferences/', async ({ request }) => {
        const body = (await request.json()) as TNotificationPreferences;
        puts.push(body);
        return ok(body);
      }),
    );
    renderApp('/engage/settings/notifications');
    const group = await screen.findByRole(
      'group',
      { name: 'New customer messages in your conversations' },
      WAIT,
    );
    const email = within(group).getByRole('checkbox', { name: 'Email' });
    expect(email).not.toBeChecked();
    await userEvent.click(email);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(
      () => expect(puts.at(-1)?.new_message).toEqual({ in_app: true, push: true, email: true }),
      WAIT,
    );
    expect(puts.at(-1)?.assigned).toEqual(DEFAULT_NOTIFICATION_PREFERENCES.assigned);
    // jsdom has no service worker or Push API: the browser card says so.
    expect(screen.getByText('This browser cannot show push notifications.')).toBeInTheDocument();
  }, 20_000);
});
