// GET /api/public/kb/{business_slug}/articles/{id}/ (no session): one published article.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPublicKbArticle } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';
import { helpCentreApiPath, helpCentreKey } from './get-help-centre';

export function helpCentreArticleQueryOptions(slug: string, id: number) {
  return queryOptions({
    queryKey: [...helpCentreKey(slug), 'article', id],
    queryFn: async ({ signal }) => {
      const { data } = await publicClient.get(`${helpCentreApiPath(slug)}articles/${id}/`, { signal });
      return ZEnvelope(ZPublicKbArticle).parse(data).result;
    },
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export const useHelpCentreArticle = (slug: string, id: number) =>
  useQuery(helpCentreArticleQueryOptions(slug, id));
