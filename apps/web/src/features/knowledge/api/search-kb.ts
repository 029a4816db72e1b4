// GET /api/kb/search/?q=: the articles matching words (nothing asked while the words are empty).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZKbSearchResult } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_KEY } from './get-articles';

export const KB_SEARCH_PATH = '/api/kb/search/';

export function kbSearchQueryOptions(q: string) {
  const query = q.trim();
  return queryOptions({
    queryKey: [...KB_KEY, 'search', query],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(KB_SEARCH_PATH, { params: { q: query }, signal });
      return ZEnvelope(ZKbSearchResult).parse(data).result.results;
    },
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}

export const useKbSearch = (q: string) => useQuery(kbSearchQueryOptions(q));
