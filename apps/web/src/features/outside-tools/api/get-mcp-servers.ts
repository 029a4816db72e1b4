// GET /api/config/mcp-servers/ → the business's MCP servers; every change fetches them again (useInvalidateMcpServers).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZMcpServer } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const MCP_SERVERS_PATH = '/api/config/mcp-servers/';

export function mcpServersQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'mcp-servers'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(MCP_SERVERS_PATH, { signal });
      return ZEnvelope(z.array(ZMcpServer)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useMcpServers = () => useQuery(mcpServersQueryOptions());

export function useInvalidateMcpServers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: mcpServersQueryOptions().queryKey });
}
