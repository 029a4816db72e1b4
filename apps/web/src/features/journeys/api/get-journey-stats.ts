// GET /api/journeys/{id}/stats/: a journey's counts per step, read again while its canvas is open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZJourneyStats } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { journeyApiPath, JOURNEYS_KEY } from './get-journeys';

/** How often a live journey's counts are read again while its canvas is open. */
export const STATS_REFRESH_MS = 5_000;

export const journeyStatsKey = (id: number | null) => [...JOURNEYS_KEY, 'stats', id] as const;

export function journeyStatsQueryOptions(id: number | null, enabled: boolean) {
  return queryOptions({
    queryKey: journeyStatsKey(id),
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${journeyApiPath(id!)}stats/`, { signal });
      return ZEnvelope(ZJourneyStats).parse(data).result;
    },
    enabled: id !== null && enabled,
    refetchInterval: STATS_REFRESH_MS,
    // A failed read says so under the journey's name (and is tried again at the next interval).
    meta: { errorShownOnScreen: true },
  });
}
export const useJourneyStats = (id: number | null, enabled: boolean) =>
  useQuery(journeyStatsQueryOptions(id, enabled));
