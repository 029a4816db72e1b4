// GET /api/plugins/ → the catalogue of plugins a business may connect.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPlugin } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

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

export const usePluginCatalogue = () => useQuery(pluginCatalogueQueryOptions());
