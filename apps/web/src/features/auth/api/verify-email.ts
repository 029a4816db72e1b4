// POST /api/auth/register/verify-email/ with the key from the verification mail → the user.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZUser, type TUser, type TVerifyEmailRequest } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const VERIFY_EMAIL_PATH = '/api/auth/register/verify-email/';

export async function verifyEmail(body: TVerifyEmailRequest): Promise<TUser> {
  const { data } = await publicClient.post(VERIFY_EMAIL_PATH, body);
  return ZEnvelope(z.object({ user: ZUser })).parse(data).result.user;
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
