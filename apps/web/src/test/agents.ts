// An agent and its config as the API answers them: the agents feature's tests and other features'
// (a journey's agent step picks one) share them.
import type { TAgent, TAgentConfig } from '@titan/contracts';

export const CONFIG: TAgentConfig = {
  version: 3,
  created_at: '2026-11-20T10:00:00Z',
  instructions: 'Write to customers who have not visited for two months.',
  goal: 'Bring lapsed customers back',
  audience: { list_ids: [11] },
  channels: [{ channel: 'email', template_id: 7 }],
  tools: [{ source: 'builtin', name: 'lookup_customer', approval: 'auto' }],
  limits: { max_sends_per_run: 100, per_recipient_per_week: 1, max_steps: 10, max_tokens: 4000 },
  send_mode: 'review',
  consent_mode: 'subscribed',
  quiet_hours: null,
};

export const WIN_BACK: TAgent = {
  id: 5,
  name: 'Win-back',
  description: 'Brings back lapsed customers',
  avatar_url: null,
  status: 'active',
  status_reason: null,
  config: CONFIG,
  schedule: {
    kind: 'cron',
    cron: '0 9 * * 1',
    every_minutes: null,
    run_at: null,
    timezone: 'Europe/Berlin',
    start_at: null,
    end_at: null,
    missed: 'skip',
    next_run_at: '2026-11-30T08:00:00.000Z',
    last_fired_at: null,
  },
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  last_run: {
    id: 'run-1',
    channel: 'email',
    status: 'awaiting_approval',
    started_at: '2026-11-23T08:00:00Z',
    finished_at: '2026-11-23T08:01:00Z',
    error: null,
  },
};
