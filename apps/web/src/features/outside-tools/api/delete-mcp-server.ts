// DELETE /api/config/mcp-servers/{id}/ → the server removed.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { MCP_SERVERS_PATH, useInvalidateMcpServers } from './get-mcp-servers';

export function useDeleteMcpServer() {
  const invalidate = useInvalidateMcpServers();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${MCP_SERVERS_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
