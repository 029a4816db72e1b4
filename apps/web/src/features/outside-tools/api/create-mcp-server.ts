// POST /api/config/mcp-servers/ → the new server.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZMcpServer, type TMcpServer, type TMcpServerRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { MCP_SERVERS_PATH, useInvalidateMcpServers } from './get-mcp-servers';

export function useCreateMcpServer() {
  const invalidate = useInvalidateMcpServers();
  return useMutation({
    mutationFn: async (body: TMcpServerRequest): Promise<TMcpServer> => {
      const { data } = await protectedClient.post(MCP_SERVERS_PATH, body);
      return ZEnvelope(ZMcpServer).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
