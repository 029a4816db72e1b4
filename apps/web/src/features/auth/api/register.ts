// POST /api/auth/register/ → the new user; a verification mail is sent.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZUser, type TRegisterRequest, type TUser } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const REGISTER_PATH = '/api/auth/register/';

export async function register(body: TRegisterRequest): Promise<TUser> {
  const { data } = await publicClient.post(REGISTER_PATH, body);
  return ZEnvelope(z.object({ user: ZUser })).parse(data).result.user;
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
