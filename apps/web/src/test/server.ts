// The network boundary for unit tests: msw answers the API over the real fetch that axios uses.
// Requests nobody handles fail the test. The defaults mirror a server with nothing configured (the
// roles table is fixed on the server, so every screen that asks gets it).
import { http } from 'msw';
import { setupServer } from 'msw/node';

import { ok, ROLES_INFO } from './api';
import { emailMetrics, engageMetrics } from './metrics';

export const server = setupServer(
  http.get('/api/business/roles/', () => ok(ROLES_INFO)),
  http.get('/api/auth/oauth/providers/', () => ok([])),
  http.post('/api/analytics/events/', () => ok(null, 201)),
  // The dashboard of a business that has sent and received nothing.
  http.get('/api/metrics/engage/', () => ok(engageMetrics())),
  http.get('/api/metrics/email-metrics/', () => ok(emailMetrics())),
);
