// Settings → SMS: connecting a Twilio account (the server's field errors on their fields, the Auth
// Token write-only), the webhook URLs to paste into Twilio, a test text with its live segment count,
// and what an agent sees.
import type { TSmsAccount, TSmsSend } from '@titan/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = '0123456789abcdef0123456789abcdef';
const REFUSED =
  'Twilio refused these credentials. Check the Account SID and Auth Token (or API key) in the Twilio Console.';

function asMember(role: 'owner' | 'agent', initial: TSmsAccount | null = null) {
  signIn();
  const state = {
    account: initial,
    puts: [] as Record<string, unknown>[],
    tests: [] as Record<string, unknown>[],
  };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/sms/account/', () =>
      state.account ? ok(state.account) : fail(404, 'No SMS account is connected yet.'),
    ),
    http.put('/api/sms/account/', async ({ request }) => {
      const body = (await request.json()) as Record<string, string | null>;
      state.puts.push(body);
      if (body.auth_token === 'wrong-token-0123456789')
        return fail(400, 'Invalid input.', { auth_token: [REFUSED] });
      state.account = {
        account_sid: body.account_sid!,
        from_number: body.from_number ?? null,
        messaging_service_sid: body.messaging_service_sid ?? null,
        api_key_sid: body.api_key_sid ?? null,
        has_auth_token: true,
        has_api_key_secret: false,
        status_callback_url: 'https://titan.example/api/sms/webhook/status/',
        inbound_url: 'https://titan.example/api/sms/webhook/inbound/',
        updated_at: '2026-03-02T10:00:00.000Z',
      };
      return ok(state.account);
    }),
    http.post('/api/sms/account/test/', async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      state.tests.push(body);
      const send: TSmsSend = {
        id: 'e0000000-0000-4000-8000-000000000001',
        tracking_id: 'e0000000-0000-4000-8000-000000000001',
        status: 'queued',
        recipient: body.to!,
        customer_id: null,
        body: body.body!,
        segments: 1,
        encoding: 'GSM-7',
        template_id: null,
        provider_message_id: null,
        error_code: null,
        error_message: null,
        created_at: '2026-03-02T10:00:00.000Z',
      };
      return ok(send, 202);
    }),
  );
  return state;
}

const CONNECTED: TSmsAccount = {
  account_sid: SID,
  from_number: '+15550100200',
  messaging_service_sid: null,
  api_key_sid: null,
  has_auth_token: true,
  has_api_key_secret: false,
  status_callback_url: 'https://titan.example/api/sms/webhook/status/',
  inbound_url: 'https://titan.example/api/sms/webhook/inbound/',
  updated_at: '2026-03-02T10:00:00.000Z',
};

describe('SMS settings', () => {
  it(
    'connects a Twilio account, then shows the webhook URLs to paste into Twilio',
    { timeout: 30_000 },
    async () => {
      const state = asMember('owner');
      const user = userEvent.setup();
      renderApp('/engage/settings/sms');

      const tabs = await screen.findByRole('navigation', { name: 'Settings' });
      expect(within(tabs).getByRole('link', { name: 'SMS' })).toHaveAttribute('aria-current', 'page');
      expect(await screen.findByText(/No SMS account is connected yet\./)).toBeInTheDocument();
      expect(
        screen.getByText('Connect the account to get the webhook URLs to paste into Twilio.'),
      ).toBeInTheDocument();
      expect(screen.queryByRole('form', { name: 'Send a test message' })).not.toBeInTheDocument();
      expect(screen.getByLabelText('Auth Token')).toHaveAttribute('type', 'password');

      // Checked in the browser first: the SID's shape, a sender, and the token to connect.
      await user.type(screen.getByLabelText('Account SID'), 'AC123');
      await user.click(screen.getByRole('button', { name: 'Connect account' }));
      expect(
        await screen.findByText(
          'Enter the Account SID from the Twilio Console: AC followed by 32 letters and digits.',
        ),
      ).toBeInTheDocument();
      expect(
        screen.getByText('Give the number to send from, or a Messaging Service SID.'),
      ).toBeInTheDocument();
      expect(state.puts).toEqual([]);

      await user.clear(screen.getByLabelText('Account SID'));
      await user.type(screen.getByLabelText('Account SID'), SID);
      await user.type(screen.getByLabelText('Phone number'), '+1 555 010 0200');
      await user.type(screen.getByLabelText('Auth Token'), 'wrong-token-0123456789');
      await user.click(screen.getByRole('button', { name: 'Connect account' }));
      // Twilio said no: the server's words on the field.
      expect(await screen.findByText(REFUSED)).toBeInTheDocument();

      await user.clear(screen.getByLabelText('Auth Token'));
      await user.type(screen.getByLabelText('Auth Token'), TOKEN);
      await user.click(screen.getByRole('button', { name: 'Connect account' }));
      expect(await screen.findByText('Twilio account connected')).toBeInTheDocument();
      expect(state.puts.at(-1)).toEqual({
        account_sid: SID,
        auth_token: TOKEN,
        from_number: '+15550100200',
        api_key_sid: null,
      });

      expect(await screen.findByLabelText('A message comes in', { selector: 'code' })).toHaveTextContent(
        'https://titan.example/api/sms/webhook/inbound/',
      );
      expect(screen.getByLabelText('Status callback URL', { selector: 'code' })).toHaveTextContent(
        'https://titan.example/api/sms/webhook/status/',
      );
      await user.click(screen.getByRole('button', { name: 'Copy incoming-message URL' }));
      expect(await navigator.clipboard.readText()).toBe('https://titan.example/api/sms/webhook/inbound/');
      // The token is never shown again; leaving it empty keeps it.
      expect(screen.getByLabelText('Auth Token')).toHaveValue('');
      expect(screen.getByLabelText('Auth Token')).toHaveAttribute(
        'placeholder',
        'Stored — leave empty to keep',
      );
    },
  );

  it('switches the sender to a Messaging Service and sends only that', { timeout: 20_000 }, async () => {
    const state = asMember('owner', CONNECTED);
    const user = userEvent.setup();
    renderApp('/engage/settings/sms');
    await user.selectOptions(await screen.findByLabelText('Send from'), 'service');
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Messaging Service SID'), `MG${'a'.repeat(32)}`);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('SMS settings saved')).toBeInTheDocument();
    expect(state.puts).toEqual([
      { account_sid: SID, messaging_service_sid: `MG${'a'.repeat(32)}`, api_key_sid: null },
    ]);
  });

  it('sends a test text, counting its segments as it is typed', { timeout: 20_000 }, async () => {
    const state = asMember('owner', CONNECTED);
    const user = userEvent.setup();
    renderApp('/engage/settings/sms');
    const form = await screen.findByRole('form', { name: 'Send a test message' });
    const message = within(form).getByLabelText('Message');
    await user.clear(message);
    await user.type(message, 'Grüße ✓');
    expect(within(form).getByText('7 characters · 1 segment (UCS-2)')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('To'), '4155550123');
    await user.click(within(form).getByRole('button', { name: 'Send test message' }));
    expect(
      await within(form).findByText('Enter the number in international format, e.g. +14155550100.'),
    ).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('To'));
    await user.type(within(form).getByLabelText('To'), '+14155550123');
    await user.click(within(form).getByRole('button', { name: 'Send test message' }));
    expect(await screen.findByText('Test message queued')).toBeInTheDocument();
    expect(state.tests).toEqual([{ to: '+14155550123', body: 'Grüße ✓' }]);
    expect(within(form).getByRole('link', { name: 'View in event logs' })).toHaveAttribute(
      'href',
      '/engage/event-logs/sms/e0000000-0000-4000-8000-000000000001',
    );
  });

  it('tells an agent that only owners and admins manage the account', async () => {
    asMember('agent', CONNECTED);
    renderApp('/engage/settings/sms');
    expect(
      await screen.findByText('Only owners and admins can connect or change the SMS account.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Account SID')).not.toBeInTheDocument();
  });
});
