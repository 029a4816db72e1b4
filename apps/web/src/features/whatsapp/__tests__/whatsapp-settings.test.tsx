import type { TWhatsappAccount } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const ACCESS_TOKEN = 'EAAGm0PX4ZCpsBAKZAxyz0123456789abcdef';
const APP_SECRET = '0123456789abcdef0123456789abcdef';

/** Signed in to Acme with the role; the account endpoint answers as the server would. */
function asMember(role: 'owner' | 'agent', initial: TWhatsappAccount | null = null) {
  signIn();
  const state = { account: initial, gets: 0, puts: [] as Record<string, unknown>[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/whatsapp/account/', () => {
      state.gets += 1;
      return state.account ? ok(state.account) : fail(404, 'No WhatsApp number is connected yet.');
    }),
    http.put('/api/whatsapp/account/', async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      state.puts.push(body);
      state.account = {
        phone_number_id: body.phone_number_id!,
        waba_id: body.waba_id!,
        display_phone_number: body.display_phone_number!,
        verify_token: body.verify_token!,
        webhook_url: 'https://titan.example/api/whatsapp/webhook/',
        has_access_token: Boolean(body.access_token) || Boolean(state.account?.has_access_token),
        has_app_secret: Boolean(body.app_secret) || Boolean(state.account?.has_app_secret),
      };
      return ok(state.account);
    }),
  );
  return state;
}

const CONNECTED: TWhatsappAccount = {
  phone_number_id: '106540352242922',
  waba_id: '102290129340398',
  display_phone_number: '+1 555 010 0000',
  verify_token: 'acme-verify-token',
  webhook_url: 'https://titan.example/api/whatsapp/webhook/',
  has_access_token: true,
  has_app_secret: true,
};

describe('WhatsApp settings', () => {
  it(
    'connects a number, then shows the webhook URL and verify token to copy',
    { timeout: 20_000 },
    async () => {
      const state = asMember('owner');
      const user = userEvent.setup();
      renderApp('/engage/settings/whatsapp');

      const tabs = await screen.findByRole('navigation', { name: 'Settings' });
      expect(within(tabs).getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('aria-current', 'page');
      expect(await screen.findByText(/No WhatsApp number is connected yet\./)).toBeInTheDocument();
      expect(
        screen.getByText('Connect the number to get the webhook URL to register at Meta.'),
      ).toBeInTheDocument();
      expect(screen.getByLabelText('Access token')).toHaveAttribute('type', 'password');
      expect(screen.getByLabelText('App secret')).toHaveAttribute('type', 'password');

      await user.type(screen.getByLabelText('Phone number ID'), '106540352242922');
      await user.type(screen.getByLabelText('WhatsApp Business Account ID'), '102290129340398');
      await user.type(screen.getByLabelText('Display phone number'), '+1 555 010 0000');
      await user.type(screen.getByLabelText('Verify token'), 'acme-verify-token');

      // The secrets are required to connect: nothing is sent without them.
      await user.click(screen.getByRole('button', { name: 'Connect number' }));
      expect(await screen.findAllByText('This field is required.')).toHaveLength(2);
      expect(state.puts).toEqual([]);

      await user.type(screen.getByLabelText('Access token'), ACCESS_TOKEN);
      await user.type(screen.getByLabelText('App secret'), APP_SECRET);
      await user.click(screen.getByRole('button', { name: 'Connect number' }));

      expect(await screen.findByText('WhatsApp number connected')).toBeInTheDocument();
      expect(state.puts).toEqual([
        {
          phone_number_id: '106540352242922',
          waba_id: '102290129340398',
          display_phone_number: '+1 555 010 0000',
          verify_token: 'acme-verify-token',
          access_token: ACCESS_TOKEN,
          app_secret: APP_SECRET,
        },
      ]);

      expect(
        await screen.findByText("Register this URL in Meta's App Dashboard → WhatsApp → Configuration."),
      ).toBeInTheDocument();
      expect(screen.getByLabelText('Webhook URL', { selector: 'code' })).toHaveTextContent(
        'https://titan.example/api/whatsapp/webhook/',
      );
      expect(screen.getByLabelText('Verify token', { selector: 'code' })).toHaveTextContent(
        'acme-verify-token',
      );
      await user.click(screen.getByRole('button', { name: 'Copy URL' }));
      expect(await navigator.clipboard.readText()).toBe('https://titan.example/api/whatsapp/webhook/');
      await user.click(screen.getByRole('button', { name: 'Copy token' }));
      expect(await navigator.clipboard.readText()).toBe('acme-verify-token');

      // Stored secrets are not shown again; leaving them empty keeps them.
      expect(screen.getByLabelText('Access token')).toHaveValue('');
      expect(screen.getByLabelText('Access token')).toHaveAttribute(
        'placeholder',
        'Stored — leave empty to keep',
      );
      expect(screen.getByLabelText('App secret')).toHaveAttribute(
        'placeholder',
        'Stored — leave empty to keep',
      );
    },
  );

  it('updates a connected number without resending its secrets', async () => {
    const state = asMember('owner', CONNECTED);
    const user = userEvent.setup();
    renderApp('/engage/settings/whatsapp');

    const display = await screen.findByLabelText('Display phone number');
    expect(display).toHaveValue('+1 555 010 0000');
    expect(screen.getByLabelText('Access token')).toHaveAttribute(
      'placeholder',
      'Stored — leave empty to keep',
    );
    await user.clear(display);
    await user.type(display, '+1 555 010 9999');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('WhatsApp settings saved')).toBeInTheDocument();
    expect(state.puts).toEqual([
      {
        phone_number_id: CONNECTED.phone_number_id,
        waba_id: CONNECTED.waba_id,
        display_phone_number: '+1 555 010 9999',
        verify_token: CONNECTED.verify_token,
      },
    ]);
  });

  it('generates a verify token', async () => {
    asMember('owner', CONNECTED);
    const user = userEvent.setup();
    renderApp('/engage/settings/whatsapp');
    const token = await screen.findByLabelText('Verify token', { selector: 'input' });
    await user.click(screen.getByRole('button', { name: 'Generate a verify token' }));
    expect((token as HTMLInputElement).value).toMatch(/^[0-9a-f]{48}$/);
  });

  it("puts the server's field errors on their fields", async () => {
    asMember('owner', CONNECTED);
    server.use(
      http.put('/api/whatsapp/account/', () =>
        fail(400, 'Invalid input.', {
          phone_number_id: ['This phone number id is already connected to another business.'],
        }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/engage/settings/whatsapp');
    await screen.findByLabelText('Display phone number');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const field = screen.getByLabelText('Phone number ID');
    expect(
      await screen.findByText('This phone number id is already connected to another business.'),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.queryByText('WhatsApp settings saved')).toBeNull();
  });

  it('shows agents a read-only notice and never asks for the account', async () => {
    const state = asMember('agent', CONNECTED);
    renderApp('/engage/settings/whatsapp');
    expect(
      await screen.findByText('Only owners and admins can connect or change the WhatsApp number.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByLabelText('Access token')).toBeNull();
    expect(state.gets).toBe(0);
  });
});
