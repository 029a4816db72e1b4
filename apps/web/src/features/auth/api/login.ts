// POST /api/auth/login/ → tokens and the user; 400 bad credentials, 403 while the email is unverified.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZLoginResult, type TLoginRequest, type TLoginResult } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const LOGIN_API_PATH = '/api/auth/login/';

export async function login(body: TLoginRequest): Promise<TLoginResult> {
  const { data } = await publicClient.post(LOGIN_API_PATH, body);
  return ZEnvelope(ZLoginResult).parse(data).result;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
