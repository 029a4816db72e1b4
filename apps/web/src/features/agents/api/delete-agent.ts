// DELETE /api/agents/{id}/ → gone; its cached copy dropped and the list fetched again.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { agentQueryOptions } from './get-agent';
import { agentApiPath, agentsQueryOptions } from './get-agents';

export async function deleteAgent(id: number): Promise<void> {
  await protectedClient.delete(agentApiPath(id));
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: agentQueryOptions(id).queryKey });
      void queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey });
    },
  });
}
