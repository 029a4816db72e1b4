// GET /api/public/preferences/{token}/ → what the preference centre shows (the business, the
// address, every topic with whether it still reaches them, leave-all). The token is the one of the
// mail's unsubscribe link; no session.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPreferences } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const preferencesApiPath = (token: string) => `/api/public/preferences/${encodeURIComponent(token)}/`;

export const preferencesKey = (token: string) => ['public-preferences', token] as const;

export function preferencesQueryOptions(token: string) {
  return queryOptions({
    queryKey: preferencesKey(token),
    queryFn: async ({ signal }) => {
      const { data } = await publicClient.get(preferencesApiPath(token), { signal });
      return ZEnvelope(ZPreferences).parse(data).result;
    },
    enabled: token !== '',
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export const usePreferences = (token: string) => useQuery(preferencesQueryOptions(token));
