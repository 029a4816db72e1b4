// /api/plugins/ (the catalogue) and /api/user-plugins/ (the business's connections, connect, and the
// OAuth callback page's post).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZConnectResult,
  ZEnvelope,
  ZPlugin,
  ZUserPlugin,
  type TOAuthCallbackRequest,
  type TUserPlugin,
  type TUserPluginRequest,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

const PATH = '/api/user-plugins/';

export function pluginCatalogueQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'plugins'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get('/api/plugins/', { signal });
      return ZEnvelope(z.array(ZPlugin)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function userPluginsQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'user-plugins'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(PATH, { signal });
      return ZEnvelope(z.array(ZUserPlugin)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const usePluginCatalogue = () => useQuery(pluginCatalogueQueryOptions());
export const useUserPlugins = () => useQuery(userPluginsQueryOptions());

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userPluginsQueryOptions().queryKey });
}

export function useCreateUserPlugin() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (body: TUserPluginRequest): Promise<TUserPlugin> => {
      const { data } = await protectedClient.post(PATH, body);
      return ZEnvelope(ZUserPlugin).parse(data).result;
    },
    onSuccess: invalidate,
  });
}

export function useDeleteUserPlugin() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}

export function useConnectUserPlugin() {
  return useMutation({
    mutationFn: async (id: number): Promise<string> => {
      const { data } = await protectedClient.post(`${PATH}${id}/connect/`);
      return ZEnvelope(ZConnectResult).parse(data).result.authorization_url;
    },
  });
}

export async function completePluginOAuth(body: TOAuthCallbackRequest): Promise<TUserPlugin> {
  const { data } = await protectedClient.post(`${PATH}callback/`, body);
  return ZEnvelope(ZUserPlugin).parse(data).result;
}
