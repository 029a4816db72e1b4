// The knowledge base API: /api/kb/articles/, /api/kb/categories/ and /api/kb/search/.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZKbArticle,
  ZKbArticlePage,
  ZKbCategory,
  ZKbSearchResult,
  type TKbArticle,
  type TKbArticleRequest,
  type TKbArticleStatus,
  type TKbArticleUpdate,
  type TKbCategory,
  type TKbCategoryRequest,
  type TKbCategoryUpdate,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const KB_ARTICLES_PATH = '/api/kb/articles/';
export const KB_CATEGORIES_PATH = '/api/kb/categories/';
export const KB_SEARCH_PATH = '/api/kb/search/';
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

export function useKbSearch(q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: [...KB_KEY, 'search', query],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(KB_SEARCH_PATH, { params: { q: query }, signal });
      return ZEnvelope(ZKbSearchResult).parse(data).result.results;
    },
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}

function useInvalidateKb() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: KB_KEY });
}

export function useCreateArticle() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (body: TKbArticleRequest): Promise<TKbArticle> => {
      const { data } = await protectedClient.post(KB_ARTICLES_PATH, body);
      return ZEnvelope(ZKbArticle).parse(data).result;
    },
    onSuccess: invalidate,
  });
}

export function useUpdateArticle(id: number) {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (body: TKbArticleUpdate): Promise<TKbArticle> => {
      const { data } = await protectedClient.put(`${KB_ARTICLES_PATH}${id}/`, body);
      return ZEnvelope(ZKbArticle).parse(data).result;
    },
    onSuccess: invalidate,
  });
}

export function useDeleteArticle() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${KB_ARTICLES_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}

export function useCreateCategory() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (body: TKbCategoryRequest): Promise<TKbCategory> => {
      const { data } = await protectedClient.post(KB_CATEGORIES_PATH, body);
      return ZEnvelope(ZKbCategory).parse(data).result;
    },
    onSuccess: invalidate,
  });
}

export function useUpdateCategory() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async ({ id, ...body }: TKbCategoryUpdate & { id: number }): Promise<TKbCategory> => {
      const { data } = await protectedClient.put(`${KB_CATEGORIES_PATH}${id}/`, body);
      return ZEnvelope(ZKbCategory).parse(data).result;
    },
    onSuccess: invalidate,
  });
}

export function useDeleteCategory() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${KB_CATEGORIES_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
