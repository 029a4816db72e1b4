import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, cookie, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const INVITATION = {
  business: { name: 'Acme', unique_code: ACME.unique_code },
  email: 'bob@example.com',
  role: 'agent',
  expires_at: '2030-01-01T00:00:00.000Z',
};

const BUSINESS = {
  id: 3,
  name: 'Newco',
  phone_number: null,
  dial_code: null,
  created_on: '2026-01-01T00:00:00Z',
  created_by: 7,
  updated_on: '2026-01-01T00:00:00Z',
  updated_by: 7,
  unique_code: 'NEWCO123',
  sms_count: 0,
  email_count: 0,
  whatsapp_count: 0,
  subscription_status: 'inactive',
  time_zone: 'UTC',
  require_2fa: false,
};

describe('invitation', () => {
  it('shows the business, role and email, and offers log in or sign up with the email, coming back here', async () => {
    server.use(http.get('/api/business/users/invitation/', () => ok(INVITATION)));
    renderApp('/invite-user/join/tok-1');

    expect(await screen.findByRole('heading', { name: 'Join Acme on Titan' })).toBeInTheDocument();
    expect(screen.getByText(/This invitation is for bob@example.com, to join as Agent./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to accept' })).toHaveAttribute(
      'href',
      '/login?next=%2Finvite-user%2Fjoin%2Ftok-1&email=bob%40example.com',
    );
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/signup?next=%2Finvite-user%2Fjoin%2Ftok-1&email=bob%40example.com',
    );
  });

  it('says so when the signed-in account has another email', async () => {
    signIn({ businessCode: null });
    server.use(
      http.get('/api/business/users/invitation/', () => ok(INVITATION)),
      http.get('/api/users/profile/', () => ok(profile({ businesses: [] }))),
    );
    renderApp('/invite-user/join/tok-1');

    expect(
      await screen.findByText(
        /You are logged in as ada@example.com, but this invitation is for bob@example.com/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
  });

  it('accepts and lands in /engage with that business selected', async () => {
    signIn({ businessCode: null });
    const bob = profile({ email: 'bob@example.com', businesses: [] });
    let joined = false;
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/business/users/invitation/', () => ok(INVITATION)),
      http.get('/api/users/profile/', () =>
        ok(joined ? { ...bob, businesses: [{ ...ACME, role: 'agent' }] } : bob),
      ),
      http.post('/api/business/users/assign/', async ({ request }) => {
        bodies.push(await request.json());
        joined = true;
        return ok({
          status: 'joined',
          business: { id: 1, name: 'Acme', unique_code: ACME.unique_code },
          role: 'agent',
        });
      }),
    );
    const { router } = renderApp('/invite-user/join/tok-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage');
    expect(bodies).toEqual([{ token: 'tok-1' }]);
    expect(cookie('business_code')).toBe(ACME.unique_code);
  });

  it('says when the invitation is no longer valid', async () => {
    server.use(
      http.get('/api/business/users/invitation/', () =>
        fail(404, 'This invitation is invalid, has expired or was already used.'),
      ),
    );
    renderApp('/invite-user/join/used');

    expect(
      await screen.findByRole('heading', { name: 'This invitation is invalid or has expired' }),
    ).toBeInTheDocument();
  });
});

describe('creating and joining a business', () => {
  it('creates a business, selects it and opens the dashboard', async () => {
    signIn({ businessCode: null });
    let created = false;
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/users/profile/', () =>
        ok(profile({ businesses: created ? [{ ...ACME, name: 'Newco', unique_code: 'NEWCO123' }] : [] })),
      ),
      http.post('/api/business/', async ({ request }) => {
        bodies.push(await request.json());
        created = true;
        return ok(BUSINESS, 201);
      }),
    );
    const { router } = renderApp('/register-business');
    await userEvent.type(await screen.findByLabelText('Business name'), 'Newco');
    // The time zone starts as the browser's own; another can be chosen.
    const zone = screen.getByLabelText('Time zone');
    expect(zone).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await userEvent.selectOptions(zone, 'Europe/Berlin');
    await userEvent.click(screen.getByRole('button', { name: 'Create business' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage');
    // Empty optional fields are left out rather than sent as invalid empty strings.
    expect(bodies).toEqual([{ name: 'Newco', time_zone: 'Europe/Berlin' }]);
    expect(cookie('business_code')).toBe('NEWCO123');
  });

  it('checks the phone fields with the shared contract', async () => {
    signIn({ businessCode: null });
    server.use(http.get('/api/users/profile/', () => ok(profile({ businesses: [] }))));
    renderApp('/register-business');
    await userEvent.type(await screen.findByLabelText('Business name'), 'Newco');
    await userEvent.type(screen.getByLabelText('Dial code'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Create business' }));

    expect(await screen.findByText('Enter a dial code like +1 or +44.')).toBeInTheDocument();
  });

  it('files a join request by business code and waits for approval', async () => {
    signIn({ businessCode: null });
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [] }))),
      http.post('/api/business/users/assign/', async ({ request }) => {
        bodies.push(await request.json());
        return ok({
          status: 'pending',
          business: { id: 1, name: 'Acme', unique_code: ACME.unique_code },
          role: null,
        });
      }),
    );
    renderApp('/join-existing-business');
    await userEvent.type(await screen.findByLabelText('Business code'), ACME.unique_code);
    await userEvent.click(screen.getByRole('button', { name: 'Send join request' }));

    expect(
      await screen.findByRole('heading', { name: 'Request sent, waiting for approval' }),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ unique_code: ACME.unique_code }]);
    expect(cookie('business_code')).toBeNull();
  });

  it('shows an unknown business code on its field', async () => {
    signIn({ businessCode: null });
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [] }))),
      http.post('/api/business/users/assign/', () =>
        fail(400, 'Invalid input.', { unique_code: ['No business has this code.'] }),
      ),
    );
    renderApp('/join-existing-business');
    await userEvent.type(await screen.findByLabelText('Business code'), 'NOPE');
    await userEvent.click(screen.getByRole('button', { name: 'Send join request' }));

    await waitFor(() =>
      expect(screen.getByLabelText('Business code')).toHaveAccessibleDescription(
        'No business has this code.',
      ),
    );
  });
});
