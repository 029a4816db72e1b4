// GET /api/agents/{id}/runs/{runId}/?page&page_size → one run with its deliveries, followed live while
// it runs or while approved and planned messages are still becoming sends.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZAgentRun, ZEnvelope, type TAgentRun } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { LIVE_REFRESH_MS, runsKey } from './get-agent-runs';
import { agentApiPath } from './get-agents';

export const RUN_ITEMS_PAGE_SIZE = 100;

export function agentRunQueryOptions(agentId: number, runId: string, pageSize: number) {
  return queryOptions({
    queryKey: [...runsKey(agentId), 'one', runId, pageSize],
    queryFn: async ({ signal }): Promise<TAgentRun> => {
      const { data } = await protectedClient.get(
        `${agentApiPath(agentId)}runs/${encodeURIComponent(runId)}/`,
        {
          params: { page: 1, page_size: pageSize },
          signal,
        },
      );
      return ZEnvelope(ZAgentRun).parse(data).result;
    },
    // Also while approved or planned messages are still becoming sends.
    refetchInterval: (query) => {
      const run = query.state.data;
      const moving = run?.deliveries.some((d) => d.status === 'approved' || d.status === 'planned');
      return run?.status === 'running' || moving ? LIVE_REFRESH_MS : false;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useAgentRun(agentId: number, runId: string, pageSize = RUN_ITEMS_PAGE_SIZE) {
  return useQuery({ ...agentRunQueryOptions(agentId, runId, pageSize), placeholderData: keepPreviousData });
}
