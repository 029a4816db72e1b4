import type { TMember } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, GLOBEX, ok, profile, ROLES_INFO, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const ADA: TMember = {
  id: 1,
  user: { pk: 7, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  role: 'owner',
  joined_at: '2026-01-01T00:00:00Z',
};
const BOB: TMember = {
  id: 2,
  user: { pk: 8, first_name: 'Bob', last_name: '', email: 'bob@example.com' },
  role: 'agent',
  joined_at: '2026-02-01T00:00:00Z',
};

const BUSINESS = {
  id: 1,
  name: 'Acme',
  phone_number: null,
  dial_code: null,
  created_on: '2026-01-01T00:00:00Z',
  created_by: 7,
  updated_on: '2026-01-01T00:00:00Z',
  updated_by: 7,
  unique_code: ACME.unique_code,
  sms_count: 0,
  email_count: 0,
  whatsapp_count: 0,
  subscription_status: 'inactive',
  time_zone: 'Europe/Berlin',
  require_2fa: false,
};

/** Signed in to Acme with the given role; the team endpoints answer as a small business would. */
function asMember(role: 'owner' | 'agent') {
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/business/roles/', () => ok(ROLES_INFO)),
    http.get('/api/business/users/', () => ok([ADA, BOB])),
    http.get('/api/business/users/invitations/', () =>
      ok([
        {
          id: 5,
          email: 'cleo@example.com',
          role: 'admin',
          expires_at: '2030-01-01T00:00:00Z',
          created_at: '2026-03-01T00:00:00Z',
          invited_by: ADA.user,
        },
      ]),
    ),
    http.get('/api/business/users/join-requests/', () =>
      ok([
        {
          id: 9,
          user: { pk: 11, first_name: 'Dan', last_name: 'Doe', email: 'dan@example.com' },
          status: 'pending',
          created_at: '2026-03-02T00:00:00Z',
        },
      ]),
    ),
    http.get('/api/business/', () => ok(BUSINESS)),
  );
}

describe('team settings', () => {
  it('lets an owner change roles, invite, revoke invitations and decide join requests', async () => {
    asMember('owner');
    const calls: Array<[string, string, unknown]> = [];
    const record =
      (method: string) =>
      async ({ request }: { request: Request }) => {
        const body = request.method === 'DELETE' ? null : await request.json();
        calls.push([method, new URL(request.url).pathname, body]);
        return null;
      };
    server.use(
      http.put('/api/business/users/2/', async (info) => {
        await record('PUT')(info);
        return ok({ ...BOB, role: 'admin' });
      }),
      http.post('/api/business/users/', async (info) => {
        await record('POST')(info);
        return ok(
          {
            id: 6,
            email: 'eve@example.com',
            role: 'agent',
            expires_at: '2030-01-01T00:00:00Z',
            created_at: '2026-03-03T00:00:00Z',
            invited_by: ADA.user,
          },
          201,
        );
      }),
      http.delete('/api/business/users/invitations/5/', async (info) => {
        await record('DELETE')(info);
        return ok(null);
      }),
      http.post('/api/business/users/join-requests/9/', async (info) => {
        await record('POST')(info);
        return ok({
          id: 9,
          user: { pk: 11, first_name: 'Dan', last_name: 'Doe', email: 'dan@example.com' },
          status: 'approved',
          created_at: '2026-03-02T00:00:00Z',
        });
      }),
    );
    renderApp('/engage/settings/team');

    const members = await screen.findByRole('table', { name: 'Members' });
    await userEvent.selectOptions(within(members).getByLabelText('Role for Bob'), 'admin');
    expect(await screen.findByText('Bob is now Admin.')).toBeInTheDocument();
    // Nobody removes themselves from here; others can be removed.
    expect(within(members).queryByRole('button', { name: 'Remove Ada Lovelace' })).not.toBeInTheDocument();
    expect(within(members).getByRole('button', { name: 'Remove Bob' })).toBeInTheDocument();

    const invite = screen.getByRole('form', { name: 'Invite someone' });
    await userEvent.type(within(invite).getByLabelText('Email'), 'Eve@Example.com');
    await userEvent.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to eve@example.com.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Revoke invitation for cleo@example.com' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Invitation for cleo@example.com revoked.')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Role to approve Dan Doe as'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Approve Dan Doe' }));
    expect(await screen.findByText('Dan Doe joined the business.')).toBeInTheDocument();

    expect(calls).toEqual([
      ['PUT', '/api/business/users/2/', { role: 'admin' }],
      ['POST', '/api/business/users/', { email: 'eve@example.com', role: 'agent' }],
      ['DELETE', '/api/business/users/invitations/5/', null],
      ['POST', '/api/business/users/join-requests/9/', { approve: true, role: 'admin' }],
    ]);
  });

  it('shows the server message when removing the last owner is refused', async () => {
    asMember('owner');
    server.use(
      http.delete('/api/business/users/2/', () => fail(409, 'A business needs at least one owner.')),
    );
    renderApp('/engage/settings/team');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Bob' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('A business needs at least one owner.')).toBeInTheDocument();
  });

  it('shows an agent the members only, without the actions their role lacks', async () => {
    asMember('agent');
    renderApp('/engage/settings/team');

    const members = await screen.findByRole('table', { name: 'Members' });
    await waitFor(() => expect(within(members).getByText('Owner')).toBeInTheDocument());
    expect(within(members).getByText('Agent')).toBeInTheDocument();
    expect(within(members).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(members).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Invite someone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Join requests' })).not.toBeInTheDocument();
  });
});

describe('business profile settings', () => {
  it('lets an owner edit the business and shows the code to share', async () => {
    asMember('owner');
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/business/', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        return ok({ ...BUSINESS, ...body, updated_on: '2026-05-01T00:00:00Z' });
      }),
    );
    renderApp('/engage/settings/business');

    expect(await screen.findByLabelText('Business code')).toHaveTextContent(ACME.unique_code);
    const name = await screen.findByLabelText('Business name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Acme Ltd');
    // Digits only (spec section 5): the "+" of the dial code is the field's prefix, not typed.
    const dialCode = screen.getByLabelText('Dial code');
    await userEvent.type(dialCode, '+44a');
    expect(dialCode).toHaveValue('44');
    const phone = screen.getByLabelText('Phone number (optional)');
    await userEvent.type(phone, '20 7946 0000');
    expect(phone).toHaveValue('2079460000');
    const zone = screen.getByLabelText('Time zone');
    expect(zone).toHaveValue('Europe/Berlin');
    await userEvent.selectOptions(zone, 'America/New_York');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(bodies).toEqual([
      { name: 'Acme Ltd', dial_code: '+44', phone_number: '2079460000', time_zone: 'America/New_York' },
    ]);
    // No subscription badge here: billing has its own page (and none at all without billing).
    expect(screen.queryByText('inactive')).not.toBeInTheDocument();
  });

  it('shows an agent the business read-only', async () => {
    asMember('agent');
    renderApp('/engage/settings/business');

    expect(await screen.findByLabelText('Business code')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Acme', { selector: 'dd' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
  });
});

describe('API key settings', () => {
  it('shows a new key once, with a copy button and a warning', async () => {
    asMember('owner');
    let keys: unknown[] = [];
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/auth/api-keys/', () => ok(keys)),
      http.post('/api/auth/api-keys/', async ({ request }) => {
        bodies.push(await request.json());
        const created = {
          id: 1,
          name: 'CRM sync',
          prefix: 'titan_ab12',
          created_at: '2026-03-01T00:00:00Z',
          last_used_at: null,
          expires_at: null,
        };
        keys = [created];
        return ok({ ...created, key: 'titan_ab12_the_secret_value' }, 201);
      }),
    );
    renderApp('/engage/settings/api-keys');

    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    await userEvent.type(await screen.findByLabelText('Name'), 'CRM sync');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));

    expect(await screen.findByRole('textbox', { name: 'API key' })).toHaveValue(
      'titan_ab12_the_secret_value',
    );
    expect(screen.getByText(/You will not be able to see it again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    expect(bodies).toEqual([{ name: 'CRM sync', expires_at: null }]);

    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(within(table).getByText('CRM sync')).toBeInTheDocument();
    expect(within(table).getByText('titan_ab12…')).toBeInTheDocument();
    expect(within(table).getAllByText('Never')).toHaveLength(2);
    expect(screen.queryByText('titan_ab12_the_secret_value')).not.toBeInTheDocument();
  });

  it('revokes a key after confirming', async () => {
    asMember('owner');
    let revoked = false;
    server.use(
      http.get('/api/auth/api-keys/', () =>
        ok(
          revoked
            ? []
            : [
                {
                  id: 4,
                  name: 'Old',
                  prefix: 'titan_x',
                  created_at: '2026-01-01T00:00:00Z',
                  last_used_at: '2026-02-01T10:00:00Z',
                  expires_at: null,
                },
              ],
        ),
      ),
      http.delete('/api/auth/api-keys/4/', () => {
        revoked = true;
        return ok(null);
      }),
    );
    renderApp('/engage/settings/api-keys');
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Old' }));
    expect(await screen.findByText(/Anything using this key stops working at once/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    expect(revoked).toBe(true);
  });

  it('tells an agent that only owners and admins manage keys, without asking the server for them', async () => {
    asMember('agent');
    renderApp('/engage/settings/api-keys');

    expect(await screen.findByText('Only owners and admins can manage API keys.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create API key' })).not.toBeInTheDocument();
  });
});

describe('profile settings', () => {
  it('changes the password: the confirmation must match, the server’s word on the current one is shown', async () => {
    asMember('agent');
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/password/change/', async ({ request }) => {
        const body = (await request.json()) as { current_password: string };
        bodies.push(body);
        if (body.current_password !== 'old password 1')
          return fail(400, 'Your current password is not correct.', {
            current_password: ['Your current password is not correct.'],
          });
        return ok(null);
      }),
    );
    renderApp('/engage/settings/profile');
    const current = await screen.findByLabelText('Current password');
    await userEvent.type(current, 'wrong one');
    await userEvent.type(screen.getByLabelText('New password'), 'new password 22');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new password 23');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two passwords do not match.')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    const confirm = screen.getByLabelText('Confirm new password');
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'new password 22');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your current password is not correct.')).toBeInTheDocument();

    await userEvent.clear(current);
    await userEvent.type(current, 'old password 1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText(
        'Password changed. You stay signed in here; your other sessions were signed out.',
      ),
    ).toBeInTheDocument();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual({
      current_password: 'old password 1',
      new_password: 'new password 22',
      new_password_confirm: 'new password 22',
    });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('saves first and last name', async () => {
    asMember('agent');
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/users/profile/', async ({ request }) => {
        const body = (await request.json()) as { first_name: string; last_name: string };
        bodies.push(body);
        return ok(profile({ ...body, businesses: [{ ...ACME, role: 'agent' }] }));
      }),
    );
    renderApp('/engage/settings/profile');
    const last = await screen.findByLabelText('Last name');
    await userEvent.clear(last);
    await userEvent.type(last, 'Byron');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(bodies).toEqual([{ first_name: 'Ada', last_name: 'Byron' }]);
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
  });
});

describe('business switcher', () => {
  it('switches business: sets the cookie, clears the cache and loads the new business', async () => {
    signIn();
    const codes: Array<string | null> = [];
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [ACME, GLOBEX] }))),
      http.get('/api/business/roles/', () => ok(ROLES_INFO)),
      http.get('/api/business/users/', ({ request }) => {
        codes.push(request.headers.get('x-business-code'));
        return ok([ADA]);
      }),
      http.get('/api/business/users/invitations/', () => ok([])),
      http.get('/api/business/users/join-requests/', () => ok([])),
      http.get('/api/business/', () => ok(BUSINESS)),
    );
    const { router } = renderApp('/engage/settings/team');
    await screen.findByRole('table', { name: 'Members' });

    await userEvent.click(screen.getByRole('button', { name: 'Switch business: Acme' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Globex' }));

    expect(await screen.findByRole('button', { name: 'Switch business: Globex' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage');
    expect(document.cookie).toContain(`business_code=${GLOBEX.unique_code}`);

    await userEvent.click(screen.getByRole('link', { name: 'Settings' }));
    await userEvent.click(await screen.findByRole('link', { name: 'Team' }));
    await screen.findByRole('table', { name: 'Members' });
    expect(codes.at(-1)).toBe(GLOBEX.unique_code);
    expect(codes[0]).toBe(ACME.unique_code);
  });
});
