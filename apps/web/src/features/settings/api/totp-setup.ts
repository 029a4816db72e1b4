// POST /api/auth/2fa/totp/setup/ → a new TOTP secret and its otpauth URL, to confirm.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZTotpSetupResult } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export function useTotpSetup() {
  return useMutation({
    mutationFn: async () =>
      ZEnvelope(ZTotpSetupResult).parse((await protectedClient.post('/api/auth/2fa/totp/setup/')).data)
        .result,
  });
}
