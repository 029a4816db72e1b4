// An AI first responder's run as the inbox reads it (GET /api/ai/runs/{id}/) and staff's rating of
// its answer (PUT /api/ai/runs/{id}/rating/ {rating: good|bad|null, reason?}).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZAiRun, ZEnvelope, type TAiRateRequest, type TAiRun } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const aiRunKey = (id: string) => ['ai-run', id] as const;

export const useAiRun = (id: string) =>
  useQuery({
    queryKey: aiRunKey(id),
    queryFn: async (): Promise<TAiRun> => {
      const { data } = await protectedClient.get(`/api/ai/runs/${encodeURIComponent(id)}/`);
      return ZEnvelope(ZAiRun).parse(data).result;
    },
    staleTime: 60_000,
  });

export function useRateAiRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: TAiRateRequest): Promise<TAiRun> => {
      const { data } = await protectedClient.put(`/api/ai/runs/${encodeURIComponent(id)}/rating/`, body);
      return ZEnvelope(ZAiRun).parse(data).result;
    },
    onSuccess: (run) => client.setQueryData(aiRunKey(id), run),
  });
}
