// The network boundary for unit tests: msw answers the API over the real fetch that axios uses.
// Requests nobody handles fail the test. The defaults mirror a server with nothing configured (the
// roles table is fixed on the server, so every screen that asks gets it).
import { FREQUENCY_CAP_DEFAULT } from '@titan/contracts';
import { http } from 'msw';
import { setupServer } from 'msw/node';

import { business, ok, ROLES_INFO } from './api';
import { emailMetrics, engageMetrics } from './metrics';

export const server = setupServer(
  http.get('/api/business/roles/', () => ok(ROLES_INFO)),
  http.get('/api/auth/oauth/providers/', () => ok([])),
  http.post('/api/analytics/events/', () => ok(null, 201)),
  // The signed-in member's presence, sent when the app opens (lib/session/presence.ts).
  http.put('/api/users/presence/', async ({ request }) => {
    const { status } = (await request.json()) as { status: string };
    return ok({ user_id: 1, status, updated_at: '2026-04-01T00:00:00.000Z' });
  }),
  // The dashboard of a business that has sent and received nothing.
  http.get('/api/metrics/engage/', () => ok(engageMetrics())),
  http.get('/api/metrics/email-metrics/', () => ok(emailMetrics())),
  http.get('/api/business/', () => ok(business())),
  // The marketing frequency cap a business has before it chooses: off.
  http.get('/api/business/frequency-cap/', () => ok(FREQUENCY_CAP_DEFAULT)),
  // A business with no sending domain yet.
  http.get('/api/email/domains/', () => ok([])),
  // Nothing has happened to the signed-in member yet (the header's bell).
  http.get('/api/notifications/', () =>
    ok({ count: 0, next: null, previous: null, results: [], unread_count: 0 }),
  ),
  // A business with no labels and no canned responses yet.
  http.get('/api/msg/labels/', () => ok([])),
  http.get('/api/msg/canned-responses/', () => ok([])),
  // No MCP server or plugin connected (the AI first responder's tools).
  http.get('/api/config/mcp-servers/', () => ok([])),
  http.get('/api/user-plugins/', () => ok([])),
);
