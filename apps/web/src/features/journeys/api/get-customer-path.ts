// GET /api/journeys/{id}/customers/{customerId}/: a customer's path through a journey.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZJourneyCustomerPath } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { STATS_REFRESH_MS } from './get-journey-stats';
import { journeyApiPath, JOURNEYS_KEY } from './get-journeys';

export const customerPathKey = (journeyId: number, customerId: number | null) =>
  [...JOURNEYS_KEY, 'path', journeyId, customerId] as const;

export function customerPathQueryOptions(journeyId: number, customerId: number | null) {
  return queryOptions({
    queryKey: customerPathKey(journeyId, customerId),
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${journeyApiPath(journeyId)}customers/${customerId}/`, {
        signal,
      });
      return ZEnvelope(ZJourneyCustomerPath).parse(data).result;
    },
    enabled: customerId !== null,
    refetchInterval: STATS_REFRESH_MS,
    // The path section shows its own failure, with a retry.
    meta: { errorShownOnScreen: true },
  });
}
export const useCustomerPath = (journeyId: number, customerId: number | null) =>
  useQuery(customerPathQueryOptions(journeyId, customerId));
