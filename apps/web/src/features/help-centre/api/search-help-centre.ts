// GET /api/public/kb/{business_slug}/search/?q= (no session): the published articles matching words
// (nothing asked while the words are empty).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZKbSearchResult } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';
import { helpCentreApiPath, helpCentreKey } from './get-help-centre';

export function helpCentreSearchQueryOptions(slug: string, q: string) {
  const query = q.trim();
  return queryOptions({
    queryKey: [...helpCentreKey(slug), 'search', query],
    queryFn: async ({ signal }) => {
      const { data } = await publicClient.get(`${helpCentreApiPath(slug)}search/`, {
        params: { q: query },
        signal,
      });
      return ZEnvelope(ZKbSearchResult).parse(data).result.results;
    },
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}

export const useHelpCentreSearch = (slug: string, q: string) =>
  useQuery(helpCentreSearchQueryOptions(slug, q));
