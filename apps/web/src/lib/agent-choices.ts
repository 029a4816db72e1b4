// GET /api/agents/ → the business's agents as choices (id, name, status, channels in their config's
// order): a journey's agent step picks an agent and one of its channels from these. Keyed under the agents' own key, so creating, renaming or pausing an agent
// refreshes the choices.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent, type TAgentChannel } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export type TAgentChoice = {
  id: number;
  name: string;
  status: TAgent['status'];
  channels: TAgentChannel[];
};

export function agentChoicesQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'agents', 'choices'],
    queryFn: async ({ signal }): Promise<TAgentChoice[]> => {
      const { data } = await protectedClient.get('/api/agents/', { signal });
      return ZEnvelope(z.array(ZAgent))
        .parse(data)
        .result.map((a) => ({
          id: a.id,
          name: a.name,
          status: a.status,
          channels: (a.config?.channels ?? []).map((c) => c.channel),
        }));
    },
  });
}

export function useAgentChoices() {
  return useQuery(agentChoicesQueryOptions());
}
