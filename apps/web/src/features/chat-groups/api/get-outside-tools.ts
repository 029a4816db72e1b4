// The tools the AI first responder may be allowed: those of the business's MCP servers
// (GET /api/config/mcp-servers/) and plugin connections (GET /api/user-plugins/). Same query keys
// as the outside-tools settings, so a change there shows here.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZMcpServer, ZUserPlugin } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

const mcpServers = queryOptions({
  queryKey: [BUSINESS_SCOPE, 'mcp-servers'],
  queryFn: async ({ signal }) => {
    const { data } = await protectedClient.get('/api/config/mcp-servers/', { signal });
    return ZEnvelope(z.array(ZMcpServer)).parse(data).result;
  },
  meta: { errorShownOnScreen: true },
});

const userPlugins = queryOptions({
  queryKey: [BUSINESS_SCOPE, 'user-plugins'],
  queryFn: async ({ signal }) => {
    const { data } = await protectedClient.get('/api/user-plugins/', { signal });
    return ZEnvelope(z.array(ZUserPlugin)).parse(data).result;
  },
  meta: { errorShownOnScreen: true },
});

export const useMcpServers = () => useQuery(mcpServers);
export const useUserPlugins = () => useQuery(userPlugins);
