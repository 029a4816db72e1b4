// POST /api/auth/login/mfa/ {mfa_token, code} → the session: the second step of a sign-in, with a
// TOTP or a recovery code.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZLoginResult, type TLoginResult, type TMfaLoginRequest } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const LOGIN_MFA_PATH = '/api/auth/login/mfa/';

export async function loginMfa(body: TMfaLoginRequest): Promise<TLoginResult> {
  const { data } = await publicClient.post(LOGIN_MFA_PATH, body);
  return ZEnvelope(ZLoginResult).parse(data).result;
}

export function useLoginMfa() {
  return useMutation({ mutationFn: loginMfa });
}
