// Settings → Roles (issue 34): an owner defines a custom role from the permissions' plain-language
// list and a chat group scope, edits and deletes it; the role is then offered wherever a role is
// given (a member, an invitation, an API key). Members without team.manage read the list only.
import type { TRoleInfo } from '@titan/contracts';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, ROLES_INFO, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

configure({ asyncUtilTimeout: 10_000 });

const GROUPS = [
  { id: 3, name: 'Support' },
  { id: 4, name: 'Sales' },
];

function asMember(role: 'owner' | 'agent') {
  signIn();
  let roles: TRoleInfo[] = [...ROLES_INFO];
  const calls = { posts: [] as unknown[], puts: [] as unknown[], deletes: [] as string[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/business/roles/', () => ok(roles)),
    http.get('/api/msg/chat-groups/', () =>
      ok(
        GROUPS.map((g) => ({
          ...g,
          slug: `g${g.id}`,
          greeting: '',
          color: '#111827',
          launcher_position: 'right',
          visitor_form: [],
          allowed_origins: [],
          created_at: '2026-01-01T00:00:00Z',
        })),
      ),
    ),
    http.post('/api/business/roles/', async ({ request }) => {
      const body = (await request.json()) as {
        name: string;
        permissions: string[];
        chat_group_ids: number[] | null;
      };
      calls.posts.push(body);
      if (body.name === 'Taken')
        return fail(400, 'Invalid input.', { name: ['A role with this name already exists.'] });
      roles = [
        ...roles,
        {
          value: 12,
          label: body.name,
          permissions: body.permissions as TRoleInfo['permissions'],
          custom: true,
          chat_group_ids: body.chat_group_ids,
        },
      ];
      return ok(
        { id: 12, ...body, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
        201,
      );
    }),
    http.put('/api/business/roles/:id/', async ({ request, params }) => {
      const body = (await request.json()) as { name: string };
      calls.puts.push(body);
      roles = roles.map((r) => (r.value === Number(params.id) ? { ...r, label: body.name } : r));
      return ok({
        id: Number(params.id),
        ...body,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
      });
    }),
    http.delete('/api/business/roles/:id/', ({ params }) => {
      calls.deletes.push(String(params.id));
      roles = roles.filter((r) => r.value !== Number(params.id));
      return ok(null);
    }),
  );
  return calls;
}

describe('Settings → Roles', () => {
  it('lets an owner define a scoped role from the permission list, rename it and delete it', async () => {
    const calls = asMember('owner');
    renderApp('/engage/settings/roles');
    const table = await screen.findByRole('table', { name: 'Roles' });
    expect(within(table).getAllByText('Built in')).toHaveLength(3);

    await userEvent.click(screen.getByRole('button', { name: 'New role' }));
    const dialog = await screen.findByRole('dialog', { name: 'New role' });
    // The owner's own rights are not offered; each permission says what it allows.
    expect(within(dialog).queryByLabelText(/Manage billing/)).not.toBeInTheDocument();
    expect(
      within(dialog).getByText('Read and answer conversations, assign them and change their status.'),
    ).toBeVisible();

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Taken');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /See customers and campaigns/ }));
    await userEvent.click(within(dialog).getByRole('radio', { name: /Only these chat groups/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Limited to no group at all is refused on the spot, naming the field.
    expect(
      await within(dialog).findByText('Choose at least one chat group, or every chat group.'),
    ).toBeVisible();
    expect(calls.posts).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Support' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // The server's message lands on the name.
    expect(await within(dialog).findByText('A role with this name already exists.')).toBeVisible();
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Support desk');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Support desk added.')).toBeInTheDocument();
    expect(calls.posts.at(-1)).toEqual({
      name: 'Support desk',
      permissions: ['inbox.use', 'engage.read'],
      chat_group_ids: [3],
    });
    const row = (await within(table).findByText('Support desk')).closest('tr')!;
    expect(within(row).getByText('Support and unassigned')).toBeInTheDocument();
    expect(within(row).getByText('Use the inbox, See customers and campaigns')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Edit Support desk' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Support desk' });
    expect(within(edit).getByRole('checkbox', { name: 'Support' })).toBeChecked();
    await userEvent.clear(within(edit).getByLabelText('Name'));
    await userEvent.type(within(edit).getByLabelText('Name'), 'Front desk');
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Front desk saved.')).toBeInTheDocument();
    expect(calls.puts.at(-1)).toMatchObject({ name: 'Front desk', chat_group_ids: [3] });

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Front desk' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete the role Front desk?' });
    expect(within(confirm).getByText(/Open invitations offering it are withdrawn/)).toBeVisible();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Front desk deleted.')).toBeInTheDocument();
    expect(calls.deletes).toEqual(['12']);
    await waitFor(() => expect(within(table).queryByText('Front desk')).not.toBeInTheDocument());
  }, 60_000);

  it('shows agents the roles without the controls', async () => {
    asMember('agent');
    renderApp('/engage/settings/roles');
    await screen.findByRole('table', { name: 'Roles' });
    expect(screen.getByText('Only members who manage the team can add or change roles.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New role' })).not.toBeInTheDocument();
  });

  it('offers a custom role when inviting someone and sends its id', async () => {
    asMember('owner');
    const custom: TRoleInfo = {
      value: 12,
      label: 'Contractor',
      permissions: ['inbox.use'],
      custom: true,
      chat_group_ids: null,
    };
    let invited: unknown;
    server.use(
      http.get('/api/business/roles/', () => ok([...ROLES_INFO, custom])),
      http.get('/api/business/users/', () => ok([])),
      http.get('/api/business/users/invitations/', () => ok([])),
      http.get('/api/business/users/join-requests/', () => ok([])),
      http.post('/api/business/users/', async ({ request }) => {
        invited = await request.json();
        return ok(
          {
            id: 6,
            email: 'eve@example.com',
            role: 12,
            expires_at: '2030-01-01T00:00:00Z',
            created_at: '2026-03-03T00:00:00Z',
            invited_by: null,
          },
          201,
        );
      }),
    );
    renderApp('/engage/settings/team');
    const invite = await screen.findByRole('form', { name: 'Invite someone' });
    await userEvent.type(within(invite).getByLabelText('Email'), 'eve@example.com');
    await userEvent.selectOptions(within(invite).getByLabelText('Role'), 'Contractor');
    await userEvent.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to eve@example.com.')).toBeInTheDocument();
    expect(invited).toEqual({ email: 'eve@example.com', role: 12 });
  });
});
