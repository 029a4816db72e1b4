// GET /api/agents/tools/ → the tools an agent may be given.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAgentToolInfo, ZEnvelope, type TAgentToolInfo } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { AGENTS_API_PATH, AGENTS_KEY } from './get-agents';

export async function getAgentTools(signal?: AbortSignal): Promise<TAgentToolInfo[]> {
  const { data } = await protectedClient.get(`${AGENTS_API_PATH}tools/`, { signal });
  return ZEnvelope(z.array(ZAgentToolInfo)).parse(data).result;
}

export function agentToolsQueryOptions() {
  return queryOptions({
    queryKey: [...AGENTS_KEY, 'tools'],
    queryFn: ({ signal }) => getAgentTools(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useAgentTools() {
  return useQuery(agentToolsQueryOptions());
}
