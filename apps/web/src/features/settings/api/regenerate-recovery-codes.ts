// POST /api/auth/2fa/recovery-codes/ → a new set of recovery codes (the old ones stop working).
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZRecoveryCodes } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateSecurity } from './get-mfa-status';

export function useRegenerateRecoveryCodes() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async () =>
      ZEnvelope(ZRecoveryCodes).parse((await protectedClient.post('/api/auth/2fa/recovery-codes/')).data)
        .result,
    onSuccess: invalidate,
  });
}
