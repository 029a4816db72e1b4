// POST /api/agents/{id}/avatar/ (multipart: file) → the agent with its new avatar.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAgent, ZEnvelope, type TAgent } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { rememberAgent } from './get-agent';
import { agentApiPath } from './get-agents';

export async function uploadAgentAvatar({ id, file }: { id: number; file: File }): Promise<TAgent> {
  const form = new FormData();
  form.append('file', file);
  const { data } = await protectedClient.post(`${agentApiPath(id)}avatar/`, form, {
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useUploadAgentAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAgentAvatar,
    onSuccess: (agent) => rememberAgent(queryClient, agent),
  });
}
