// The member's presence from the avatar menu (issue 29): the app says "online" when it opens, a
// choice in the menu is sent and shown on the avatar, and remembered for the next visit.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

function recordPresence() {
  const sent: string[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.put('/api/users/presence/', async ({ request }) => {
      const { status } = (await request.json()) as { status: string };
      sent.push(status);
      return ok({ user_id: 1, status, updated_at: '2026-04-01T00:00:00.000Z' });
    }),
  );
  return sent;
}

describe('presence', () => {
  it('says online on opening, and sends and shows what the member picks in the avatar menu', async () => {
    localStorage.clear();
    signIn();
    const sent = recordPresence();
    renderApp('/engage');
    const avatar = await screen.findByRole('button', { name: /Account menu, Status: Online/ });
    await waitFor(() => expect(sent).toEqual(['online']));

    await userEvent.click(avatar);
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Away' }));
    await waitFor(() => expect(sent).toEqual(['online', 'away']));
    expect(await screen.findByRole('button', { name: /Account menu, Status: Away/ })).toBeInTheDocument();
    expect(localStorage.getItem('titan.presence')).toBe('away');
  });
});
