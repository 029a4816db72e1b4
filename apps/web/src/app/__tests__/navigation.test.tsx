// Navigation that fits: the page title names each screen, the phone menu opens every area, and the
// settings sections are grouped (a select on phones) with Billing among them.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { SETTINGS_TABS } from '../../config/paths';
import { ok, profile, signIn } from '../../test/api';
import { renderApp } from '../../test/render-app';
import { server } from '../../test/server';

function signedIn() {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile())));
}

describe('navigation that fits', () => {
  it('names each page in document.title from the route table', async () => {
    signedIn();
    const { router } = renderApp('/engage');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(document.title).toBe('Dashboard · Titan'));

    await router.navigate('/engage/settings/billing');
    await waitFor(() => expect(document.title).toBe('Billing · Settings · Titan'));

    await router.navigate('/engage/no/such/page');
    await waitFor(() => expect(document.title).toBe('Page not found · Titan'));
  });

  it('opens every area from the phone menu and closes it after a choice', async () => {
    signedIn();
    const { router } = renderApp('/engage');
    await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const sheet = await screen.findByRole('dialog', { name: 'Titan' });
    const links = within(sheet)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual([
      'Dashboard',
      'Conversations',
      'Agents',
      'Templates',
      'AI template',
      'Knowledge base',
      'Campaigns',
      'Journeys',
      'Event logs',
      'Visitor directory',
      'Settings',
    ]);
    await userEvent.click(within(sheet).getByRole('link', { name: 'Agents' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/agent'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Titan' })).not.toBeInTheDocument());
  });

  it('groups the settings sections, marks the open one and offers all of them in a select', async () => {
    signedIn();
    const { router } = renderApp('/engage/settings/billing');
    const nav = await screen.findByRole('navigation', { name: 'Settings' });
    expect(
      within(nav)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Business', 'Channels', 'Inbox', 'AI and tools', 'Your account']);
    expect(within(nav).getAllByRole('link')).toHaveLength(SETTINGS_TABS.length);
    expect(within(nav).getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');

    const select = screen.getByRole('combobox', { name: 'Settings section' });
    expect(select).toHaveValue('billing');
    expect(within(select).getAllByRole('option')).toHaveLength(SETTINGS_TABS.length);
    await userEvent.selectOptions(select, 'team');
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/settings/team'));
  });
});
