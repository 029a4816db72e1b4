// DELETE /api/auth/api-keys/{id}/ revokes a key at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { API_KEYS_PATH, apiKeysQueryOptions } from './get-api-keys';

export async function revokeApiKey(id: number): Promise<void> {
  await protectedClient.delete(`${API_KEYS_PATH}${id}/`);
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}
