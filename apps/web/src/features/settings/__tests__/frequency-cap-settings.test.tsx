import { FREQUENCY_CAP_DEFAULT } from '@titan/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

function asMember(role: 'owner' | 'agent') {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))));
}

const RULE =
  'At most 3 marketing messages per customer every 7 days, across campaigns, journeys and agents. Replies and one-off messages are not counted.';

describe('the marketing frequency cap', () => {
  it('lets an owner turn it on with plain words that follow the numbers, and shows the server’s field errors', async () => {
    asMember('owner');
    const bodies: unknown[] = [];
    let answer: 'ok' | 'invalid' = 'invalid';
    server.use(
      http.put('/api/business/frequency-cap/', async ({ request }) => {
        const body = await request.json();
        bodies.push(body);
        return answer === 'ok'
          ? ok(body)
          : fail(400, 'Invalid input.', { period_days: ['Ensure this value is at most 60.'] });
      }),
    );
    renderApp('/engage/settings/business');

    expect(await screen.findByText(/^Off: campaigns, journeys and agents/)).toBeInTheDocument();
    const messages = await screen.findByLabelText('Messages');
    expect(messages).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Limit marketing messages per customer'));
    expect(messages).toBeEnabled();
    expect(screen.getByTestId('frequency-cap-rule')).toHaveTextContent(RULE);

    await userEvent.clear(messages);
    await userEvent.type(messages, '1');
    const days = screen.getByLabelText('Days');
    await userEvent.clear(days);
    await userEvent.type(days, '1');
    expect(screen.getByTestId('frequency-cap-rule')).toHaveTextContent(
      'At most 1 marketing message per customer every day, across campaigns, journeys and agents.',
    );
    // Out of range: refused before anything is sent.
    await userEvent.clear(days);
    await userEvent.type(days, '365');
    const save = screen.getByRole('button', { name: 'Save limit' });
    await userEvent.click(save);
    expect(await screen.findByText('Ensure this value is at most 90.')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    // The server's own refusal lands on its field.
    await userEvent.clear(days);
    await userEvent.type(days, '70');
    await userEvent.click(save);
    expect(await screen.findByText('Ensure this value is at most 60.')).toBeInTheDocument();

    answer = 'ok';
    await userEvent.clear(days);
    await userEvent.type(days, '7');
    await userEvent.clear(messages);
    await userEvent.type(messages, '3');
    await userEvent.click(save);
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(bodies.at(-1)).toEqual({ enabled: true, max_messages: 3, period_days: 7 });
    expect(screen.getByTestId('frequency-cap-rule')).toHaveTextContent(RULE);
  });

  it('shows an agent the rule read-only', async () => {
    asMember('agent');
    server.use(
      http.get('/api/business/frequency-cap/', () => ok({ ...FREQUENCY_CAP_DEFAULT, enabled: true })),
    );
    renderApp('/engage/settings/business');
    await waitFor(() => expect(screen.getByTestId('frequency-cap-rule')).toHaveTextContent(RULE));
    expect(screen.queryByLabelText('Limit marketing messages per customer')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save limit' })).not.toBeInTheDocument();
  });
});
