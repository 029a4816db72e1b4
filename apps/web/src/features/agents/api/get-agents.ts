// GET /api/agents/ → the business's agents. Every agents query of the business starts with AGENTS_KEY
// (runs included); every change refreshes the list and the agent (rememberAgent).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const AGENTS_API_PATH = '/api/agents/';

export const agentApiPath = (id: number) => `${AGENTS_API_PATH}${id}/`;

/** Every agents query of the business starts with this key (runs included). */
export const AGENTS_KEY = [BUSINESS_SCOPE, 'agents'] as const;

export function agentsQueryOptions() {
  return queryOptions({
    queryKey: [...AGENTS_KEY, 'list'],
    queryFn: async ({ signal }): Promise<TAgent[]> => {
      const { data } = await protectedClient.get(AGENTS_API_PATH, { signal });
      return ZEnvelope(z.array(ZAgent)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useAgents() {
  return useQuery(agentsQueryOptions());
}
