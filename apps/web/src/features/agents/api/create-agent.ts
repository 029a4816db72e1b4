// POST /api/agents/ → the new agent (cached as answered, the list fetched again).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent, type TCreateAgentRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { rememberAgent } from './get-agent';
import { AGENTS_API_PATH } from './get-agents';

export async function createAgent(body: TCreateAgentRequest): Promise<TAgent> {
  const { data } = await protectedClient.post(AGENTS_API_PATH, body);
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createAgent, onSuccess: (agent) => rememberAgent(queryClient, agent) });
}
