// POST /api/auth/webauthn/authenticate/options/ then …/verify/: one WebAuthn ceremony (through
// @simplewebauthn/browser), with `mfa_token` as a sign-in's second step, without it password-less.
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZLoginAnswer, ZWebauthnOptions, type TLoginAnswer } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export async function passkeySignIn(mfaToken?: string): Promise<TLoginAnswer> {
  const body = mfaToken ? { mfa_token: mfaToken } : {};
  const { data } = await publicClient.post('/api/auth/webauthn/authenticate/options/', body);
  const { token, options } = ZEnvelope(ZWebauthnOptions).parse(data).result;
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  const verified = await publicClient.post('/api/auth/webauthn/authenticate/verify/', {
    token,
    response,
    ...body,
  });
  return ZEnvelope(ZLoginAnswer).parse(verified.data).result;
}

export function usePasskeySignIn() {
  return useMutation({ mutationFn: passkeySignIn });
}
