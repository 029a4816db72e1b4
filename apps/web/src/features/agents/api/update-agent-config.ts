// POST /api/agents/{id}/update-agent-config/ → the agent with its next immutable config version.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent, type TAgentConfigRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { rememberAgent } from './get-agent';
import { agentApiPath } from './get-agents';

/** Writes the next config version; the agent is answered with it. */
export async function updateAgentConfig({
  id,
  config,
}: {
  id: number;
  config: TAgentConfigRequest;
}): Promise<TAgent> {
  const { data } = await protectedClient.post(`${agentApiPath(id)}update-agent-config/`, config);
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useUpdateAgentConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgentConfig,
    onSuccess: (agent) => rememberAgent(queryClient, agent),
  });
}
