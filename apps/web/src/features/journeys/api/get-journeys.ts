// GET /api/journeys/: the business's journeys. The paths and cache key every journeys call shares.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZJourney } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const JOURNEYS_API_PATH = '/api/journeys/';
export const journeyApiPath = (id: number) => `${JOURNEYS_API_PATH}${id}/`;
export const JOURNEYS_KEY = [BUSINESS_SCOPE, 'journeys'] as const;
export const JOURNEYS_LIST_KEY = [...JOURNEYS_KEY, 'list'] as const;

export function journeysQueryOptions() {
  return queryOptions({
    queryKey: JOURNEYS_LIST_KEY,
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(JOURNEYS_API_PATH, { signal });
      return ZEnvelope(z.array(ZJourney)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}
export const useJourneys = () => useQuery(journeysQueryOptions());
