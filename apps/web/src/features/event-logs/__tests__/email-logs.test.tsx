// The Email tab's charts (totals, rates for people and for all, a line per measure per day, over
// the filtered days), its email statuses, and one email's page: the timeline with person and machine
// marks and a bounce's reason, and the message rendered in a sandboxed frame beside its text part.
import type { TEventLog } from '@titan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { EMAIL_DETAIL, EMAIL_ID, EMAIL_METRICS } from './email-fixtures';

const ROW: TEventLog = { ...EMAIL_DETAIL, status: 'clicked', error_code: null, error_message: null };

function withEmail(metrics: () => ReturnType<typeof ok> = () => ok(EMAIL_METRICS)) {
  signIn();
  const metricCalls: Record<string, string>[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/metrics/email-metrics/', ({ request }) => {
      metricCalls.push(Object.fromEntries(new URL(request.url).searchParams));
      return metrics();
    }),
    http.get('/api/email/events/', () => ok({ count: 1, next: null, previous: null, results: [ROW] })),
    http.get('/api/email/events/:trackingId/', ({ params }) =>
      params.trackingId === EMAIL_ID ? ok(EMAIL_DETAIL) : fail(404, 'Not found.'),
    ),
  );
  return metricCalls;
}

describe('Email tab', () => {
  it('charts totals, rates and the daily series over the filtered days', { timeout: 20_000 }, async () => {
    const calls = withEmail();
    renderApp('/engage/event-logs/emails');

    const charts = await screen.findByRole('region', { name: 'Email performance' });
    const total = (key: string) => charts.querySelector(`[data-total="${key}"]`)!;
    expect(await within(charts).findByText('1,200')).toBeInTheDocument();
    expect(total('sent')).toHaveTextContent('Sent1,200');
    expect(total('opened')).toHaveTextContent('Opened600420 by people');
    expect(total('clicked')).toHaveTextContent('Clicked13090 by people');
    expect(total('bounced')).toHaveTextContent('Bounced50');
    expect(total('unsubscribed')).toHaveTextContent('Unsubscribed7');

    const rate = (key: string) => charts.querySelector(`[data-rate="${key}"]`)!;
    expect(rate('open')).toHaveTextContent('Open rate37%All 52%');
    expect(rate('click')).toHaveTextContent('Click rate7.8%All 11%');
    expect(rate('delivery')).toHaveTextContent('Delivery rate96%');
    expect(rate('bounce')).toHaveTextContent('Bounce rate4.2%');

    const chart = within(charts).getByRole('img', {
      name: 'Emails per day: sent, delivered, opened, clicked and bounced',
    });
    expect(chart.querySelectorAll('polyline')).toHaveLength(5);
    const table = within(charts).getByRole('table', { name: /Emails per day/ });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['03-014003902004010', '03-0200000', '03-038007604009040']);
    expect(calls.at(-1)).toEqual({});

    // The emails' statuses, the table below the charts, and the day range sent to the metrics too.
    const status = screen.getByLabelText('Status');
    expect([...status.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All statuses',
      'Queued',
      'Sending',
      'Sent',
      'Delivered',
      'Opened',
      'Clicked',
      'Failed',
      'Error',
      'Bounced',
      'Marked as spam',
      'Suppressed',
      'Cancelled',
    ]);
    expect(
      within(await screen.findByRole('table', { name: 'Emails' })).getByText('Clicked'),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    await waitFor(() =>
      expect(calls.at(-1)).toEqual({ created_at__gte: new Date(2026, 2, 1).toISOString() }),
    );
  });

  it('says so when the metrics cannot be loaded, and still lists the emails', async () => {
    withEmail(() => fail(500, 'Server error.'));
    renderApp('/engage/event-logs/emails');
    expect(await screen.findByText('The email metrics could not be loaded.')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Emails' })).toBeInTheDocument();
  });
});

describe('One email', () => {
  it(
    'shows the timeline with person and machine marks and the bounce reason',
    { timeout: 20_000 },
    async () => {
      withEmail();
      renderApp(`/engage/event-logs/emails/${EMAIL_ID}`);
      const timeline = await screen.findByRole('list', { name: 'Status timeline' });
      const steps = within(timeline).getAllByRole('listitem');
      expect(
        steps.map((s) => within(s).getAllByText(/^(Queued|Sent|Opened|Clicked|Bounced)$/)[0]!.textContent),
      ).toEqual(['Queued', 'Sent', 'Opened', 'Clicked', 'Bounced']);
      expect(within(steps[2]!).getByText('Machine (google image proxy)')).toBeInTheDocument();
      expect(within(steps[3]!).getByText('Person')).toBeInTheDocument();
      expect(within(steps[3]!).getByText('https://shop.example/sale')).toBeInTheDocument();
      expect(within(steps[4]!).getByText(/Recipient address rejected/)).toBeInTheDocument();
      expect(within(steps[0]!).queryByText('Person')).not.toBeInTheDocument();
    },
  );

  it('renders the message in a sandboxed frame without scripts or the open pixel, and its text part', async () => {
    withEmail();
    renderApp(`/engage/event-logs/emails/${EMAIL_ID}`);
    const frame = await screen.findByTitle('Rendered email');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    const doc = frame.getAttribute('srcdoc')!;
    expect(doc).toContain('<h1>Autumn sale</h1>');
    // Staff looking at an email must not count as an open.
    expect(doc).not.toContain('/t/o/');
    const text = screen.getByRole('region', { name: 'Text' });
    expect(text).toHaveTextContent('Everything 30% off: https://shop.example/sale');
    const message = screen.getByText('Message').closest('[data-slot="card"]') ?? document.body;
    expect(within(message as HTMLElement).getByText('Shop <news@shop.example>')).toBeInTheDocument();
    // The request is the message itself: not shown again as JSON; the mail server's answer is.
    expect(screen.queryByLabelText('Request')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Response')).toHaveTextContent('250 2.0.0 Ok');
  });
});
