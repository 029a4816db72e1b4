// POST /api/auth/register/resend-verification/ → null; a new verification mail is sent.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, type TResendVerificationRequest } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const RESEND_VERIFICATION_PATH = '/api/auth/register/resend-verification/';

export async function resendVerification(body: TResendVerificationRequest): Promise<null> {
  const { data } = await publicClient.post(RESEND_VERIFICATION_PATH, body);
  return ZEnvelope(z.null()).parse(data).result;
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
