// A chat group's AI first responder in its settings form (issue 33): the saved settings are shown,
// checked by the contract before sending, and sent as `ai_responder` on save (human-only topics one
// per line, the channels ticked).
import type { TMcpServer, TUserPlugin } from '@titan/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { CHAT_GROUPS_STRINGS } from '../strings';
import { chatApi, chatGroup } from './fixtures';

const T = CHAT_GROUPS_STRINGS.aiResponder.tools;
const STAMP = '2026-11-24T10:00:00Z';
const SHOP: TMcpServer = {
  id: 7,
  name: 'Shop',
  url: 'https://mcp.example.com/mcp',
  auth: 'bearer',
  status: 'connected',
  last_error: null,
  has_token: true,
  oauth_registration: null,
  token_expires_at: null,
  tools: [
    {
      name: 'find_customer_orders',
      model_name: 'mcp7_find_customer_orders',
      description: 'The customer’s orders.',
      input_schema: { type: 'object', properties: { customer_email: { type: 'string' } } },
    },
    {
      name: 'lookup_any_order',
      model_name: 'mcp7_lookup_any_order',
      description: 'Any order by its number.',
      input_schema: { type: 'object', properties: { number: { type: 'string' } } },
    },
  ],
  tools_listed_at: STAMP,
  created_at: STAMP,
  updated_at: STAMP,
};
const BOOKINGS: TUserPlugin = {
  id: 4,
  plugin: 'bookings',
  plugin_name: 'Bookings',
  name: 'Bookings',
  settings: {},
  status: 'connected',
  last_error: null,
  has_key: true,
  tools: [
    {
      name: 'list_bookings',
      model_name: 'plugin4_list_bookings',
      description: 'The customer’s bookings.',
      input_schema: { type: 'object', properties: { phone: { type: 'string' } } },
    },
  ],
  connected_by: 1,
  created_at: STAMP,
  updated_at: STAMP,
};

const SUPPORT = chatGroup({
  id: 3,
  ai_responder: {
    mode: 'always',
    channels: ['widget'],
    handoff: { max_turns: 4, human_only_topics: ['legal complaint'], min_confidence: 0.7 },
    monthly_token_budget: 20000,
    tools: [{ source: 'mcp', server_id: 7, name: 'find_customer_orders' }],
  },
});

describe('chat group AI first responder', () => {
  it('shows the saved settings, refuses bad input before sending, and saves a change', async () => {
    const { calls } = chatApi({ groups: [SUPPORT], staff: { 3: [] } });
    renderApp('/engage/settings/chat-groups');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Support' }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    expect(within(form).getByLabelText('When it answers')).toHaveValue('always');
    expect(within(form).getByLabelText('Chat widget')).toBeChecked();
    expect(within(form).getByLabelText('Email')).not.toBeChecked();
    const turns = within(form).getByLabelText('Answers before a person takes over');
    expect(turns).toHaveValue(4);
    expect(within(form).getByLabelText('Confidence it needs to answer')).toHaveValue(0.7);
    const topics = within(form).getByLabelText('Human-only topics');
    expect(topics).toHaveValue('legal complaint');
    expect(within(form).getByLabelText('Monthly token budget')).toHaveValue(20000);

    await userEvent.clear(turns);
    await userEvent.type(turns, '0');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Enter a whole number from 1 to 50.')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.clear(turns);
    await userEvent.type(turns, '2');
    await userEvent.click(within(form).getByLabelText('SMS'));
    await userEvent.type(topics, '\nrefund dispute\n');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/msg/chat-groups/3/',
      body: {
        ai_responder: {
          mode: 'always',
          channels: ['widget', 'sms'],
          handoff: {
            max_turns: 2,
            human_only_topics: ['legal complaint', 'refund dispute'],
            min_confidence: 0.7,
          },
          monthly_token_budget: 20000,
          // The allowed tools are kept as saved.
          tools: [{ source: 'mcp', server_id: 7, name: 'find_customer_orders' }],
        },
      },
    });
  });

  it('lists the connections’ tools, allows only those that take the customer, and saves the choice', async () => {
    const { calls } = chatApi({ groups: [SUPPORT], staff: { 3: [] } });
    server.use(
      http.get('/api/config/mcp-servers/', () => ok([SHOP])),
      http.get('/api/user-plugins/', () => ok([BOOKINGS])),
    );
    renderApp('/engage/settings/chat-groups');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Support' }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    const tools = await within(form).findByRole('list', { name: T.legend });
    const saved = within(tools).getByRole('checkbox', { name: /find_customer_orders/ });
    expect(saved).toBeChecked();
    // A tool that takes no customer could read anyone's orders: it cannot be chosen, and says why.
    const any = within(tools).getByRole('checkbox', { name: /lookup_any_order/ });
    expect(any).toBeDisabled();
    expect(any.closest('li')).toHaveTextContent(T.noCustomer);
    const bookings = within(tools).getByRole('checkbox', { name: /list_bookings/ });
    expect(bookings.closest('li')).toHaveTextContent('(plugin Bookings)');

    await userEvent.click(bookings);
    await userEvent.click(saved);
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/msg/chat-groups/3/',
      body: { ai_responder: { tools: [{ source: 'plugin', server_id: 4, name: 'list_bookings' }] } },
    });
  });

  it('keeps a saved tool its connection no longer offers listed until it is unticked', async () => {
    chatApi({ groups: [SUPPORT], staff: { 3: [] } });
    renderApp('/engage/settings/chat-groups');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Support' }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    const tools = await within(form).findByRole('list', { name: T.legend });
    const gone = within(tools).getByRole('checkbox', { name: /find_customer_orders/ });
    expect(gone).toBeChecked();
    expect(gone.closest('li')).toHaveTextContent(T.gone);
    await userEvent.click(gone);
    expect(within(form).queryByRole('list', { name: T.legend })).not.toBeInTheDocument();
    expect(within(form).getByText(T.none)).toBeInTheDocument();
  });

  it('is off for a new group, its other fields disabled until it is turned on', async () => {
    chatApi({ groups: [SUPPORT], staff: { 3: [] } });
    renderApp('/engage/settings/chat-groups');
    await userEvent.click(await screen.findByRole('button', { name: /new chat group/i }));
    const form = await screen.findByRole('form', { name: 'Chat group' });
    expect(within(form).getByLabelText('When it answers')).toHaveValue('off');
    expect(within(form).getByLabelText('Monthly token budget')).toBeDisabled();
    await userEvent.selectOptions(within(form).getByLabelText('When it answers'), 'after_hours');
    expect(within(form).getByLabelText('Monthly token budget')).toBeEnabled();
  });
});
