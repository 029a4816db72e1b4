// Settings → Billing (plan, status, usage bars, the pricing page and portal, top-ups), the payment
// return page, and the blocker modal opening when a send is refused with 402.
import { BILLING_DIALOGS, type TBillingState, type TSmsAccount } from '@titan/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp, stubLocationAssign } from '../../../test/render-app';
import { server } from '../../../test/server';

const ACTIVE: TBillingState = {
  enabled: true,
  status: 'active',
  can_send: true,
  plan: { id: 'starter-USD-monthly', name: 'Starter' },
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
  usage: [
    { channel: 'email', used: 120, reserved: 130, quota: 1000, extra: 0, remaining: 870 },
    { channel: 'sms', used: 100, reserved: 100, quota: 100, extra: 0, remaining: 0 },
    { channel: 'whatsapp', used: 3, reserved: 3, quota: null, extra: 0, remaining: null },
  ],
  top_ups: [
    {
      id: 'sms-500-USD',
      name: '500 extra texts',
      channel: 'sms',
      units: 500,
      price: 1500,
      currency_code: 'USD',
    },
  ],
  top_ups_error: null,
};

function asMember(role: 'owner' | 'agent', billing: TBillingState = ACTIVE) {
  signIn();
  const state = { billing, charges: [] as unknown[], sessions: [] as string[] };
  server.use(
    http.get('/api/users/profile/', () =>
      ok(profile({ businesses: [{ ...ACME, role, subscription_status: billing.status }] })),
    ),
    http.get('/api/chargebee/subscription/', () => ok(state.billing)),
    http.post('/api/chargebee/pricing-page-session/', () => {
      state.sessions.push('pricing');
      return ok({ url: 'https://titan-test.chargebee.com/hosted/pricing/pps_1' });
    }),
    http.post('/api/chargebee/portal-session/', () => {
      state.sessions.push('portal');
      return ok({ access_url: 'https://titan-test.chargebee.com/portal/abc' });
    }),
    http.post('/api/chargebee/charge/', async ({ request }) => {
      state.charges.push(await request.json());
      state.billing = {
        ...state.billing,
        usage: state.billing.usage.map((u) =>
          u.channel === 'sms' ? { ...u, extra: 500, remaining: 500 } : u,
        ),
      };
      return ok({ invoice_id: 'inv_1', invoice_status: 'paid', channel: 'sms', units: 500, credited: true });
    }),
  );
  return state;
}

afterEach(() => vi.unstubAllGlobals());

describe('Settings → Billing', () => {
  it('shows the plan, its status and usage against each quota, and opens the pricing page and the portal', async () => {
    const state = asMember('owner');
    const assign = stubLocationAssign();
    const user = userEvent.setup();
    renderApp('/engage/settings/billing');
    expect(await screen.findByTestId('billing-plan')).toHaveTextContent('Starter');
    expect(screen.getByTestId('billing-status')).toHaveTextContent('Active');
    expect(screen.getByText('Billing period Nov 1, 2026 – Dec 1, 2026')).toBeInTheDocument();
    const sms = screen.getByRole('progressbar', { name: 'SMS' });
    expect(sms).toHaveAttribute('aria-valuenow', '100');
    expect(sms).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText('100 of 100')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Email' })).toHaveAttribute('aria-valuenow', '130');
    // WhatsApp is not limited by this plan: no bar.
    expect(screen.queryByRole('progressbar', { name: 'WhatsApp' })).toBeNull();
    expect(screen.getByText('3 sent · not limited')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Change plan' }));
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://titan-test.chargebee.com/hosted/pricing/pps_1'),
    );
    await user.click(screen.getByRole('button', { name: 'Manage billing' }));
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://titan-test.chargebee.com/portal/abc'),
    );
    expect(state.sessions).toEqual(['pricing', 'portal']);
  });

  it('buys a top-up and shows the larger allowance', async () => {
    const state = asMember('owner');
    const user = userEvent.setup();
    renderApp('/engage/settings/billing');
    await user.click(await screen.findByRole('button', { name: 'Buy for $15.00' }));
    // Nothing is charged until the owner has read the amount and the price and confirmed.
    const dialog = await screen.findByRole('alertdialog', { name: /^Buy / });
    expect(dialog).toHaveTextContent(
      '500 SMS messages are added to this billing period and $15.00 is charged once to the card on file.',
    );
    expect(state.charges).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(state.charges).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Buy for $15.00' }));
    await user.click(await screen.findByRole('button', { name: 'Pay $15.00' }));
    expect(await screen.findByText('500 SMS added to this period.')).toBeInTheDocument();
    expect(state.charges).toEqual([{ top_up: 'sms-500-USD' }]);
    expect(await screen.findByText('100 of 600 (includes 500 from top-ups)')).toBeInTheDocument();
  });

  it('says sending is stopped when the subscription does not allow it, and offers to choose a plan', async () => {
    asMember('owner', { ...ACTIVE, status: 'inactive', can_send: false, plan: null });
    renderApp('/engage/settings/billing');
    expect(
      await screen.findByText(/Sending is stopped until the subscription is active/),
    ).toBeInTheDocument();
    expect(screen.getByTestId('billing-plan')).toHaveTextContent('No plan yet');
    expect(screen.getByRole('button', { name: 'Choose a plan' })).toBeInTheDocument();
  });

  it('shows an agent the usage without the owner’s buttons', async () => {
    asMember('agent');
    renderApp('/engage/settings/billing');
    expect(
      await screen.findByText('Only the business owner can change the plan or buy top-ups.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Buy for/ })).toBeNull();
  });

  it('says nothing is limited when billing is off', async () => {
    asMember('owner', { ...ACTIVE, enabled: false, status: 'inactive', plan: null, top_ups: [] });
    renderApp('/engage/settings/billing');
    expect(
      await screen.findByText(/Billing is not set up on this Titan server, so nothing is limited/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Choose a plan' })).toBeNull();
  });
});

describe('/confirm-payment/{payment_status}', () => {
  it('success: says the payment was received, shows the subscription, and leads back to billing', async () => {
    asMember('owner');
    renderApp('/confirm-payment/success');
    expect(await screen.findByText('Payment received')).toBeInTheDocument();
    expect(await screen.findByTestId('confirm-payment-status')).toHaveTextContent(
      "Acme's subscription status is active.",
    );
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute(
      'href',
      '/engage/settings/billing',
    );
  });

  it('cancelled and failed say the plan has not changed', async () => {
    asMember('owner');
    const { unmount } = renderApp('/confirm-payment/cancelled');
    expect(await screen.findByText('Payment cancelled')).toBeInTheDocument();
    expect(screen.getByText('Nothing was charged and your plan has not changed.')).toBeInTheDocument();
    unmount();
    renderApp('/confirm-payment/failed');
    expect(await screen.findByText('Payment failed')).toBeInTheDocument();
  });

  it('says plainly when billing is not connected', async () => {
    asMember('owner', { ...ACTIVE, enabled: false });
    renderApp('/confirm-payment/success');
    expect(await screen.findByText(/Billing is not connected to this Titan server/)).toBeInTheDocument();
    // No subscription to report without billing: never "inactive".
    expect(screen.queryByTestId('confirm-payment-status')).toBeNull();
    expect(screen.queryByText(/inactive/i)).toBeNull();
  });
});

describe('the blocker modal', () => {
  it('opens with the server’s dialog when a send is refused for the quota', async () => {
    asMember('owner');
    const account: TSmsAccount = {
      account_sid: 'AC0123456789abcdef0123456789abcdef',
      from_number: '+15550100200',
      messaging_service_sid: null,
      api_key_sid: null,
      has_auth_token: true,
      has_api_key_secret: false,
      status_callback_url: 'https://titan.example/api/sms/webhook/status/',
      inbound_url: 'https://titan.example/api/sms/webhook/inbound/',
      updated_at: '2026-03-02T10:00:00.000Z',
    };
    const dialog = BILLING_DIALOGS.quota('sms', 100, '2026-12-01T00:00:00.000Z');
    server.use(
      http.get('/api/sms/account/', () => ok(account)),
      http.post('/api/sms/account/test/', () => fail(402, dialog.title, { dialog })),
    );
    const user = userEvent.setup();
    renderApp('/engage/settings/sms');
    await user.type(await screen.findByLabelText('To'), '+14155550100');
    await user.click(screen.getByRole('button', { name: 'Send test message' }));
    const modal = await screen.findByRole('dialog');
    expect(
      within(modal).getByText('You have used all your text messages for this period'),
    ).toBeInTheDocument();
    expect(within(modal).getByText(/renews on December 1/)).toBeInTheDocument();
  });
});
