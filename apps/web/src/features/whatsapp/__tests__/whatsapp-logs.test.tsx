import type { TWhatsappLog, TWhatsappLogDetail } from '@titan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const TRACKING = '6f1c3c1e-8a52-4c4e-9d51-2f3a4b5c6d7e';

function log(overrides: Partial<TWhatsappLog> = {}): TWhatsappLog {
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

const DETAIL: TWhatsappLogDetail = {
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

/** Signed in, the logs answering 45 messages over three pages of 20. */
function withLogs() {
  signIn();
  const calls: Record<string, string>[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/whatsapp/client/balance/', () => ok(BALANCE)),
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
  );
  return calls;
}

describe('WhatsApp logs', () => {
  it('lists messages with this month’s spend, filters them and pages', { timeout: 20_000 }, async () => {
    const calls = withLogs();
    const { router } = renderApp('/engage/event-logs');

    expect(await screen.findByRole('heading', { level: 1, name: 'Event logs' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Event logs' });
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
        created_at__gte: new Date(2026, 2, 1).toISOString(),
        created_at__lte: new Date(2026, 2, 31, 23, 59, 59, 999).toISOString(),
        page: '1',
        page_size: '20',
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.getByLabelText('Search logs')).toHaveValue(''));
    expect(screen.getByLabelText('Status')).toHaveValue('');
  });

  it(
    'opens a message: details, error, status timeline and the request and response',
    { timeout: 20_000 },
    async () => {
      withLogs();
      const { router } = renderApp('/engage/event-logs');
      const table = await screen.findByRole('table', { name: 'WhatsApp messages' });
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

    renderApp('/engage/event-logs?status=failed');
    await screen.findByRole('table', { name: 'WhatsApp messages' });
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
    renderApp('/engage/event-logs');
    await screen.findByRole('table', { name: 'WhatsApp messages' });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Choose at most one year of logs.')).toBeInTheDocument();
  });
});
