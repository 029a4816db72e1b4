// GET /api/kb/categories/: the knowledge base's categories.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZKbCategory, type TKbCategory } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { KB_KEY } from './get-articles';

export const KB_CATEGORIES_PATH = '/api/kb/categories/';

export function categoriesQueryOptions() {
  return queryOptions({
    queryKey: [...KB_KEY, 'categories'],
    queryFn: async ({ signal }): Promise<TKbCategory[]> => {
      const { data } = await protectedClient.get(KB_CATEGORIES_PATH, { signal });
      return ZEnvelope(z.array(ZKbCategory)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useCategories = () => useQuery(categoriesQueryOptions());
