// The second step of a sign-in (POST /api/auth/login/mfa/ with a TOTP or recovery code) and passkey
// sign-in (POST /api/auth/webauthn/authenticate/{options,verify}/: with `mfa_token` as the second
// step, without it password-less), the ceremony run by @simplewebauthn/browser.
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZLoginAnswer,
  ZLoginResult,
  ZWebauthnOptions,
  type TLoginAnswer,
  type TLoginResult,
  type TMfaLoginRequest,
} from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const LOGIN_MFA_PATH = '/api/auth/login/mfa/';

export async function loginMfa(body: TMfaLoginRequest): Promise<TLoginResult> {
  const { data } = await publicClient.post(LOGIN_MFA_PATH, body);
  return ZEnvelope(ZLoginResult).parse(data).result;
}

export function useLoginMfa() {
  return useMutation({ mutationFn: loginMfa });
}

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
