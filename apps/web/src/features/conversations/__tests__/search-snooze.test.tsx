// The inbox's search box and Snooze menu (issue 29): the box searches as you type, shows the
// highlighted matches and opens the message in context; the header's Snooze items send
// snoozed_until with preset times in the business's time zone.
import type { TConversation } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { snoozePresetTime, wallTimeIn } from '../team/snooze';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 10_000 });

const OPEN = conversation({
  id: 2,
  title: 'Refund',
  initiator: { id: 12, name: 'Alan Turing', email: null },
});

function inbox(rows: TConversation[] = [OPEN]) {
  signIn();
  const calls = { searches: [] as string[], puts: [] as Record<string, unknown>[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/', () => ok(page(rows))),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [], labels: [] }),
    ),
    http.get('/api/msg/conversations/:id/', ({ params }) => ok(rows.find((c) => c.id === Number(params.id)))),
    http.get('/api/msg/conversations/:id/messages/', () =>
      ok([message({ id: 41, content: 'I want a refund <b>now</b>' })]),
    ),
    http.get('/api/msg/search/', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      calls.searches.push(q);
      return ok({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            conversation: OPEN,
            message: {
              id: 41,
              content: 'I want a refund',
              created_at: OPEN.created_at,
              message_type: 'text',
              sender_type: 'customer',
            },
            highlight: 'I want a <mark>refund</mark> &lt;b&gt;',
          },
        ],
      });
    }),
    http.put('/api/msg/conversations/:id/', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.puts.push(body);
      return ok({ ...OPEN, status: 'snoozed', snoozed_until: body.snoozed_until as string });
    }),
  );
  fakeRealtime();
  return calls;
}

describe('inbox search and snooze', { timeout: 120_000 }, () => {
  it('searches as you type, highlights safely and opens the message in context', async () => {
    const calls = inbox();
    renderApp('/messages');
    const box = await screen.findByRole('combobox', { name: 'Search conversations' }, { timeout: 40_000 });
    await userEvent.type(box, 'refund');
    const options = await screen.findAllByRole('option');
    expect(calls.searches.at(-1)).toBe('refund');
    expect(options[0]!.querySelector('mark')?.textContent).toBe('refund');
    expect(options[0]!.querySelector('b')).toBeNull();
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.querySelector('[data-message-id="41"]')?.getAttribute('data-search-hit')).toBe('true'),
    );
  });

  it('snoozes from the header menu with preset and custom times', async () => {
    const calls = inbox();
    renderApp('/messages?conversation=2');
    const pane = await screen.findByRole('heading', { name: 'Alan Turing', level: 2 }, { timeout: 40_000 });
    const header = pane.closest('header')!;
    await userEvent.click(within(header).getByRole('button', { name: /actions/i }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Tomorrow/ }));
    await waitFor(() => expect(calls.puts).toHaveLength(1));
    const until = new Date(calls.puts[0]!.snoozed_until as string);
    expect(until.getTime()).toBeGreaterThan(Date.now());
  });

  it('computes preset and custom times in the business time zone', () => {
    const now = new Date('2026-03-04T20:30:00Z'); // a Wednesday
    expect(snoozePresetTime('tomorrow', 'Europe/Paris', now).toISOString()).toBe('2026-03-05T08:00:00.000Z');
    expect(snoozePresetTime('next_week', 'America/New_York', now).toISOString()).toBe(
      '2026-03-09T13:00:00.000Z',
    );
    expect(snoozePresetTime('later', 'UTC', now).toISOString()).toBe('2026-03-04T23:00:00.000Z');
    expect(wallTimeIn('2026-03-05T09:15', 'Asia/Tokyo')?.toISOString()).toBe('2026-03-05T00:15:00.000Z');
    expect(wallTimeIn('tomorrow', 'UTC')).toBeNull();
  });
});
