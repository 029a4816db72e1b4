import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { cookie, fail, jwt, ok, profile } from '../../../test/api';
import { renderApp, stubLocationAssign } from '../../../test/render-app';
import { server } from '../../../test/server';
import { OIDC_ATTEMPT_KEY, s256Challenge } from '../utils/oidc';

const PROVIDER = {
  id: 'corp',
  label: 'Corp SSO',
  authorization_endpoint: 'https://id.example.com/authorize',
  client_id: 'titan-web',
  scope: 'openid email profile',
};

function storedAttempt(): { state: string; verifier: string; provider: string; next: string | null } {
  return JSON.parse(window.sessionStorage.getItem(OIDC_ATTEMPT_KEY) ?? 'null') as never;
}

describe('OpenID Connect sign-in', () => {
  it('shows no button when no provider is configured', async () => {
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue with/ })).not.toBeInTheDocument();
  });

  it('redirects to the provider with a PKCE S256 challenge and a state kept in sessionStorage', async () => {
    const assign = stubLocationAssign();
    server.use(http.get('/api/auth/oauth/providers/', () => ok([PROVIDER])));
    renderApp('/login?next=%2Fengage%2Fsettings%2Fteam');
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Corp SSO' }));

    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const url = new URL(String(assign.mock.calls[0]?.[0]));
    const attempt = storedAttempt();
    expect(`${url.origin}${url.pathname}`).toBe(PROVIDER.authorization_endpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'titan-web',
      redirect_uri: `${window.location.origin}/auth-flow`,
      scope: 'openid email profile',
      state: attempt.state,
      code_challenge: await s256Challenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
    expect(attempt.verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(attempt).toMatchObject({ provider: 'corp', next: '/engage/settings/team' });
  });

  it('checks the state, exchanges the code with the verifier, then continues like a login', async () => {
    window.sessionStorage.setItem(
      OIDC_ATTEMPT_KEY,
      JSON.stringify({
        provider: 'corp',
        state: 'st-1',
        verifier: 'v'.repeat(43),
        next: '/engage/settings/profile',
      }),
    );
    const bodies: unknown[] = [];
    const access = jwt(900);
    server.use(
      http.post('/api/auth/oauth/login/', async ({ request }) => {
        bodies.push(await request.json());
        return ok({ access, refresh: 'refresh-oidc', user: profile() });
      }),
      http.get('/api/users/profile/', () => ok(profile())),
    );
    const { router } = renderApp('/auth-flow?code=abc&state=st-1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/settings/profile'));
    expect(bodies).toEqual([
      {
        provider: 'corp',
        code: 'abc',
        redirect_uri: `${window.location.origin}/auth-flow`,
        code_verifier: 'v'.repeat(43),
        state: 'st-1',
      },
    ]);
    expect(cookie('auth_token')).toBe(access);
    expect(window.sessionStorage.getItem(OIDC_ATTEMPT_KEY)).toBeNull();
  });

  it('refuses a response whose state does not match, without calling the server', async () => {
    window.sessionStorage.setItem(
      OIDC_ATTEMPT_KEY,
      JSON.stringify({ provider: 'corp', state: 'expected', verifier: 'v'.repeat(43), next: null }),
    );
    renderApp('/auth-flow?code=abc&state=forged');

    expect(await screen.findByRole('heading', { name: 'Sign-in did not complete' })).toBeInTheDocument();
    expect(screen.getByText(/does not match a sign-in started in this browser tab/)).toBeInTheDocument();
    expect(cookie('auth_token')).toBeNull();
  });

  it('shows what the server answered when the exchange fails', async () => {
    window.sessionStorage.setItem(
      OIDC_ATTEMPT_KEY,
      JSON.stringify({ provider: 'corp', state: 's', verifier: 'v'.repeat(43), next: null }),
    );
    server.use(
      http.post('/api/auth/oauth/login/', () =>
        fail(400, 'Invalid input.', { non_field_errors: ['The sign-in code was refused.'] }),
      ),
    );
    renderApp('/auth-flow?code=abc&state=s');

    expect(await screen.findByText('The sign-in code was refused.')).toBeInTheDocument();
  });
});
