// DELETE /api/auth/sessions/{id}/ → that session signed out.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateSecurity } from './get-mfa-status';
import { SESSIONS_PATH } from './get-sessions';

export function useEndSession() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (id: string) => {
      await protectedClient.delete(`${SESSIONS_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
