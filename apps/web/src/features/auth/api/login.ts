// POST /api/auth/login/ → tokens and the user (or, with 2FA on, the token of the second step); 400 bad credentials, 403 while the email is unverified.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZLoginAnswer, type TLoginAnswer, type TLoginRequest } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const LOGIN_API_PATH = '/api/auth/login/';

export async function login(body: TLoginRequest): Promise<TLoginAnswer> {
  const { data } = await publicClient.post(LOGIN_API_PATH, body);
  return ZEnvelope(ZLoginAnswer).parse(data).result;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
