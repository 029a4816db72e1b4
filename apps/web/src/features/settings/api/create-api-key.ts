// POST /api/auth/api-keys/ {name, expires_at?} → the key, in this answer only.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCreatedApiKey, ZEnvelope, type TCreateApiKeyRequest, type TCreatedApiKey } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { API_KEYS_PATH, apiKeysQueryOptions } from './get-api-keys';

export async function createApiKey(body: TCreateApiKeyRequest): Promise<TCreatedApiKey> {
  const { data } = await protectedClient.post(API_KEYS_PATH, body);
  return ZEnvelope(ZCreatedApiKey).parse(data).result;
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}
