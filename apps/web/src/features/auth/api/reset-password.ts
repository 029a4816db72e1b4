// POST /api/auth/password/reset/ → null; 400 {key: [...]} when the link is invalid or expired.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, type TResetPasswordRequest } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const RESET_PASSWORD_API_PATH = '/api/auth/password/reset/';

export async function resetPassword(body: TResetPasswordRequest): Promise<null> {
  const { data } = await publicClient.post(RESET_PASSWORD_API_PATH, body);
  return ZEnvelope(z.null()).parse(data).result;
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
