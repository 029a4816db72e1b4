import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { cookie, fail, jwt, ok, profile } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const user = profile();

async function fillLogin() {
  await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login with a second factor', () => {
  it('asks for the code after the password, shows a wrong one, and signs in with the right one', async () => {
    const access = jwt(900);
    const steps: unknown[] = [];
    server.use(
      http.post('/api/auth/login/', () => ok({ mfa_required: true, mfa_token: 'step-token' })),
      http.post('/api/auth/login/mfa/', async ({ request }) => {
        const body = (await request.json()) as { code?: string };
        steps.push(body);
        if (body.code === '111111') {
          const message =
            'This code is not valid. Enter the current 6-digit code from your authenticator app.';
          return fail(400, message, { code: [message] });
        }
        return ok({ access, refresh: 'refresh-2', user });
      }),
      http.get('/api/users/profile/', () => ok(user)),
    );
    const { router } = renderApp('/login');
    await fillLogin();

    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    expect(cookie('auth_token')).toBeNull();
    await userEvent.type(screen.getByLabelText('Authentication code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This code is not valid.');

    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage'));
    expect(cookie('auth_token')).toBe(access);
    expect(steps).toEqual([
      { mfa_token: 'step-token', code: '111111' },
      { mfa_token: 'step-token', code: '123456' },
    ]);
  });

  it('takes a recovery code instead', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/login/', () => ok({ mfa_required: true, mfa_token: 't' })),
      http.post('/api/auth/login/mfa/', async ({ request }) => {
        bodies.push(await request.json());
        return ok({ access: jwt(900), refresh: 'r', user });
      }),
      http.get('/api/users/profile/', () => ok(user)),
    );
    const { router } = renderApp('/login');
    await fillLogin();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcde-fghij');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage'));
    expect(bodies).toEqual([{ mfa_token: 't', recovery_code: 'abcde-fghij' }]);
  });
});
