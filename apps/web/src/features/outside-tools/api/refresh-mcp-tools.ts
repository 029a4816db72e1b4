// GET /api/config/mcp-servers/{id}/tools/?refresh=true → the server's tools, asked of it again.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZExternalToolInfo } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { MCP_SERVERS_PATH, useInvalidateMcpServers } from './get-mcp-servers';

export function useRefreshMcpTools() {
  const invalidate = useInvalidateMcpServers();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await protectedClient.get(`${MCP_SERVERS_PATH}${id}/tools/`, {
        params: { refresh: 'true' },
      });
      return ZEnvelope(z.array(ZExternalToolInfo)).parse(data).result;
    },
    onSettled: invalidate,
  });
}
