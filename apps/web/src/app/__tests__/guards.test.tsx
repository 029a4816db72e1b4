import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, cookie, GLOBEX, ok, profile, setCookie, signIn } from '../../test/api';
import { renderApp } from '../../test/render-app';
import { server } from '../../test/server';

const PROFILE = '/api/users/profile/';

describe('route guard', () => {
  it('sends a signed-out visitor to /login, keeping the page asked for in ?next=', async () => {
    const { router } = renderApp('/engage/settings/team?view=all');

    expect(await screen.findByRole('heading', { name: 'Log in to Titan' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(
      '/engage/settings/team?view=all',
    );
  });

  it('guards every workspace area, not only the dashboard', async () => {
    for (const path of [
      '/messages',
      '/engage/agent/create',
      '/register-business',
      '/confirm-payment/success',
    ]) {
      const { router, unmount } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(new URLSearchParams(router.state.location.search).get('next')).toBe(path);
      unmount();
    }
  });

  it('sends a signed-in user without a business to /register-business, with a way to join one instead', async () => {
    signIn({ businessCode: null });
    server.use(http.get(PROFILE, () => ok(profile({ businesses: [] }))));
    const { router } = renderApp('/engage');

    expect(await screen.findByRole('heading', { name: 'Create your business' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register-business');
    expect(screen.getByRole('link', { name: 'Join an existing business' })).toHaveAttribute(
      'href',
      '/join-existing-business',
    );
  });

  it('keeps the business of the cookie when the user belongs to it', async () => {
    signIn({ businessCode: GLOBEX.unique_code });
    server.use(http.get(PROFILE, () => ok(profile({ businesses: [ACME, GLOBEX] }))));
    renderApp('/engage');

    expect(await screen.findByRole('button', { name: 'Switch business: Globex' })).toBeInTheDocument();
    expect(cookie('business_code')).toBe(GLOBEX.unique_code);
  });

  it('picks the first business when the cookie names one the user is not in, and sends it from then on', async () => {
    signIn();
    setCookie('business_code', 'SOMEONE-ELSES');
    const seen: Array<string | null> = [];
    server.use(
      http.get(PROFILE, ({ request }) => {
        seen.push(request.headers.get('x-business-code'));
        return ok(profile({ businesses: [GLOBEX, ACME] }));
      }),
    );
    renderApp('/engage');

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Switch business: Globex' })).toBeInTheDocument();
    expect(cookie('business_code')).toBe(GLOBEX.unique_code);
    expect(seen).toEqual(['SOMEONE-ELSES']);
  });

  it('sends a signed-in visitor of /login on to ?next= or the dashboard', async () => {
    signIn();
    server.use(http.get(PROFILE, () => ok(profile())));
    const { router } = renderApp('/login?next=%2Fengage%2Fsettings%2Fprofile');

    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/settings/profile'));
  });
});
