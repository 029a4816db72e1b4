// Empty metrics answers: what a business with nothing sent or received sees (the msw defaults).
import type { TEmailMetrics, TEngageMetrics } from '@titan/contracts';

const OUTCOMES = { total: 0, pending: 0, sent: 0, delivered: 0, failed: 0, not_sent: 0 };

export function engageMetrics(overrides: Partial<TEngageMetrics> = {}): TEngageMetrics {
  return {
    created_at__gte: '2026-10-25T00:00:00.000Z',
    created_at__lte: '2026-11-24T23:59:59.999Z',
    conversations: { opened: 0, unanswered: 0, answered: 0, median_first_response_seconds: null },
    sends: {
      channels: (['email', 'sms', 'whatsapp', 'titan_message'] as const).map((channel) => ({
        channel,
        ...OUTCOMES,
      })),
    },
    agents: {
      deliveries: { ...OUTCOMES },
      runs: { total: 0, completed: 0, failed: 0, awaiting_approval: 0 },
    },
    team: { members: [], groups: [] },
    series: [],
    ...overrides,
  };
}

export function emailMetrics(overrides: Partial<TEmailMetrics> = {}): TEmailMetrics {
  return {
    created_at__gte: '2026-10-25T00:00:00.000Z',
    created_at__lte: '2026-11-24T23:59:59.999Z',
    totals: {
      sent: 0,
      delivered: 0,
      opened: 0,
      opened_human: 0,
      clicked: 0,
      clicked_human: 0,
      bounced: 0,
      complained: 0,
      unsubscribed: 0,
    },
    rates: {
      delivery: null,
      open: null,
      open_human: null,
      click: null,
      click_human: null,
      click_to_open: null,
      click_to_open_human: null,
      bounce: null,
      complaint: null,
      unsubscribe: null,
    },
    series: [],
    ...overrides,
  };
}
