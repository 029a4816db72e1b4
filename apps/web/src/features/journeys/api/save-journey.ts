// POST /api/journeys/ (a new draft) or PUT /api/journeys/{id}/ (a draft changed in place; a
// published journey gets a new version): one save, whichever the editor holds.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZJourney, type TJourney, type TJourneyRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { journeyQueryOptions } from './get-journey';
import { journeyApiPath, JOURNEYS_API_PATH, JOURNEYS_LIST_KEY } from './get-journeys';

export function useSaveJourney(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TJourneyRequest): Promise<TJourney> => {
      const { data } = id
        ? await protectedClient.put(journeyApiPath(id), body)
        : await protectedClient.post(JOURNEYS_API_PATH, body);
      return ZEnvelope(ZJourney).parse(data).result;
    },
    onSuccess: (journey) => {
      queryClient.setQueryData(journeyQueryOptions(journey.id).queryKey, journey);
      void queryClient.invalidateQueries({ queryKey: JOURNEYS_LIST_KEY });
    },
  });
}
