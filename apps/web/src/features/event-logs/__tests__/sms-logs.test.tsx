// The SMS tab's statuses and one text's page: the text as sent with its segments and encoding, what
// Twilio charged, and a timeline in Twilio's words with a delivery failure's reason.
import type { TEventLog, TEventLogDetail } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const SMS_ID = 'd0000000-0000-4000-8000-000000000001';

const ROW: TEventLog = {
  tracking_id: SMS_ID,
  wamid: 'SM0123456789abcdef0123456789abcdef',
  conversation_id: null,
  to: '+14155550123',
  type: '',
  template_name: null,
  status: 'failed',
  error_code: 30003,
  error_message: 'The phone is unreachable: it may be switched off or out of coverage.',
  pricing_category: null,
  billable: null,
  sent_by: { id: 1, name: 'Ada Lovelace' },
  created_at: '2026-03-02T10:00:00.000Z',
  updated_at: '2026-03-02T10:00:09.000Z',
  segments: 2,
  encoding: 'UCS-2',
  price: '-0.01580',
  price_unit: 'USD',
};

const DETAIL: TEventLogDetail = {
  ...ROW,
  request: { To: '+14155550123', From: '+15550100200', Body: 'Grüße! Your order is ready ✓' },
  response: { sid: ROW.wamid, status: 'queued', num_segments: '2' },
  sms: {
    from: '+15550100200',
    to: '+14155550123',
    body: 'Grüße! Your order is ready ✓',
    encoding: 'UCS-2',
    characters: 28,
    segments: 2,
  },
  events: [
    {
      status: 'queued',
      provider_status: null,
      timestamp: '2026-03-02T10:00:00.000Z',
      received_at: '2026-03-02T10:00:00.000Z',
      pricing: null,
      error: null,
    },
    {
      status: 'sent',
      provider_status: 'sent',
      timestamp: null,
      received_at: '2026-03-02T10:00:02.000Z',
      pricing: null,
      error: null,
    },
    {
      status: 'failed',
      provider_status: 'undelivered',
      timestamp: null,
      received_at: '2026-03-02T10:00:09.000Z',
      pricing: null,
      error: {
        code: 30003,
        title: 'The phone is unreachable: it may be switched off or out of coverage.',
        details: 'The phone is unreachable: it may be switched off or out of coverage.',
      },
    },
  ],
};

function withSms() {
  signIn();
  const calls: Record<string, string>[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/sms/events/', ({ request }) => {
      calls.push(Object.fromEntries(new URL(request.url).searchParams));
      return ok({ count: 1, next: null, previous: null, results: [ROW] });
    }),
    http.get('/api/sms/events/:trackingId/', ({ params }) =>
      params.trackingId === SMS_ID ? ok(DETAIL) : fail(404, 'Not found.'),
    ),
  );
  return calls;
}

describe('SMS tab', () => {
  it('filters by the statuses a text can have', { timeout: 20_000 }, async () => {
    const calls = withSms();
    renderApp('/engage/event-logs/sms');
    const table = await screen.findByRole('table', { name: 'SMS messages' });
    expect(within(table).getByText(ROW.error_message!)).toBeInTheDocument();
    const status = screen.getByLabelText('Status');
    const offered = within(status)
      .getAllByRole('option')
      .map((o) => o.getAttribute('value'));
    expect(offered).toEqual([
      '',
      'queued',
      'sending',
      'accepted',
      'sent',
      'delivered',
      'failed',
      'error',
      'suppressed',
      'cancelled',
    ]);
    await userEvent.selectOptions(status, 'suppressed');
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ status: 'suppressed' }));
  });

  it(
    'shows one text: as sent, its segments, its price and Twilio’s statuses',
    { timeout: 20_000 },
    async () => {
      withSms();
      renderApp(`/engage/event-logs/sms/${SMS_ID}`);
      expect(await screen.findByRole('heading', { level: 1, name: 'SMS message' })).toBeInTheDocument();
      const details = (await screen.findByText('Recipient')).closest('dl')!;
      expect(within(details).getByText('+14155550123')).toBeInTheDocument();
      expect(within(details).getByText(`${ROW.error_message!} (30003)`)).toBeInTheDocument();
      expect(within(details).getByText('0.01580 USD')).toBeInTheDocument();

      expect(screen.getByLabelText('Text message', { selector: 'p' })).toHaveTextContent(
        'Grüße! Your order is ready ✓',
      );
      expect(screen.getByText('2 segments · UCS-2 · 28 characters')).toBeInTheDocument();

      const steps = within(screen.getByRole('list', { name: 'Status timeline' })).getAllByRole('listitem');
      expect(
        steps.map((step) => within(step).getAllByText(/^(Queued|Sent|Failed)$/)[0]!.textContent),
      ).toEqual(['Queued', 'Sent', 'Failed']);
      expect(within(steps[2]!).getByText('Twilio: undelivered')).toBeInTheDocument();
      expect(within(steps[2]!).getByText(/unreachable.*\(30003\)/)).toBeInTheDocument();
      expect(screen.getByLabelText('Request')).toHaveTextContent('"From": "+15550100200"');
    },
  );
});
