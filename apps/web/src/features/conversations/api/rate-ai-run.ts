// PUT /api/ai/runs/{id}/rating/ {rating: good|bad|null, reason?}: staff's rating of an AI answer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAiRun, ZEnvelope, type TAiRateRequest, type TAiRun } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { aiRunApiPath, aiRunKey } from './get-ai-run';

export function useRateAiRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: TAiRateRequest): Promise<TAiRun> => {
      const { data } = await protectedClient.put(`${aiRunApiPath(id)}rating/`, body);
      return ZEnvelope(ZAiRun).parse(data).result;
    },
    onSuccess: (run) => client.setQueryData(aiRunKey(id), run),
  });
}
