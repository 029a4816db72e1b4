// A chat group's auto-assignment in its settings form (issue 29): mode and capacity are shown as
// saved, checked by the contract before sending, and sent as `assignment` on save.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderApp } from '../../../test/render-app';
import { chatApi, chatGroup } from './fixtures';

const SUPPORT = chatGroup({ id: 3, assignment: { mode: 'least_busy', capacity: 4 } });

describe('chat group auto-assignment', () => {
  it('shows the saved mode and capacity, and saves a new choice', async () => {
    const { calls } = chatApi({ groups: [SUPPORT], staff: { 3: [] } });
    renderApp('/engage/settings/chat-groups');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Support' }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    const mode = within(form).getByLabelText('Mode');
    const capacity = within(form).getByLabelText('Capacity per member');
    expect(mode).toHaveValue('least_busy');
    expect(capacity).toHaveValue(4);

    await userEvent.selectOptions(mode, 'round_robin');
    await userEvent.clear(capacity);
    await userEvent.type(capacity, '0');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Enter a whole number from 1 to 1000.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.clear(capacity);
    await userEvent.type(capacity, '6');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/msg/chat-groups/3/',
      body: { assignment: { mode: 'round_robin', capacity: 6 } },
    });
  });
});
