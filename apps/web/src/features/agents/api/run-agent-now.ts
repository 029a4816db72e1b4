// POST /api/agents/{id}/run-now/ → the run started; the runs and the agents list are fetched again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZAgentRunNowResult,
  ZEnvelope,
  type TAgentRunNowRequest,
  type TAgentRunNowResult,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { runsKey } from './get-agent-runs';
import { AGENTS_KEY, agentApiPath } from './get-agents';

export async function runAgentNow({
  agentId,
  ...body
}: TAgentRunNowRequest & { agentId: number }): Promise<TAgentRunNowResult> {
  const { data } = await protectedClient.post(`${agentApiPath(agentId)}run-now/`, body);
  return ZEnvelope(ZAgentRunNowResult).parse(data).result;
}

export function useRunAgentNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAgentNow,
    onSuccess: (_, { agentId }) => {
      void queryClient.invalidateQueries({ queryKey: runsKey(agentId) });
      void queryClient.invalidateQueries({ queryKey: [...AGENTS_KEY, 'list'] });
    },
  });
}
