// GET /api/kb/articles/{id}/: one article with its translations.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZKbArticle, type TKbArticle } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_ARTICLES_PATH, KB_KEY } from './get-articles';

export function articleQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...KB_KEY, 'article', id],
    queryFn: async ({ signal }): Promise<TKbArticle> => {
      const { data } = await protectedClient.get(`${KB_ARTICLES_PATH}${id}/`, { signal });
      return ZEnvelope(ZKbArticle).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useArticle = (id: number) => useQuery(articleQueryOptions(id));
