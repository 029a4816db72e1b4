// POST /api/auth/password/forgot/ → null, the same answer whether or not the address exists.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, type TForgotPasswordRequest } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const FORGOT_PASSWORD_API_PATH = '/api/auth/password/forgot/';

export async function forgotPassword(body: TForgotPasswordRequest): Promise<null> {
  const { data } = await publicClient.post(FORGOT_PASSWORD_API_PATH, body);
  return ZEnvelope(z.null()).parse(data).result;
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
