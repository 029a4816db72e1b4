// POST /api/config/mcp-servers/{id}/connect/ → the provider's authorization URL (OAuth connect).
import { useMutation } from '@tanstack/react-query';
import { ZConnectResult, ZEnvelope } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { MCP_SERVERS_PATH } from './get-mcp-servers';

export function useConnectMcpServer() {
  return useMutation({
    mutationFn: async (id: number): Promise<string> => {
      const { data } = await protectedClient.post(`${MCP_SERVERS_PATH}${id}/connect/`);
      return ZEnvelope(ZConnectResult).parse(data).result.authorization_url;
    },
  });
}
