// DELETE /api/auth/webauthn/credentials/{id}/ → the passkey removed.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateSecurity } from './get-mfa-status';

export function useDeletePasskey() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (id: string) => {
      await protectedClient.delete(`/api/auth/webauthn/credentials/${encodeURIComponent(id)}/`);
    },
    onSuccess: invalidate,
  });
}
