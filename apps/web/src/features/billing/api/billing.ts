// Billing's calls (engage.md §8): GET /api/chargebee/subscription/ (plan, status, usage against
// quotas, top-ups); POST portal-session/ and pricing-page-session/ (Chargebee's hosted pages, opened
// in this tab); POST charge/ (a top-up).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZBillingState,
  ZChargeResult,
  ZEnvelope,
  ZPortalSession,
  ZPricingPageSession,
  type TBillingState,
  type TChargeResult,
} from '@titan/contracts';

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

export function useOpenPortal() {
  return useMutation({
    mutationFn: async () => {
      const { data } = await protectedClient.post('/api/chargebee/portal-session/');
      return ZEnvelope(ZPortalSession).parse(data).result.access_url;
    },
    onSuccess: (url) => window.location.assign(url),
  });
}

export function useOpenPricingPage() {
  return useMutation({
    mutationFn: async () => {
      const { data } = await protectedClient.post('/api/chargebee/pricing-page-session/');
      return ZEnvelope(ZPricingPageSession).parse(data).result.url;
    },
    onSuccess: (url) => window.location.assign(url),
  });
}

export function useChargeTopUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (topUp: string): Promise<TChargeResult> => {
      const { data } = await protectedClient.post('/api/chargebee/charge/', { top_up: topUp });
      return ZEnvelope(ZChargeResult).parse(data).result;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingQueryOptions().queryKey }),
  });
}
