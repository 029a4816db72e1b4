// The dashboard (/engage): figures, charts and tables from the metrics endpoints over the chosen
// range, the empty state that says how to start, and agent runs.
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { ACME, business, ok, profile, signIn } from '../../../test/api';
import { emailMetrics, engageMetrics } from '../../../test/metrics';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const OUT = { total: 0, pending: 0, sent: 0, delivered: 0, failed: 0, not_sent: 0 };

function busy() {
  const ranges: { gte: string | null; lte: string | null }[] = [];
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
    http.get('/api/metrics/engage/', ({ request }) => {
      const url = new URL(request.url);
      ranges.push({
        gte: url.searchParams.get('created_at__gte'),
        lte: url.searchParams.get('created_at__lte'),
      });
      return ok(
        engageMetrics({
          conversations: { opened: 12, unanswered: 3, answered: 9, median_first_response_seconds: 5400 },
          sends: {
            channels: [
              { channel: 'email', ...OUT, total: 40, delivered: 35, failed: 5 },
              { channel: 'sms', ...OUT, total: 8, sent: 8 },
              { channel: 'whatsapp', ...OUT },
              { channel: 'titan_message', ...OUT, total: 9, delivered: 9 },
            ],
          },
          agents: {
            deliveries: { ...OUT, total: 20, delivered: 18, failed: 2 },
            runs: { total: 6, completed: 4, failed: 1, awaiting_approval: 1 },
          },
          team: {
            members: [
              {
                user_id: 7,
                name: 'Ada Lovelace',
                conversations: 5,
                first_response_seconds: 300,
                resolution_seconds: 7200,
                csat_average: 4.5,
                csat_responses: 2,
              },
              {
                user_id: 8,
                name: 'Bob Baker',
                conversations: 2,
                first_response_seconds: null,
                resolution_seconds: null,
                csat_average: null,
                csat_responses: 0,
              },
            ],
            groups: [
              {
                chat_group_id: 3,
                name: 'Support',
                conversations: 7,
                first_response_seconds: 420,
                resolution_seconds: 5400,
                csat_average: 4.5,
                csat_responses: 2,
              },
            ],
          },
          series: [
            {
              date: '2026-11-23',
              conversations_opened: 5,
              conversations_unanswered: 1,
              email: 20,
              sms: 4,
              whatsapp: 0,
              titan_message: 4,
            },
            {
              date: '2026-11-24',
              conversations_opened: 7,
              conversations_unanswered: 2,
              email: 20,
              sms: 4,
              whatsapp: 0,
              titan_message: 5,
            },
          ],
        }),
      );
    }),
    http.get('/api/metrics/email-metrics/', () =>
      ok(
        emailMetrics({
          totals: {
            ...emailMetrics().totals,
            sent: 40,
            delivered: 35,
            opened: 20,
            opened_human: 14,
            clicked: 7,
            clicked_human: 7,
          },
          rates: { ...emailMetrics().rates, open: 0.5714, open_human: 0.4, click: 0.2, click_human: 0.2 },
        }),
      ),
    ),
  );
  return ranges;
}

describe('the dashboard', () => {
  it('shows conversations, sends per channel and outcome, email rates and agents, over the chosen range', async () => {
    const ranges = busy();
    const user = userEvent.setup();
    renderApp('/engage');
    expect(await screen.findByTestId('conversations-opened')).toHaveTextContent('12');
    expect(screen.getByTestId('conversations-unanswered')).toHaveTextContent('3');
    expect(screen.getByTestId('conversations-median')).toHaveTextContent('1 h 30 min');
    expect(screen.getByRole('img', { name: 'Conversations per day' })).toBeInTheDocument();
    const sends = screen.getByRole('table', { name: 'Messages sent' });
    const email = within(sends).getByRole('row', { name: /Email/ });
    expect(
      within(email)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['40', '35', '0', '0', '5', '0']);
    expect(screen.getByRole('img', { name: 'Messages per day and channel' })).toBeInTheDocument();
    expect(await screen.findByText('40%')).toBeInTheDocument(); // open rate by people
    const agents = screen.getByRole('table', { name: 'Messages agents sent' });
    expect(within(agents).getAllByRole('cell')[0]).toHaveTextContent('20');
    const runs = screen.getByRole('region', { name: 'Agent runs' });
    expect(within(runs).getByText('Runs').nextSibling).toHaveTextContent('6');
    expect(within(runs).getByText('Awaiting approval').nextSibling).toHaveTextContent('1');
    const cells = (table: string, row: RegExp) =>
      within(within(screen.getByRole('table', { name: table })).getByRole('row', { name: row }))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('Per member', /Ada Lovelace/)).toEqual(['5', '5 min', '2 h', '4.5 / 5 (2)']);
    expect(cells('Per member', /Bob Baker/)).toEqual(['2', '—', '—', '—']);
    expect(cells('Per chat group', /Support/)).toEqual(['7', '7 min', '1 h 30 min', '4.5 / 5 (2)']);

    const days = (r: { gte: string | null; lte: string | null }) =>
      Math.round((Date.parse(r.lte!) - Date.parse(r.gte!)) / 86_400_000);
    expect(days(ranges.at(-1)!)).toBe(30);
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await screen.findByTestId('conversations-opened');
    expect(days(ranges.at(-1)!)).toBe(7);

    // A range of its own: whole days of the business's zone (UTC here), both ends included; a backwards one is explained, not asked.
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.change(from, { target: { value: '2026-11-01' } });
    fireEvent.change(to, { target: { value: '2026-11-10' } });
    await vi.waitFor(() =>
      expect(ranges.at(-1)).toEqual({ gte: '2026-11-01T00:00:00.000Z', lte: '2026-11-10T23:59:59.999Z' }),
    );
    const asked = ranges.length;
    fireEvent.change(from, { target: { value: '2026-11-20' } });
    expect(
      await screen.findByText('Choose a start on or before the end, at most 366 days apart.'),
    ).toBeInTheDocument();
    expect(ranges.length).toBe(asked);
  });

  it('counts the days of the business’s time zone, not UTC’s', async () => {
    const ranges = busy();
    server.use(http.get('/api/business/', () => ok(business({ time_zone: 'America/Los_Angeles' }))));
    const user = userEvent.setup();
    renderApp('/engage');
    await screen.findByTestId('conversations-opened');
    // Whatever today is, the window starts at midnight in Los Angeles (08:00 or 07:00 UTC).
    expect(ranges.at(-1)!.gte).toMatch(/T0[78]:00:00\.000Z$/);
    expect(ranges.at(-1)!.lte).toMatch(/T0[67]:59:59\.999Z$/);
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-10' } });
    await vi.waitFor(() =>
      expect(ranges.at(-1)).toEqual({ gte: '2026-11-01T07:00:00.000Z', lte: '2026-11-11T07:59:59.999Z' }),
    );
  });

  it('says how to start when nothing has happened yet', async () => {
    signIn();
    server.use(
      http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
    );
    renderApp('/engage');
    expect(await screen.findByText('Nothing has happened in these days yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add the chat widget' })).toHaveAttribute(
      'href',
      '/messages/settings/embed',
    );
    expect(screen.getByRole('link', { name: 'Connect WhatsApp' })).toHaveAttribute(
      'href',
      '/engage/settings/whatsapp',
    );
    expect(screen.getByRole('link', { name: 'Create an agent' })).toHaveAttribute(
      'href',
      '/engage/agent/create',
    );
  });
});
