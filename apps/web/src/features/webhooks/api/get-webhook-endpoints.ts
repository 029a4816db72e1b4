// GET /api/webhooks/endpoints/: the business's endpoints. The path and cache key every webhooks
// call shares, and the one invalidation a change to endpoints or deliveries makes.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookEndpoint } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const WEBHOOKS_PATH = '/api/webhooks/endpoints/';
export const WEBHOOKS_KEY = [BUSINESS_SCOPE, 'webhooks'] as const;

export function webhookEndpointsQueryOptions() {
  return queryOptions({
    queryKey: [...WEBHOOKS_KEY, 'endpoints'],
    queryFn: async ({ signal }) =>
      ZEnvelope(z.array(ZWebhookEndpoint)).parse((await protectedClient.get(WEBHOOKS_PATH, { signal })).data)
        .result,
    meta: { errorShownOnScreen: true },
  });
}
export const useWebhookEndpoints = () => useQuery(webhookEndpointsQueryOptions());

/** After any change: endpoints and every delivery log fetched again. */
export function useInvalidateWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
}
