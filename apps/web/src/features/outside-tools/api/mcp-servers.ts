// /api/config/mcp-servers/: the business's MCP servers (list, add, remove, refresh tools), OAuth
// connect (→ the authorization URL) and the callback page's post.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZConnectResult,
  ZEnvelope,
  ZExternalToolInfo,
  ZMcpServer,
  type TMcpServer,
  type TMcpServerRequest,
  type TOAuthCallbackRequest,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

const PATH = '/api/config/mcp-servers/';

export function mcpServersQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'mcp-servers'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(PATH, { signal });
      return ZEnvelope(z.array(ZMcpServer)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useMcpServers = () => useQuery(mcpServersQueryOptions());

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: mcpServersQueryOptions().queryKey });
}

export function useCreateMcpServer() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (body: TMcpServerRequest): Promise<TMcpServer> => {
      const { data } = await protectedClient.post(PATH, body);
      return ZEnvelope(ZMcpServer).parse(data).result;
    },
    onSuccess: invalidate,
  });
}

export function useDeleteMcpServer() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}

export function useRefreshMcpTools() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) => {
      const { data } = await protectedClient.get(`${PATH}${id}/tools/`, { params: { refresh: 'true' } });
      return ZEnvelope(z.array(ZExternalToolInfo)).parse(data).result;
    },
    onSettled: invalidate,
  });
}

export function useConnectMcpServer() {
  return useMutation({
    mutationFn: async (id: number): Promise<string> => {
      const { data } = await protectedClient.post(`${PATH}${id}/connect/`);
      return ZEnvelope(ZConnectResult).parse(data).result.authorization_url;
    },
  });
}

export async function completeMcpOAuth(body: TOAuthCallbackRequest): Promise<TMcpServer> {
  const { data } = await protectedClient.post(`${PATH}callback/`, body);
  return ZEnvelope(ZMcpServer).parse(data).result;
}
