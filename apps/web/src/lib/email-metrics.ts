// GET /api/metrics/email-metrics/?created_at__gte&created_at__lte → totals, rates and a daily series
// of the business's email, for the charts on the email logs and the dashboard.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailMetrics, ZEnvelope, type TEmailMetrics } from '@titan/contracts';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const EMAIL_METRICS_PATH = '/api/metrics/email-metrics/';

export type TEmailMetricsRange = { created_at__gte?: string; created_at__lte?: string };

export async function getEmailMetrics(
  range: TEmailMetricsRange,
  signal?: AbortSignal,
): Promise<TEmailMetrics> {
  const { data } = await protectedClient.get(EMAIL_METRICS_PATH, { params: range, signal });
  return ZEnvelope(ZEmailMetrics).parse(data).result;
}

export function emailMetricsQueryOptions(range: TEmailMetricsRange) {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'email-metrics', range],
    queryFn: ({ signal }) => getEmailMetrics(range, signal),
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useEmailMetrics(range: TEmailMetricsRange) {
  return useQuery(emailMetricsQueryOptions(range));
}
