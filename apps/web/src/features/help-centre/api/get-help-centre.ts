// GET /api/public/kb/{business_slug}/ (no session): a business's public help centre, its categories
// and articles. The path and cache key every help-centre call shares.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZHelpCentre } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const helpCentreApiPath = (slug: string) => `/api/public/kb/${encodeURIComponent(slug)}/`;
export const helpCentreKey = (slug: string) => ['help-centre', slug] as const;

export function helpCentreQueryOptions(slug: string) {
  return queryOptions({
    queryKey: helpCentreKey(slug),
    queryFn: async ({ signal }) => {
      const { data } = await publicClient.get(helpCentreApiPath(slug), { signal });
      return ZEnvelope(ZHelpCentre).parse(data).result;
    },
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export const useHelpCentre = (slug: string) => useQuery(helpCentreQueryOptions(slug));
