// PUT /api/agents/{id}/ → the saved agent (name, status, channels…).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent, type TUpdateAgentRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { rememberAgent } from './get-agent';
import { agentApiPath } from './get-agents';

export async function updateAgent({ id, ...body }: TUpdateAgentRequest & { id: number }): Promise<TAgent> {
  const { data } = await protectedClient.put(agentApiPath(id), body);
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateAgent, onSuccess: (agent) => rememberAgent(queryClient, agent) });
}
