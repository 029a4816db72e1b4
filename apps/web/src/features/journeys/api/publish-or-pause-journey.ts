// POST /api/journeys/{id}/publish/ or …/pause/: the two status actions, one hook taking which.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZJourney, type TJourney } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { journeyQueryOptions } from './get-journey';
import { journeyApiPath, JOURNEYS_KEY } from './get-journeys';

export function useJourneyAction(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: 'publish' | 'pause'): Promise<TJourney> => {
      const { data } = await protectedClient.post(`${journeyApiPath(id!)}${action}/`);
      return ZEnvelope(ZJourney).parse(data).result;
    },
    onSuccess: (journey) => {
      queryClient.setQueryData(journeyQueryOptions(journey.id).queryKey, journey);
      void queryClient.invalidateQueries({ queryKey: JOURNEYS_KEY });
    },
  });
}
