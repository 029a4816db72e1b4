// GET /api/auth/api-keys/ → the business's API keys (prefix only; the key itself is never shown again).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZApiKey, ZEnvelope, type TApiKey } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const API_KEYS_PATH = '/api/auth/api-keys/';

export async function getApiKeys(): Promise<TApiKey[]> {
  const { data } = await protectedClient.get(API_KEYS_PATH);
  return ZEnvelope(z.array(ZApiKey)).parse(data).result;
}

export function apiKeysQueryOptions() {
  // Shown by the settings section that uses it, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'api-keys'],
    queryFn: getApiKeys,
    meta: { errorShownOnScreen: true },
  });
}

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
