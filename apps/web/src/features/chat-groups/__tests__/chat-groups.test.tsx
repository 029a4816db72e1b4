import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_AI_RESPONDER } from '@titan/contracts';
import { describe, expect, it } from 'vitest';

import { renderApp } from '../../../test/render-app';
import { ADA, BOB, chatApi, chatGroup } from './fixtures';

const SUPPORT = chatGroup({
  id: 3,
  visitor_form: [{ name: 'company', label: 'Company', type: 'text', required: true }],
  allowed_origins: ['https://shop.example.com'],
});

function field(number: number) {
  return screen.getByRole('group', { name: `Field ${number}` });
}

describe('chat groups settings', () => {
  it('is a settings tab listing the groups, each linking to its embed settings', async () => {
    chatApi({ groups: [SUPPORT, chatGroup({ id: 4, name: 'Sales', slug: 'sales' })] });
    renderApp('/engage/settings/chat-groups');

    const tabs = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(tabs).getByRole('link', { name: 'Chat groups' })).toHaveAttribute(
      'href',
      '/engage/settings/chat-groups',
    );
    const table = await screen.findByRole('table', { name: 'Chat groups' });
    const [, support, sales] = within(table).getAllByRole('row');
    expect(support).toHaveTextContent('Support');
    expect(support).toHaveTextContent('support');
    expect(sales).toHaveTextContent('Any');
    expect(within(table).getByRole('link', { name: 'Embed settings of Support' })).toHaveAttribute(
      'href',
      '/messages/settings/embed/g/support/',
    );
    expect(screen.getByRole('link', { name: 'Business embed settings' })).toHaveAttribute(
      'href',
      '/messages/settings/embed/b/ACME1234/',
    );
  });

  it('creates a group: slug from the name, a visitor form built field by field, origins checked', async () => {
    const { calls } = chatApi();
    const { router } = renderApp('/engage/settings/chat-groups');

    await userEvent.click(await screen.findByRole('button', { name: 'New chat group' }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Support & Sales');
    expect(within(form).getByLabelText('Slug')).toHaveValue('support-sales');

    await userEvent.type(within(form).getByLabelText('Greeting'), 'Ask us anything');
    const hex = within(form).getByLabelText('Colour (hex)');
    await userEvent.clear(hex);
    await userEvent.type(hex, '#0F766E');
    await userEvent.click(within(form).getByLabelText('Bottom left'));

    // Origins: the contract's message for a bad one, lowercased when good.
    const origin = within(form).getByLabelText('Origin to allow');
    await userEvent.type(origin, 'shop.example.com{Enter}');
    expect(
      await within(form).findByText('Enter an origin like https://www.example.com (no path).'),
    ).toBeInTheDocument();
    await userEvent.clear(origin);
    await userEvent.type(origin, 'https://Shop.Example.com/');
    await userEvent.click(within(form).getByRole('button', { name: 'Add origin' }));
    expect(within(form).getByRole('list', { name: 'Allowed origins' })).toHaveTextContent(
      'https://shop.example.com',
    );
    await userEvent.type(origin, 'https://shop.example.com{Enter}');
    expect(await within(form).findByText('That origin is already in the list.')).toBeInTheDocument();

    // Three fields; names follow labels until typed; a select gets options; reorder and remove.
    await userEvent.click(within(form).getByRole('button', { name: 'Add field' }));
    await userEvent.type(within(field(1)).getByLabelText('Label'), 'Company name');
    expect(within(field(1)).getByLabelText('Field name')).toHaveValue('company_name');
    await userEvent.click(within(field(1)).getByLabelText('Required'));

    await userEvent.click(within(form).getByRole('button', { name: 'Add field' }));
    await userEvent.type(within(field(2)).getByLabelText('Label'), 'Plan');
    await userEvent.selectOptions(within(field(2)).getByLabelText('Type'), 'select');
    await userEvent.type(within(field(2)).getByLabelText('Options'), 'Free{Enter}Pro');
    const planName = within(field(2)).getByLabelText('Field name');
    await userEvent.clear(planName);
    await userEvent.type(planName, 'tier');
    await userEvent.type(within(field(2)).getByLabelText('Label'), ' chosen');
    expect(within(field(2)).getByLabelText('Field name')).toHaveValue('tier');

    await userEvent.click(within(form).getByRole('button', { name: 'Add field' }));
    await userEvent.type(within(field(3)).getByLabelText('Label'), 'Scratch');
    await userEvent.click(within(form).getByRole('button', { name: 'Remove field 3' }));
    expect(screen.queryByRole('group', { name: 'Field 3' })).not.toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Move field 2 up' }));
    expect(within(field(1)).getByLabelText('Label')).toHaveValue('Plan chosen');
    expect(within(form).getByRole('button', { name: 'Move field 1 up' })).toBeDisabled();

    await userEvent.click(within(form).getByRole('button', { name: 'Create chat group' }));

    expect(await screen.findByText('Support & Sales was created.')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/msg/chat-groups/',
        body: {
          name: 'Support & Sales',
          slug: 'support-sales',
          greeting: 'Ask us anything',
          color: '#0F766E',
          launcher_position: 'left',
          allowed_origins: ['https://shop.example.com'],
          visitor_form: [
            { label: 'Plan chosen', name: 'tier', type: 'select', required: false, options: ['Free', 'Pro'] },
            { label: 'Company name', name: 'company_name', type: 'text', required: true },
          ],
          assignment: { mode: 'off', capacity: 10 },
          ai_responder: DEFAULT_AI_RESPONDER,
          // No business hours, away message, SLA or CSAT until set.
          business_hours: null,
          away_message: '',
          sla: { first_response_minutes: null, resolution_minutes: null },
          csat: false,
        },
      },
    ]);
    // The new group opens for its staff and embed settings.
    expect(await screen.findByRole('heading', { name: 'Edit Support & Sales' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?group=50');
    expect(screen.getByRole('link', { name: 'Embed settings' })).toHaveAttribute(
      'href',
      '/messages/settings/embed/g/support-sales/',
    );
    expect(screen.getByRole('link', { name: 'Open hosted chat page' })).toHaveAttribute(
      'href',
      '/messages/chat/ACME1234/g/support-sales',
    );
  });

  it('checks the form with the contract before sending anything', async () => {
    const { calls } = chatApi();
    renderApp('/engage/settings/chat-groups?group=new');

    const form = await screen.findByRole('form', { name: 'Chat group' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Help');
    const slug = within(form).getByLabelText('Slug');
    await userEvent.clear(slug);
    await userEvent.type(slug, 'Help Desk');
    await userEvent.click(within(form).getByRole('button', { name: 'Add field' }));
    await userEvent.selectOptions(within(field(1)).getByLabelText('Type'), 'select');
    await userEvent.click(within(form).getByRole('button', { name: 'Create chat group' }));

    expect(
      await within(form).findByText('Use lowercase letters, digits and hyphens (up to 50).'),
    ).toBeInTheDocument();
    expect(within(field(1)).getAllByText('This field may not be blank.')).toHaveLength(1);
    expect(within(field(1)).getByText('Add at least one option.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('puts a taken slug on the slug field', async () => {
    chatApi({ groups: [SUPPORT] });
    renderApp('/engage/settings/chat-groups?group=new');

    const form = await screen.findByRole('form', { name: 'Chat group' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Support');
    await userEvent.click(within(form).getByRole('button', { name: 'Create chat group' }));

    expect(
      await within(form).findByText('Another chat group of this business already uses this slug.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Slug')).toHaveFocus();
  });

  it('edits a group without moving its slug, and manages its staff', async () => {
    const { calls } = chatApi({
      groups: [SUPPORT],
      staff: { 3: [{ user: ADA.user, role: 'owner', added_at: '2026-03-01T00:00:00Z' }] },
    });
    renderApp('/engage/settings/chat-groups');

    await userEvent.click(await screen.findByRole('button', { name: 'Edit Support' }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    expect(within(field(1)).getByLabelText('Field name')).toHaveValue('company');
    const name = within(form).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Customer Care');
    // A saved field's name stays put when its label changes: answers are kept under it.
    await userEvent.type(within(field(1)).getByLabelText('Label'), ' or school');
    expect(within(form).getByLabelText('Slug')).toHaveValue('support');
    expect(within(field(1)).getByLabelText('Field name')).toHaveValue('company');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/msg/chat-groups/3/',
      body: { name: 'Customer Care', slug: 'support' },
    });

    const staff = await screen.findByRole('table', { name: 'Group staff' });
    expect(staff).toHaveTextContent('Ada Lovelace');
    expect(staff).toHaveTextContent('Owner');
    const member = screen.getByLabelText('Team member');
    // Only people not in the group yet can be added.
    expect(within(member).queryByRole('option', { name: /Ada Lovelace/ })).not.toBeInTheDocument();
    await userEvent.selectOptions(member, String(BOB.user.pk));
    await userEvent.click(screen.getByRole('button', { name: 'Add to group' }));
    expect(await screen.findByText('Bob Baker was added to the group.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Group staff' })).toHaveTextContent('Bob Baker'),
    );
    expect(await screen.findByText('Every team member is in this group.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Remove Ada Lovelace from the group' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    expect(await screen.findByText('Ada Lovelace was removed from the group.')).toBeInTheDocument();
    expect(calls.slice(1)).toEqual([
      { method: 'POST', path: '/api/msg/chat-groups/3/users/', body: { user_id: 8 } },
      { method: 'DELETE', path: '/api/msg/chat-groups/3/users/7/', body: null },
    ]);
  });

  it('deletes a group after confirming', async () => {
    const { calls } = chatApi({ groups: [SUPPORT] });
    renderApp('/engage/settings/chat-groups');

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Support' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Support?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Support was deleted.')).toBeInTheDocument();
    expect(await screen.findByText('No chat groups yet.')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'DELETE', path: '/api/msg/chat-groups/3/', body: null }]);
  });

  it('shows an agent the groups without any way to change them', async () => {
    chatApi({ role: 'agent', groups: [SUPPORT] });
    renderApp('/engage/settings/chat-groups');

    const table = await screen.findByRole('table', { name: 'Chat groups' });
    expect(screen.getByText('Only owners and admins can change chat groups.')).toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    expect(within(table).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New chat group' })).not.toBeInTheDocument();
  });
});
