// The public help centre API (no session): /api/public/kb/{business_slug}/…
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZHelpCentre, ZKbSearchResult, ZPublicKbArticle } from '@titan/contracts';

import { publicClient as apiClient } from '../../../lib/api-client';

const base = (slug: string) => `/api/public/kb/${encodeURIComponent(slug)}/`;

export function helpCentreQueryOptions(slug: string) {
  return queryOptions({
    queryKey: ['help-centre', slug],
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(base(slug), { signal });
      return ZEnvelope(ZHelpCentre).parse(data).result;
    },
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export const useHelpCentre = (slug: string) => useQuery(helpCentreQueryOptions(slug));

export function useHelpCentreArticle(slug: string, id: number) {
  return useQuery({
    queryKey: ['help-centre', slug, 'article', id],
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(`${base(slug)}articles/${id}/`, { signal });
      return ZEnvelope(ZPublicKbArticle).parse(data).result;
    },
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export function useHelpCentreSearch(slug: string, q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: ['help-centre', slug, 'search', query],
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(`${base(slug)}search/`, { params: { q: query }, signal });
      return ZEnvelope(ZKbSearchResult).parse(data).result.results;
    },
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useArticleFeedback(slug: string, id: number) {
  return useMutation({
    mutationFn: async (helpful: boolean) => {
      await apiClient.post(`${base(slug)}articles/${id}/feedback/`, { helpful });
    },
  });
}
