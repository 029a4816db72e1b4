// GET /api/public/confirm/{token}/ says what a double opt-in link is about without confirming (mail
// scanners open every link). No session: the signed token is the credential.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZConsentConfirmation, ZEnvelope } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const confirmApiPath = (token: string) => `/api/public/confirm/${encodeURIComponent(token)}/`;

export const confirmationKey = (token: string) => ['public-confirmation', token] as const;

export function confirmationQueryOptions(token: string) {
  return queryOptions({
    queryKey: confirmationKey(token),
    queryFn: async ({ signal }) => {
      const { data } = await publicClient.get(confirmApiPath(token), { signal });
      return ZEnvelope(ZConsentConfirmation).parse(data).result;
    },
    enabled: token !== '',
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export const useConfirmation = (token: string) => useQuery(confirmationQueryOptions(token));
