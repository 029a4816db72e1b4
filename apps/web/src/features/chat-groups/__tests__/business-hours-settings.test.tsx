// A chat group's business hours, away message, SLA targets and CSAT in its settings form (issue 29):
// shown as saved, checked by the contract before sending, and sent on save.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderApp } from '../../../test/render-app';
import { chatApi, chatGroup } from './fixtures';

const HOURS = {
  time_zone: 'Europe/Berlin',
  weekly: [{ day: 'mon' as const, start: '09:00', end: '17:00' }],
  holidays: ['2026-12-25'],
};

async function openForm() {
  renderApp('/engage/settings/chat-groups');
  await userEvent.click(await screen.findByRole('button', { name: 'Edit Support' }));
  return screen.findByRole('form', { name: 'Chat group' });
}

describe('chat group business hours and service levels', () => {
  it('shows the saved hours, refuses an opening that ends before it starts, and saves the changes', async () => {
    const { calls } = chatApi({
      groups: [
        chatGroup({
          business_hours: HOURS,
          away_message: 'Back at 9.',
          sla: { first_response_minutes: 30, resolution_minutes: null },
        }),
      ],
      staff: { 3: [] },
    });
    const form = await openForm();
    expect(
      within(form).getByLabelText('Set business hours (otherwise the group always answers)'),
    ).toBeChecked();
    expect(within(form).getByLabelText('Time zone')).toHaveValue('Europe/Berlin');
    const first = within(form).getByRole('group', { name: 'Opening 1' });
    expect(within(first).getByLabelText('Day')).toHaveValue('mon');
    expect(within(form).getByLabelText('Holidays')).toHaveValue('2026-12-25');
    expect(within(form).getByLabelText('Away message')).toHaveValue('Back at 9.');
    expect(within(form).getByLabelText('First response within (minutes)')).toHaveValue('30');

    await userEvent.click(within(form).getByRole('button', { name: 'Add opening' }));
    const second = within(form).getByRole('group', { name: 'Opening 2' });
    await userEvent.selectOptions(within(second).getByLabelText('Day'), 'tue');
    const closes = within(second).getByLabelText('Closes');
    await userEvent.clear(closes);
    await userEvent.type(closes, '08:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(second).findByText(
        'The end must be after the start (split hours that pass midnight in two).',
      ),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.clear(closes);
    await userEvent.type(closes, '12:00');
    await userEvent.type(within(form).getByLabelText('Resolved within (minutes)'), '480');
    await userEvent.click(
      within(form).getByLabelText('Ask the customer to rate the conversation when it is resolved'),
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/msg/chat-groups/3/',
      body: {
        business_hours: {
          time_zone: 'Europe/Berlin',
          weekly: [
            { day: 'mon', start: '09:00', end: '17:00' },
            { day: 'tue', start: '09:00', end: '12:00' },
          ],
          holidays: ['2026-12-25'],
        },
        away_message: 'Back at 9.',
        sla: { first_response_minutes: 30, resolution_minutes: 480 },
        csat: true,
      },
    });
  });

  it('turns the hours off: the group always answers', async () => {
    const { calls } = chatApi({ groups: [chatGroup({ business_hours: HOURS })], staff: { 3: [] } });
    const form = await openForm();
    await userEvent.click(
      within(form).getByLabelText('Set business hours (otherwise the group always answers)'),
    );
    expect(within(form).queryByLabelText('Time zone')).not.toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ body: { business_hours: null } });
  });
});
