import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../test/api';
import { renderApp } from '../../test/render-app';
import { server } from '../../test/server';

function signedIn() {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile())));
}

describe('routes', () => {
  it('redirects / to the dashboard root, replacing the history entry', async () => {
    signedIn();
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the dashboard shell with an honest empty state', async () => {
    signedIn();
    renderApp('/engage');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Titan' })).toHaveAttribute('href', '/engage');
    expect(await screen.findByText('Nothing has happened in these days yet')).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Theme' })).toBeInTheDocument();
  });

  it('links every area of the product from the navigation', async () => {
    signedIn();
    renderApp('/engage');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });

    const links = Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/engage'],
      ['Conversations', '/messages'],
      ['Agents', '/engage/agent'],
      ['Templates', '/engage/templates'],
      ['AI template', '/engage/ai-template'],
      ['Knowledge base', '/engage/knowledge'],
      ['Campaigns', '/engage/campaigns'],
      ['Journeys', '/engage/journeys'],
      ['Event logs', '/engage/event-logs'],
      ['Visitor directory', '/engage/directory'],
      ['Settings', '/engage/settings/business'],
    ]);
  });

  it('shows "Page not found" for a path under /engage that no screen has', async () => {
    signedIn();
    const { router } = renderApp('/engage/templates/not/built');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage/templates/not/built');

    await userEvent.click(screen.getByRole('link', { name: 'Back to dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage'));
  });

  it('hides the navbar when the navbar store says so', async () => {
    signedIn();
    renderApp('/engage');
    expect(await screen.findByRole('link', { name: 'Titan' })).toBeInTheDocument();

    const { useNavbarStore } = await import('../../stores/navbar');
    useNavbarStore.getState().setVisible(false);

    await waitFor(() => expect(screen.queryByRole('link', { name: 'Titan' })).not.toBeInTheDocument());
  });

  it('shows the not-found page for an unknown path, with a way back to the dashboard', async () => {
    signedIn();
    const { router } = renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to dashboard' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage');
  });

  it('shows the not-found page for an unknown path under /engage', async () => {
    renderApp('/engage/no-such-area');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
