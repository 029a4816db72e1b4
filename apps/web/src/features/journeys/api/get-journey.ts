// GET /api/journeys/{id}/: one journey, its newest version's graph.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZJourney } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { journeyApiPath, JOURNEYS_KEY } from './get-journeys';

export function journeyQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...JOURNEYS_KEY, 'one', id],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(journeyApiPath(id), { signal });
      return ZEnvelope(ZJourney).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}
export const useJourney = (id: number) => useQuery(journeyQueryOptions(id));
