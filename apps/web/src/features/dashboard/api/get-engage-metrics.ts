// GET /api/metrics/engage/?created_at__gte&created_at__lte → the dashboard's conversations, sends
// per channel and outcome, agents' deliveries and a daily series.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEngageMetrics, ZEnvelope, type TEngageMetrics } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const ENGAGE_METRICS_PATH = '/api/metrics/engage/';

export type TRange = { created_at__gte: string; created_at__lte: string };

export async function getEngageMetrics(range: TRange, signal?: AbortSignal): Promise<TEngageMetrics> {
  const { data } = await protectedClient.get(ENGAGE_METRICS_PATH, { params: range, signal });
  return ZEnvelope(ZEngageMetrics).parse(data).result;
}

export function useEngageMetrics(range: TRange) {
  return useQuery(
    queryOptions({
      queryKey: [BUSINESS_SCOPE, 'engage-metrics', range],
      queryFn: ({ signal }) => getEngageMetrics(range, signal),
      placeholderData: keepPreviousData,
      meta: { errorShownOnScreen: true },
    }),
  );
}
