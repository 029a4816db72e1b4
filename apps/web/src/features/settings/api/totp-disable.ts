// DELETE /api/auth/2fa/totp/ → TOTP off.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateSecurity } from './get-mfa-status';

export function useTotpDisable() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async () => {
      await protectedClient.delete('/api/auth/2fa/totp/');
    },
    onSuccess: invalidate,
  });
}
