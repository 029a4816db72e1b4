// GET /api/kb/articles/: the knowledge base's articles, a page at a time, filtered by status,
// category and words. The cache key every knowledge call shares, and the one invalidation a change
// to articles or categories makes.
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZKbArticlePage, type TKbArticleStatus } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const KB_ARTICLES_PATH = '/api/kb/articles/';
export const KB_PAGE_SIZE = 20;

export const KB_KEY = [BUSINESS_SCOPE, 'knowledge'] as const;

export type TArticleFilters = {
  status?: TKbArticleStatus | '';
  category_id?: number | null;
  search?: string;
};

export function articlesQueryOptions(filters: TArticleFilters, page: number) {
  const params = {
    page,
    page_size: KB_PAGE_SIZE,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.category_id ? { category_id: filters.category_id } : {}),
    ...(filters.search?.trim() ? { search: filters.search.trim() } : {}),
  };
  return queryOptions({
    queryKey: [...KB_KEY, 'articles', params],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(KB_ARTICLES_PATH, { params, signal });
      return ZEnvelope(ZKbArticlePage).parse(data).result;
    },
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export const useArticles = (filters: TArticleFilters, page: number) =>
  useQuery(articlesQueryOptions(filters, page));

/** After any change to articles or categories: every knowledge query fetched again. */
export function useInvalidateKb() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: KB_KEY });
}
