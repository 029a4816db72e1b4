// GET /api/auth/oauth/providers/ → the OpenID Connect providers to offer (empty when none is set up).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZOAuthProvider, type TOAuthProvider } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const OAUTH_PROVIDERS_PATH = '/api/auth/oauth/providers/';

export async function getOAuthProviders(): Promise<TOAuthProvider[]> {
  const { data } = await publicClient.get(OAUTH_PROVIDERS_PATH);
  return ZEnvelope(z.array(ZOAuthProvider)).parse(data).result;
}

export function oauthProvidersQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'oauth-providers'],
    queryFn: getOAuthProviders,
    staleTime: Infinity,
  });
}

export function useOAuthProviders() {
  return useQuery(oauthProvidersQueryOptions());
}
