// POST /api/auth/2fa/totp/confirm/ {code} → TOTP on, with fresh recovery codes.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZRecoveryCodes } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateSecurity } from './get-mfa-status';

export function useTotpConfirm() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (code: string) =>
      ZEnvelope(ZRecoveryCodes).parse(
        (await protectedClient.post('/api/auth/2fa/totp/confirm/', { code })).data,
      ).result,
    onSuccess: invalidate,
  });
}
