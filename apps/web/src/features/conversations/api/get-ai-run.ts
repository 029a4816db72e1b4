// GET /api/ai/runs/{id}/: an AI first responder's run as the inbox reads it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAiRun, ZEnvelope, type TAiRun } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const aiRunApiPath = (id: string) => `/api/ai/runs/${encodeURIComponent(id)}/`;
export const aiRunKey = (id: string) => ['ai-run', id] as const;

export function aiRunQueryOptions(id: string) {
  return queryOptions({
    queryKey: aiRunKey(id),
    queryFn: async (): Promise<TAiRun> => {
      const { data } = await protectedClient.get(aiRunApiPath(id));
      return ZEnvelope(ZAiRun).parse(data).result;
    },
    staleTime: 60_000,
  });
}

export const useAiRun = (id: string) => useQuery(aiRunQueryOptions(id));
