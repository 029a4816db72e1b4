// POST /api/journeys/{id}/move-in-flight/: customers in flight on older versions go on in the live
// version at the chosen step; the journey's counts are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZJourneyMoveResult, type TJourneyMoveRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { journeyStatsKey } from './get-journey-stats';
import { journeyApiPath } from './get-journeys';

export function useMoveInFlight(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TJourneyMoveRequest) => {
      const { data } = await protectedClient.post(`${journeyApiPath(id)}move-in-flight/`, body);
      return ZEnvelope(ZJourneyMoveResult).parse(data).result;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: journeyStatsKey(id) }),
  });
}
