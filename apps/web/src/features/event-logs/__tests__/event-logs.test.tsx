// The event logs: a tab per channel (email, WhatsApp, SMS) over /api/{channel}/events/, its filters
// and CSV download, each send's page with its timeline, and the old WhatsApp log URLs.
import type { TEventLog, TEventLogChannel, TEventLogDetail } from '@titan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { business, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { EMAIL_METRICS } from './email-fixtures';

const TRACKING = '6f1c3c1e-8a52-4c4e-9d51-2f3a4b5c6d7e';

function log(overrides: Partial<TEventLog> = {}): TEventLog {
  return {
    tracking_id: TRACKING,
    wamid: 'wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI',
    conversation_id: 5,
    to: '15550100000',
    type: 'template',
    template_name: 'order_update',
    status: 'failed',
    error_code: 131026,
    error_message: 'Message undeliverable',
    pricing_category: 'utility',
    billable: false,
    sent_by: { id: 7, name: 'Ada Lovelace' },
    created_at: '2026-03-02T10:00:00.000Z',
    updated_at: '2026-03-02T10:00:05.000Z',
    ...overrides,
  };
}

const DETAIL: TEventLogDetail = {
  ...log(),
  request: {
    messaging_product: 'whatsapp',
    to: '15550100000',
    type: 'template',
    template: { name: 'order_update', language: { code: 'en_US' } },
  },
  response: { messages: [{ id: 'wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI' }] },
  events: [
    {
      status: 'failed',
      timestamp: '2026-03-02T10:00:05.000Z',
      received_at: '2026-03-02T10:00:06.000Z',
      pricing: null,
      error: { code: 131026, title: 'Message undeliverable', details: 'The recipient is not on WhatsApp.' },
    },
    {
      status: 'sent',
      timestamp: '2026-03-02T10:00:01.000Z',
      received_at: '2026-03-02T10:00:02.000Z',
      pricing: { category: 'utility', billable: false },
      error: null,
    },
  ],
};

const BALANCE = {
  currency: 'USD',
  period_start: '2026-03-01T00:00:00.000Z',
  period_end: '2026-04-01T00:00:00.000Z',
  messages_sent: 120,
  billable_messages: 80,
  spent: 4.8,
  by_category: [{ category: 'utility', messages: 120, billable: 80, rate: 0.06, cost: 4.8 }],
};

type TCall = { channel: string; params: Record<string, string> };

/** Signed in, the WhatsApp log answering 45 messages over three pages of 20, email and SMS none yet. */
function withLogs() {
  signIn();
  const calls: Record<string, string>[] = [];
  const channelCalls: TCall[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/whatsapp/client/balance/', () => ok(BALANCE)),
    // The email tab's charts.
    http.get('/api/metrics/email-metrics/', () => ok(EMAIL_METRICS)),
    http.get('/api/whatsapp/events/', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      calls.push(params);
      const rows =
        params.status === 'failed'
          ? [log()]
          : [
              log(),
              log({
                tracking_id: 'a0000000-0000-4000-8000-000000000002',
                to: '15550100001',
                type: 'text',
                template_name: null,
                status: 'read',
                error_code: null,
                error_message: null,
                sent_by: null,
              }),
            ];
      return ok({ count: params.status === 'failed' ? 1 : 45, next: null, previous: null, results: rows });
    }),
    http.get(`/api/whatsapp/events/${TRACKING}/`, () => ok(DETAIL)),
    // Email and SMS: the channels have no sends yet. Listed last, so WhatsApp's handlers win.
    http.get('/api/:channel/events/', ({ request, params }) => {
      channelCalls.push({
        channel: String(params.channel),
        params: Object.fromEntries(new URL(request.url).searchParams),
      });
      return ok({ count: 0, next: null, previous: null, results: [] });
    }),
  );
  return Object.assign(calls, { channelCalls });
}

describe('WhatsApp logs', () => {
  it('lists messages with this month’s spend, filters them and pages', { timeout: 20_000 }, async () => {
    const calls = withLogs();
    const { router } = renderApp('/engage/event-logs/whatsapp');

    expect(await screen.findByRole('heading', { level: 1, name: 'Event logs' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Event logs' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Email', '/engage/event-logs/emails'],
      ['WhatsApp', '/engage/event-logs/whatsapp'],
      ['SMS', '/engage/event-logs/sms'],
    ]);
    expect(within(tabs).getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('aria-current', 'page');

    const balance = await screen.findByRole('region', { name: 'This month' });
    expect(await within(balance).findByText('$4.80')).toBeInTheDocument();
    expect(within(balance).getByText('120')).toBeInTheDocument();
    expect(within(balance).getByText('March 2026')).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'WhatsApp messages' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: '15550100000' })).toHaveAttribute(
      'href',
      `/engage/event-logs/whatsapp/${TRACKING}`,
    );
    expect(within(rows[0]!).getByText('Template: order_update')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Message undeliverable')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('text')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Read')).toBeInTheDocument();
    expect(calls.at(-1)).toEqual({ page: '1', page_size: '20' });

    await userEvent.click(screen.getByRole('button', { name: /Next page/ }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ page: '2', page_size: '20' }));
    expect(router.state.location.search).toBe('?page=2');

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(calls.at(-1)).toEqual({ status: 'failed', page: '1', page_size: '20' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'WhatsApp messages' })).getAllByRole('row'),
      ).toHaveLength(2),
    );

    await userEvent.type(screen.getByLabelText('Search logs'), 'order');
    await waitFor(() =>
      expect(calls.at(-1)).toEqual({ status: 'failed', search: 'order', page: '1', page_size: '20' }),
    );

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    await waitFor(() => expect(router.state.location.search).toContain('from=2026-03-01'));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });
    await waitFor(() =>
      expect(calls.at(-1)).toEqual({
        status: 'failed',
        search: 'order',
        // Whole days of the business's zone (the default business counts in UTC).
        created_at__gte: '2026-03-01T00:00:00.000Z',
        created_at__lte: '2026-03-31T23:59:59.999Z',
        page: '1',
        page_size: '20',
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.getByLabelText('Search logs')).toHaveValue(''));
    expect(screen.getByLabelText('Status')).toHaveValue('');
  });

  it('counts From and To in the business’s time zone, never the browser’s first', async () => {
    const calls = withLogs();
    server.use(
      http.get('/api/business/', async () => {
        await delay(300);
        return ok(business({ time_zone: 'America/Los_Angeles' }));
      }),
    );
    renderApp('/engage/event-logs/whatsapp?from=2026-03-01&to=2026-03-31');

    expect(await screen.findByRole('table', { name: 'WhatsApp messages' })).toBeInTheDocument();
    // 1 March starts at 08:00 UTC in Los Angeles (PST); 31 March ends at 06:59:59 UTC on 1 April (PDT).
    expect([...calls]).toEqual([
      {
        created_at__gte: '2026-03-01T08:00:00.000Z',
        created_at__lte: '2026-04-01T06:59:59.999Z',
        page: '1',
        page_size: '20',
      },
    ]);
  });

  it(
    'opens a message: details, error, status timeline and the request and response',
    { timeout: 20_000 },
    async () => {
      withLogs();
      // The WhatsApp log's old address opens the WhatsApp tab.
      const { router } = renderApp('/engage/event-logs');
      const table = await screen.findByRole('table', { name: 'WhatsApp messages' });
      expect(router.state.location.pathname).toBe('/engage/event-logs/whatsapp');
      await userEvent.click(within(table).getAllByText('Ada Lovelace')[0]!);

      expect(await screen.findByRole('heading', { level: 1, name: 'WhatsApp message' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(`/engage/event-logs/whatsapp/${TRACKING}`);
      const details = await screen.findByText('Recipient');
      const list = details.closest('dl')!;
      expect(within(list).getByText('15550100000')).toBeInTheDocument();
      expect(within(list).getByText('order_update')).toBeInTheDocument();
      expect(within(list).getByText('Failed')).toBeInTheDocument();
      expect(within(list).getByText('Message undeliverable (131026)')).toBeInTheDocument();
      expect(within(list).getByText('Ada Lovelace')).toBeInTheDocument();
      expect(within(list).getByRole('link', { name: 'Open conversation' })).toHaveAttribute(
        'href',
        '/messages?conversation=5',
      );

      const timeline = screen.getByRole('list', { name: 'Status timeline' });
      const steps = within(timeline).getAllByRole('listitem');
      expect(steps.map((s) => within(s).getByText(/^(Sent|Failed)$/).textContent)).toEqual([
        'Sent',
        'Failed',
      ]);
      expect(steps[1]).toHaveTextContent(
        'Message undeliverable — The recipient is not on WhatsApp. (131026)',
      );

      const request = screen.getByText('Request').closest('details')!;
      expect(request).not.toHaveAttribute('open');
      await userEvent.click(within(request).getByText('Request'));
      expect(request).toHaveAttribute('open');
      expect(within(request).getByLabelText('Request')).toHaveTextContent('"name": "order_update"');
      expect(screen.getByLabelText('Response')).toHaveTextContent(
        '"id": "wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI"',
      );

      await userEvent.click(screen.getByRole('link', { name: 'Back to event logs' }));
      expect(await screen.findByRole('table', { name: 'WhatsApp messages' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/engage/event-logs/whatsapp');
    },
  );

  it('says so when a log entry does not exist', async () => {
    withLogs();
    server.use(http.get('/api/whatsapp/events/:id/', () => fail(404, 'Not found.')));
    renderApp('/engage/event-logs/whatsapp/a0000000-0000-4000-8000-00000000dead');
    expect(await screen.findByText('Log entry not found')).toBeInTheDocument();
  });

  it('downloads the filtered log as CSV with the session', { timeout: 20_000 }, async () => {
    withLogs();
    const downloads: Array<{ auth: string | null; business: string | null; query: string }> = [];
    server.use(
      http.get('/api/whatsapp/events/download/', ({ request }) => {
        downloads.push({
          auth: request.headers.get('authorization'),
          business: request.headers.get('x-business-code'),
          query: new URL(request.url).search,
        });
        return new HttpResponse('tracking_id,to,status\n1,15550100000,failed\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="whatsapp-logs-2026-03.csv"',
          },
        });
      }),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:csv');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const saved: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });

    // The old address with its filters: the WhatsApp tab, filters kept.
    const { router } = renderApp('/engage/event-logs?status=failed');
    await screen.findByRole('table', { name: 'WhatsApp messages' });
    expect(router.state.location.pathname).toBe('/engage/event-logs/whatsapp');
    expect(router.state.location.search).toBe('?status=failed');
    expect(screen.getByLabelText('Status')).toHaveValue('failed');
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));

    await waitFor(() => expect(saved).toEqual([{ href: 'blob:csv', download: 'whatsapp-logs-2026-03.csv' }]));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.auth).toMatch(/^Bearer .+\..+\..+$/);
    expect(downloads[0]!.business).toBe('ACME1234');
    expect(downloads[0]!.query).toBe('?status=failed');
    expect(await createObjectURL.mock.calls[0]![0].text()).toContain('15550100000,failed');
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:csv'));
  });

  it("toasts the server's message when the download is refused", { timeout: 20_000 }, async () => {
    withLogs();
    server.use(
      http.get('/api/whatsapp/events/download/', () => fail(400, 'Choose at most one year of logs.')),
    );
    renderApp('/engage/event-logs/whatsapp');
    await screen.findByRole('table', { name: 'WhatsApp messages' });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Choose at most one year of logs.')).toBeInTheDocument();
  });
});

const EMAIL_TRACKING = 'b0000000-0000-4000-8000-000000000001';
const SMS_TRACKING = 'c0000000-0000-4000-8000-000000000001';

/** A send on email or SMS: the same shape as WhatsApp's, an email with its subject. */
function send(channel: 'email' | 'sms', overrides: Partial<TEventLog> = {}): TEventLog {
  return log({
    tracking_id: channel === 'email' ? EMAIL_TRACKING : SMS_TRACKING,
    wamid: null,
    conversation_id: null,
    to: channel === 'email' ? 'ada@example.com' : '+15550100000',
    type: channel === 'email' ? 'email' : 'text',
    template_name: null,
    status: 'delivered',
    error_code: null,
    error_message: null,
    pricing_category: null,
    billable: null,
    ...(channel === 'email'
      ? { subject: 'Your order has shipped' }
      : { segments: 2, encoding: 'UCS-2', price: null, price_unit: null }),
    ...overrides,
  });
}

function detail(channel: 'email' | 'sms'): TEventLogDetail {
  return {
    ...send(channel),
    request: channel === 'email' ? { to: 'ada@example.com' } : { To: '+15550100000' },
    response: { id: `${channel}-provider-id` },
    events: [
      {
        status: 'delivered',
        timestamp: '2026-03-02T10:00:04.000Z',
        received_at: '2026-03-02T10:00:05.000Z',
        pricing: null,
        error: null,
      },
      {
        status: 'sent',
        timestamp: '2026-03-02T10:00:01.000Z',
        received_at: '2026-03-02T10:00:02.000Z',
        pricing: null,
        error: null,
      },
    ],
  };
}

/** Signed in, one channel answering one send (or none with a filter), every list request recorded. */
function withChannel(channel: 'email' | 'sms') {
  signIn();
  const calls: Record<string, string>[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/metrics/email-metrics/', () => ok(EMAIL_METRICS)),
    http.get(`/api/${channel}/events/`, ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      calls.push(params);
      const results = params.status === 'failed' ? [] : [send(channel)];
      return ok({ count: results.length, next: null, previous: null, results });
    }),
    http.get(`/api/${channel}/events/:trackingId/`, ({ params }) =>
      params.trackingId === send(channel).tracking_id ? ok(detail(channel)) : fail(404, 'Not found.'),
    ),
  );
  return calls;
}

describe('Event logs: a tab per channel', () => {
  it(
    'switches channel with the tabs, asks each channel its own log, and says when one has no sends',
    { timeout: 20_000 },
    async () => {
      const calls = withLogs();
      const { router } = renderApp('/engage/event-logs/whatsapp?status=failed');
      await screen.findByRole('table', { name: 'WhatsApp messages' });
      expect(await screen.findByRole('region', { name: 'This month' })).toBeInTheDocument();
      const tabs = screen.getByRole('navigation', { name: 'Event logs' });

      await userEvent.click(within(tabs).getByRole('link', { name: 'Email' }));
      expect(await screen.findByText('No emails sent yet')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/engage/event-logs/emails');
      expect(within(tabs).getByRole('link', { name: 'Email' })).toHaveAttribute('aria-current', 'page');
      // A channel's filters are its own: the tab opens unfiltered.
      expect(calls.channelCalls).toEqual([{ channel: 'email', params: { page: '1', page_size: '20' } }]);
      expect(screen.getByLabelText('Status')).toHaveValue('');
      expect(
        screen.getByText('Emails sent from Titan appear here with their delivery status.'),
      ).toBeInTheDocument();
      // Not an error, and WhatsApp's spend stays on WhatsApp's tab.
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'This month' })).not.toBeInTheDocument();
      expect(screen.queryByRole('table', { name: 'Emails' })).not.toBeInTheDocument();

      await userEvent.click(within(tabs).getByRole('link', { name: 'SMS' }));
      expect(await screen.findByText('No SMS messages sent yet')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/engage/event-logs/sms');
      expect(calls.channelCalls.at(-1)).toEqual({ channel: 'sms', params: { page: '1', page_size: '20' } });

      const whatsappCalls = calls.length;
      await userEvent.click(within(tabs).getByRole('link', { name: 'WhatsApp' }));
      expect(await screen.findByRole('table', { name: 'WhatsApp messages' })).toBeInTheDocument();
      await waitFor(() => expect(calls.length).toBeGreaterThan(whatsappCalls));
      expect(calls.at(-1)).toEqual({ page: '1', page_size: '20' });
    },
  );

  it(
    'lists emails with their subject and sends the filters to the email log',
    { timeout: 20_000 },
    async () => {
      const calls = withChannel('email');
      const { router } = renderApp('/engage/event-logs/emails');

      const table = await screen.findByRole('table', { name: 'Emails' });
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual(['Recipient', 'Subject', 'Status', 'Created']);
      const [row] = within(table).getAllByRole('row').slice(1);
      expect(within(row!).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
        'href',
        `/engage/event-logs/emails/${EMAIL_TRACKING}`,
      );
      expect(within(row!).getByText('Your order has shipped')).toBeInTheDocument();
      expect(within(row!).getByText('Delivered')).toBeInTheDocument();
      expect(calls.at(-1)).toEqual({ page: '1', page_size: '20' });

      await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed');
      await userEvent.type(screen.getByLabelText('Search logs'), 'ada');
      await waitFor(() =>
        expect(calls.at(-1)).toEqual({ status: 'failed', search: 'ada', page: '1', page_size: '20' }),
      );
      expect(router.state.location.search).toBe('?status=failed&search=ada');
      // Filtered to nothing is not "no emails yet": it offers to clear the filters.
      expect(await screen.findByText('No messages found')).toBeInTheDocument();
      expect(screen.queryByText('No emails sent yet')).not.toBeInTheDocument();
      await userEvent.click(within(screen.getByText('No messages found').parentElement!).getByRole('button'));
      expect(await screen.findByRole('table', { name: 'Emails' })).toBeInTheDocument();
      expect(router.state.location.search).toBe('');
    },
  );

  it('lists SMS with their segments and sender', async () => {
    withChannel('sms');
    renderApp('/engage/event-logs/sms');
    const table = await screen.findByRole('table', { name: 'SMS messages' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Recipient', 'Segments', 'Status', 'Sent by', 'Created']);
    expect(within(table).getByRole('cell', { name: '2 (UCS-2)' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: '+15550100000' })).toHaveAttribute(
      'href',
      `/engage/event-logs/sms/${SMS_TRACKING}`,
    );
  });

  it.each<[TEventLogChannel, string]>([
    ['email', '/engage/event-logs/emails'],
    ['sms', '/engage/event-logs/sms'],
    ['whatsapp', '/engage/event-logs/whatsapp'],
  ])(
    'downloads the %s log as CSV from its own endpoint with the filters',
    { timeout: 20_000 },
    async (channel, path) => {
      if (channel === 'whatsapp') withLogs();
      else withChannel(channel);
      const downloads: string[] = [];
      server.use(
        http.get('/api/:channel/events/download/', ({ request, params }) => {
          downloads.push(`${String(params.channel)} ${new URL(request.url).search}`);
          return new HttpResponse('tracking_id,to,status\n', { headers: { 'Content-Type': 'text/csv' } });
        }),
      );
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() });
      const saved: string[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push(this.download);
      });

      renderApp(`${path}?status=delivered&search=ada`);
      await screen.findByRole('table');
      await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));

      await waitFor(() => expect(downloads).toEqual([`${channel} ?status=delivered&search=ada`]));
      await waitFor(() => expect(saved).toEqual([expect.stringMatching(new RegExp(`^${channel}-logs-`))]));
    },
  );

  it.each<['email' | 'sms', string, string]>([
    ['email', `/engage/event-logs/emails/${EMAIL_TRACKING}`, 'Email'],
    ['sms', `/engage/event-logs/sms/${SMS_TRACKING}`, 'SMS message'],
  ])('shows one %s send with its timeline', { timeout: 20_000 }, async (channel, path, title) => {
    withChannel(channel);
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    const list = (await screen.findByText('Recipient')).closest('dl')!;
    expect(within(list).getByText(send(channel).to)).toBeInTheDocument();
    expect(within(list).getByText('Delivered')).toBeInTheDocument();
    if (channel === 'email') {
      expect(within(list).getByText('Subject')).toBeInTheDocument();
      expect(within(list).getByText('Your order has shipped')).toBeInTheDocument();
    } else {
      expect(within(list).queryByText('Subject')).not.toBeInTheDocument();
    }
    const steps = within(screen.getByRole('list', { name: 'Status timeline' })).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByText(/^(Sent|Delivered)$/).textContent)).toEqual([
      'Sent',
      'Delivered',
    ]);
    expect(screen.getByLabelText('Response')).toHaveTextContent(`"id": "${channel}-provider-id"`);

    await userEvent.click(screen.getByRole('link', { name: 'Back to event logs' }));
    expect(
      await screen.findByRole('table', { name: channel === 'email' ? 'Emails' : 'SMS messages' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(
      channel === 'email' ? '/engage/event-logs/emails' : '/engage/event-logs/sms',
    );
  });

  it('says so when an email does not exist', async () => {
    withChannel('email');
    renderApp('/engage/event-logs/emails/b0000000-0000-4000-8000-00000000dead');
    expect(await screen.findByText('Log entry not found')).toBeInTheDocument();
    expect(screen.getByText('This email does not exist or belongs to another business.')).toBeInTheDocument();
  });

  // The agents' run logs (/engage/event-logs/agents/…) are tested with the agents' screens.
  it('opens a send by its id alone (/engage/event-logs/{id}) on the page of its channel', async () => {
    // Handlers added later are asked first: the SMS log's own answers win over this catch-all.
    server.use(http.get('/api/:channel/events/:trackingId/', () => fail(404, 'Not found.')));
    withChannel('sms');
    const { router } = renderApp(`/engage/event-logs/${send('sms').tracking_id}`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/engage/event-logs/sms/${send('sms').tracking_id}`),
    );
    expect(await screen.findByRole('heading', { name: 'SMS message' })).toBeInTheDocument();
  });

  it('says so when no channel has a send with that id', async () => {
    withLogs();
    server.use(http.get('/api/:channel/events/:trackingId/', () => fail(404, 'Not found.')));
    const { router } = renderApp('/engage/event-logs/not-a-send');
    expect(await screen.findByText('Log entry not found')).toBeInTheDocument();
    expect(
      screen.getByText('No email, text or WhatsApp message of this business has this id.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage/event-logs/not-a-send');
  });
});
