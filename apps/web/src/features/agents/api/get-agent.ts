// GET /api/agents/{id}/ → one agent, its current config version and schedule.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { agentApiPath, AGENTS_KEY, agentsQueryOptions } from './get-agents';

export function agentQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...AGENTS_KEY, 'one', id],
    queryFn: async ({ signal }): Promise<TAgent> => {
      const { data } = await protectedClient.get(agentApiPath(id), { signal });
      return ZEnvelope(ZAgent).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useAgent(id: number) {
  return useQuery(agentQueryOptions(id));
}

/** The agent as answered is the truth: cache it and refresh the list. */
export function rememberAgent(queryClient: QueryClient, agent: TAgent) {
  queryClient.setQueryData(agentQueryOptions(agent.id).queryKey, agent);
  void queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey });
}
