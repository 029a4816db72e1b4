import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { cookie, fail, jwt, ok, profile } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const user = profile();

async function fillLogin(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login', () => {
  it('keeps the session in cookies and returns to the page asked for', async () => {
    const access = jwt(900);
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/login/', async ({ request }) => {
        bodies.push(await request.json());
        return ok({ access, refresh: 'refresh-1', user });
      }),
      http.get('/api/users/profile/', () => ok(user)),
    );
    const { router } = renderApp('/login?next=%2Fengage%2Fsettings%2Fprofile');
    await fillLogin('Ada@Example.com', 'secret-password');

    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/settings/profile'));
    expect(bodies).toEqual([{ email: 'ada@example.com', password: 'secret-password' }]);
    expect(cookie('auth_token')).toBe(access);
    expect(cookie('refresh_token')).toBe('refresh-1');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it('ignores a ?next= that leaves the app', async () => {
    server.use(
      http.post('/api/auth/login/', () => ok({ access: jwt(900), refresh: 'r', user })),
      http.get('/api/users/profile/', () => ok(user)),
    );
    const { router } = renderApp('/login?next=%2F%2Fevil.example.com%2F');
    await fillLogin('ada@example.com', 'secret-password');

    await waitFor(() => expect(router.state.location.pathname).toBe('/engage'));
  });

  it('shows refused credentials as a form-level message', async () => {
    server.use(
      http.post('/api/auth/login/', () =>
        fail(400, 'Unable to log in with provided credentials.', {
          non_field_errors: ['Unable to log in with provided credentials.'],
        }),
      ),
    );
    renderApp('/login');
    await fillLogin('ada@example.com', 'wrong-password');

    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to log in with provided credentials.');
    expect(cookie('auth_token')).toBeNull();
  });

  it('offers to resend the verification mail while the email is unverified', async () => {
    const message = 'Your email address is not verified yet.';
    const resent: unknown[] = [];
    server.use(
      http.post('/api/auth/login/', () => fail(403, message, { non_field_errors: [message] })),
      http.post('/api/auth/register/resend-verification/', async ({ request }) => {
        resent.push(await request.json());
        return ok(null);
      }),
    );
    renderApp('/login?email=ada%40example.com');
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));

    expect(
      await screen.findByText('We sent a new verification link to ada@example.com.'),
    ).toBeInTheDocument();
    expect(resent).toEqual([{ email: 'ada@example.com' }]);
  });

  it('validates with the shared contract before calling the server', async () => {
    renderApp('/login');
    await fillLogin('not-an-email', 'x');

    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
  });
});

describe('sign-up', () => {
  it('puts server field errors on the form and remembers where to return after verification', async () => {
    let attempt = 0;
    server.use(
      http.post('/api/auth/register/', async ({ request }) => {
        attempt += 1;
        if (attempt === 1)
          return fail(400, 'Invalid input.', { email: ['A user with that email already exists.'] });
        const body = (await request.json()) as { email: string; first_name: string };
        return ok({ user: { ...user, email: body.email, is_email_verified: false } }, 201);
      }),
    );
    renderApp('/signup?next=%2Finvite-user%2Fjoin%2Ftok&email=new%40example.com');
    expect(await screen.findByLabelText('Email')).toHaveValue('new@example.com');
    await userEvent.type(screen.getByLabelText('First name'), 'Nia');
    await userEvent.type(screen.getByLabelText('Password'), 'long enough password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('A user with that email already exists.'));
    expect(email).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(window.localStorage.getItem('titan.pending-next')).toBe('/invite-user/join/tok');
  });
});

describe('email confirmation', () => {
  it('verifies once on open, then links to the login with the email and the remembered page', async () => {
    window.localStorage.setItem('titan.pending-next', '/invite-user/join/tok');
    const keys: unknown[] = [];
    server.use(
      http.post('/api/auth/register/verify-email/', async ({ request }) => {
        keys.push(await request.json());
        return ok({ user });
      }),
    );
    renderApp('/auth/account-confirm-email/key-123');

    expect(await screen.findByRole('heading', { name: 'Your email is verified' })).toBeInTheDocument();
    expect(keys).toEqual([{ key: 'key-123' }]);
    const href = screen.getByRole('link', { name: 'Log in' }).getAttribute('href') ?? '';
    const params = new URL(href, 'http://x').searchParams;
    expect(params.get('email')).toBe('ada@example.com');
    expect(params.get('next')).toBe('/invite-user/join/tok');
  });

  it('says so when the key is refused', async () => {
    server.use(
      http.post('/api/auth/register/verify-email/', () =>
        fail(400, 'Invalid input.', { key: ['This link is invalid or has expired.'] }),
      ),
    );
    renderApp('/auth/account-confirm-email/bad');

    expect(
      await screen.findByRole('heading', { name: 'This verification link is invalid or has expired' }),
    ).toBeInTheDocument();
  });
});

describe('password reset', () => {
  const encoded = btoa('ada@example.com').replace(/=+$/, '');

  it('asks for a link and answers the same whether or not the address exists', async () => {
    server.use(http.post('/api/auth/password/forgot/', () => ok(null)));
    renderApp('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByText(/If an account exists for ada@example.com/)).toBeInTheDocument();
  });

  it('sets a new password for the address and key of the link', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/password/reset/', async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    renderApp(`/forgot-password/${encoded}/the-key`);
    expect(await screen.findByText('For ada@example.com.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New password'), 'a brand new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    expect(bodies).toEqual([{ email: 'ada@example.com', key: 'the-key', password: 'a brand new password' }]);
  });

  it('shows an honest dead-link state when the key is refused', async () => {
    server.use(
      http.post('/api/auth/password/reset/', () =>
        fail(400, 'Invalid input.', { key: ['This password reset link is invalid or has expired.'] }),
      ),
    );
    renderApp(`/forgot-password/${encoded}/old-key`);
    await userEvent.type(await screen.findByLabelText('New password'), 'a brand new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(
      await screen.findByRole('heading', { name: 'This link is invalid or has expired' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});
