// GET /api/chargebee/subscription/ → plan, status, usage against quotas and the top-ups on offer
// (engage.md §8).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZBillingState, ZEnvelope, type TBillingState } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const BILLING_PATH = '/api/chargebee/subscription/';

export async function getBilling(signal?: AbortSignal): Promise<TBillingState> {
  const { data } = await protectedClient.get(BILLING_PATH, { signal });
  return ZEnvelope(ZBillingState).parse(data).result;
}

export function billingQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'billing'],
    queryFn: ({ signal }) => getBilling(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useBilling() {
  return useQuery(billingQueryOptions());
}
