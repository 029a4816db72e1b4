// GET /api/agents/get-suggested-agents/ → ready-made agents the business may start from.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZSuggestedAgent, type TSuggestedAgent } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { AGENTS_API_PATH, AGENTS_KEY } from './get-agents';

export async function getSuggestedAgents(signal?: AbortSignal): Promise<TSuggestedAgent[]> {
  const { data } = await protectedClient.get(`${AGENTS_API_PATH}get-suggested-agents/`, { signal });
  return ZEnvelope(z.array(ZSuggestedAgent)).parse(data).result;
}

export function suggestedAgentsQueryOptions() {
  return queryOptions({
    queryKey: [...AGENTS_KEY, 'suggested'],
    queryFn: ({ signal }) => getSuggestedAgents(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useSuggestedAgents(enabled: boolean) {
  return useQuery({ ...suggestedAgentsQueryOptions(), enabled });
}
