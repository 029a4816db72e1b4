// GET /api/user-plugins/ → the business's plugin connections; every change fetches them again (useInvalidateUserPlugins).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZUserPlugin } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const USER_PLUGINS_PATH = '/api/user-plugins/';

export function userPluginsQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'user-plugins'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(USER_PLUGINS_PATH, { signal });
      return ZEnvelope(z.array(ZUserPlugin)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useUserPlugins = () => useQuery(userPluginsQueryOptions());

export function useInvalidateUserPlugins() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userPluginsQueryOptions().queryKey });
}
