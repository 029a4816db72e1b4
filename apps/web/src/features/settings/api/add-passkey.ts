// POST /api/auth/webauthn/register/options/ then …/register/verify/: one WebAuthn registration
// ceremony (through @simplewebauthn/browser), so both calls live here.
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZPasskey, ZWebauthnOptions } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateSecurity } from './get-mfa-status';

/** Asks the browser for a new passkey and registers it. */
export function useAddPasskey() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (name: string) => {
      const { data } = await protectedClient.post('/api/auth/webauthn/register/options/', { name });
      const { token, options } = ZEnvelope(ZWebauthnOptions).parse(data).result;
      const response = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      const verified = await protectedClient.post('/api/auth/webauthn/register/verify/', {
        token,
        response,
        ...(name ? { name } : {}),
      });
      return ZEnvelope(ZPasskey).parse(verified.data).result;
    },
    onSuccess: invalidate,
  });
}
