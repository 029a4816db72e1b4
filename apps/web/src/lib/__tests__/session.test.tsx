import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { http } from 'msw';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';

import { AppProviders } from '../../test/render-app';
import { useBlockerModalStore } from '../../stores/blocker-modal';
import { useNavbarStore } from '../../stores/navbar';
import { EMPTY_USER, useSessionStore } from '../../stores/session';
import { cookie, fail, jwt, ok, profile, setCookie, signIn } from '../../test/api';
import { stubLocationAssign } from '../../test/render-app';
import { server } from '../../test/server';
import { HandledApiError } from '../api-errors';
import { protectedClient } from '../protected-client';
import { authSiteUrl, LOGOUT_PATH } from '../session/logout';
import { REFRESH_LOCK_NAME, REFRESH_PATH } from '../session/refresh';
import { isAccessTokenFresh } from '../session/tokens';

const ECHO_PATH = '/api/echo/';

/** A protected endpoint that answers with the headers it received. */
function echoHandler() {
  return http.get(ECHO_PATH, ({ request }) =>
    ok({
      authorization: request.headers.get('authorization'),
      business: request.headers.get('x-business-code'),
    }),
  );
}

type TEcho = { result: { authorization: string | null; business: string | null } };

function refreshHandler(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  const handler = http.post(REFRESH_PATH, async ({ request }) => {
    bodies.push(await request.json());
    return answer();
  });
  return { handler, bodies };
}

describe('access token refresh', () => {
  it('refreshes an expired token exactly once for three concurrent requests', async () => {
    signIn({ access: jwt(-60), refresh: 'refresh-old' });
    const fresh = jwt(900);
    const refresh = refreshHandler(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return ok({ access: fresh, refresh: 'refresh-new' });
    });
    server.use(refresh.handler, echoHandler());

    const answers = await Promise.all([1, 2, 3].map(() => protectedClient.get<TEcho>(ECHO_PATH)));

    expect(refresh.bodies).toEqual([{ refresh: 'refresh-old' }]);
    for (const { data } of answers) {
      expect(data.result).toEqual({ authorization: `Bearer ${fresh}`, business: 'ACME1234' });
    }
    expect(cookie('auth_token')).toBe(fresh);
    expect(cookie('refresh_token')).toBe('refresh-new');
  });

  it('refreshes first when the access token cookie is missing', async () => {
    signIn({ access: null });
    const fresh = jwt(900);
    const refresh = refreshHandler(() => ok({ access: fresh, refresh: 'refresh-2' }));
    server.use(refresh.handler, echoHandler());

    const { data } = await protectedClient.get<TEcho>(ECHO_PATH);

    expect(refresh.bodies).toHaveLength(1);
    expect(data.result.authorization).toBe(`Bearer ${fresh}`);
  });

  it('sends a fresh token as it is, and treats one within 10 seconds of expiry as expired', async () => {
    const refresh = refreshHandler(() => ok({ access: jwt(900), refresh: 'refresh-2' }));
    server.use(refresh.handler, echoHandler());

    const fresh = jwt(60);
    signIn({ access: fresh });
    expect((await protectedClient.get<TEcho>(ECHO_PATH)).data.result.authorization).toBe(`Bearer ${fresh}`);
    expect(refresh.bodies).toHaveLength(0);

    signIn({ access: jwt(5) });
    await protectedClient.get(ECHO_PATH);
    expect(refresh.bodies).toHaveLength(1);
    expect(isAccessTokenFresh(jwt(5))).toBe(false);
    expect(isAccessTokenFresh('not-a-jwt')).toBe(false);
  });

  it('serialises refreshes across tabs and re-reads the cookie once it holds the lock', async () => {
    signIn({ access: jwt(-60), refresh: 'refresh-old' });
    const fromOtherTab = jwt(900);
    const request = vi.fn(async (_name: string, _options: LockOptions, task: () => Promise<unknown>) => {
      // While this tab waited, another tab refreshed and wrote the shared cookies.
      setCookie('auth_token', fromOtherTab);
      setCookie('refresh_token', 'refresh-from-other-tab');
      return task();
    });
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    const refresh = refreshHandler(() => ok({ access: jwt(900), refresh: 'never' }));
    server.use(refresh.handler, echoHandler());

    const { data } = await protectedClient.get<TEcho>(ECHO_PATH);

    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0]?.[0]).toBe(REFRESH_LOCK_NAME);
    expect(refresh.bodies).toHaveLength(0);
    expect(data.result.authorization).toBe(`Bearer ${fromOtherTab}`);
  });

  it('rejects the request without any message when the refresh fails', async () => {
    const assign = stubLocationAssign();
    const toastError = vi.spyOn(toast, 'error');
    const consoleError = vi.spyOn(console, 'error');
    render(<AppProviders>page</AppProviders>);
    signIn({ access: jwt(-60) });
    const echo = vi.fn(() => ok(null));
    server.use(refreshHandler(() => fail(500, 'Internal server error.')).handler, http.get(ECHO_PATH, echo));

    const failure: unknown = await protectedClient.get(ECHO_PATH).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HandledApiError);
    expect(failure).toMatchObject({ reason: 'refresh_failed' });
    expect(echo).not.toHaveBeenCalled();
    expect(toastError).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.querySelector('[data-sonner-toast]')).toBeNull();
    // A failure that may pass (server error, no network) keeps the session.
    expect(assign).not.toHaveBeenCalled();
    expect(cookie('refresh_token')).toBe('refresh-1');
  });

  it('logs out when the server refuses the refresh token', async () => {
    const assign = stubLocationAssign();
    signIn({ access: jwt(-60) });
    server.use(refreshHandler(() => fail(401, 'Session expired.')).handler);

    const failure: unknown = await protectedClient.get(ECHO_PATH).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(HandledApiError);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(document.cookie).toBe('');
  });
});

describe('logout on 401', () => {
  it('revokes the session, clears cookies, storage and client state, then goes to AUTH_SITE_URL', async () => {
    const assign = stubLocationAssign();
    const access = jwt(600);
    signIn({ access, refresh: 'refresh-9' });
    setCookie('other_cookie', 'x');
    window.localStorage.setItem('theme', 'dark');
    window.localStorage.setItem('titan.pending-next', '/engage');
    const queryClient = new QueryClient();
    queryClient.setQueryData(['profile'], profile());
    render(<AppProviders queryClient={queryClient}>page</AppProviders>);
    useBlockerModalStore.getState().show({ title: 'Upgrade', description: 'Pay up' });
    useNavbarStore.getState().setVisible(false);
    useSessionStore.getState().setUser(profile());
    const logoutCalls: Array<{ body: unknown; authorization: string | null }> = [];
    server.use(
      http.get(ECHO_PATH, () => fail(401, 'Authentication credentials were not provided.')),
      http.post(LOGOUT_PATH, async ({ request }) => {
        logoutCalls.push({ body: await request.json(), authorization: request.headers.get('authorization') });
        return ok(null);
      }),
    );

    const failure: unknown = await protectedClient.get(ECHO_PATH).catch((error: unknown) => error);

    expect(failure).toMatchObject({ reason: 'logged_out' });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(assign).toHaveBeenCalledWith('/login');
    expect(logoutCalls).toEqual([{ body: { refresh: 'refresh-9' }, authorization: `Bearer ${access}` }]);
    expect(document.cookie).toBe('');
    expect(window.localStorage.length).toBe(0);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(useBlockerModalStore.getState()).toMatchObject({ open: false, title: '', description: '' });
    expect(useNavbarStore.getState().isVisible).toBe(true);
    expect(useSessionStore.getState().user).toEqual(EMPTY_USER);
    expect(screen.getByText('page')).toBeInTheDocument();
  });

  it('still logs out locally when the logout call fails', async () => {
    const assign = stubLocationAssign();
    signIn();
    server.use(
      http.get(ECHO_PATH, () => fail(401, 'Token expired.')),
      http.post(LOGOUT_PATH, () => fail(500, 'Internal server error.')),
    );

    await protectedClient.get(ECHO_PATH).catch(() => null);

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(document.cookie).toBe('');
  });
});

describe('AUTH_SITE_URL', () => {
  it('prefers the server-provided value, then VITE_AUTH_SITE_URL, then /login', () => {
    expect(authSiteUrl()).toBe('/login');

    vi.stubEnv('VITE_AUTH_SITE_URL', 'https://auth.example.com/');
    expect(authSiteUrl()).toBe('https://auth.example.com/');

    const meta = document.createElement('meta');
    meta.name = 'titan-auth-site-url';
    meta.content = 'https://sso.example.com/start';
    document.head.append(meta);
    try {
      expect(authSiteUrl()).toBe('https://sso.example.com/start');
    } finally {
      meta.remove();
      vi.unstubAllEnvs();
    }
  });
});
