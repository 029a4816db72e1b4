// POST /api/journeys/{id}/test/: test mode, a chosen customer through the newest version with a fast
// clock; that customer's path is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZJourneyCustomerRun, type TJourneyTestRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { customerPathKey } from './get-customer-path';
import { journeyApiPath } from './get-journeys';

export function useTestJourney(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TJourneyTestRequest) => {
      const { data } = await protectedClient.post(`${journeyApiPath(id)}test/`, body);
      return ZEnvelope(ZJourneyCustomerRun).parse(data).result;
    },
    onSuccess: (_run, body) =>
      void queryClient.invalidateQueries({ queryKey: customerPathKey(id, body.customer_id) }),
  });
}
