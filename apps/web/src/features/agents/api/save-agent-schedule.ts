// PUT /api/agents/{id}/schedule/ → the agent's schedule (folded into the cached agent).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAgentSchedule, ZEnvelope, type TAgentSchedule, type TAgentScheduleRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { agentQueryOptions } from './get-agent';
import { agentApiPath, agentsQueryOptions } from './get-agents';

export async function saveAgentSchedule({
  id,
  schedule,
}: {
  id: number;
  schedule: TAgentScheduleRequest;
}): Promise<TAgentSchedule> {
  const { data } = await protectedClient.put(`${agentApiPath(id)}schedule/`, schedule);
  return ZEnvelope(ZAgentSchedule).parse(data).result;
}

export function useSaveAgentSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAgentSchedule,
    onSuccess: (schedule, { id }) => {
      queryClient.setQueryData(agentQueryOptions(id).queryKey, (agent) =>
        agent ? { ...agent, schedule } : agent,
      );
      void queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey });
    },
  });
}
