// POST /api/business/ → the new business; the caller becomes its owner.
import { useMutation } from '@tanstack/react-query';
import { ZBusiness, ZEnvelope, type TBusiness, type TCreateBusinessRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const CREATE_BUSINESS_PATH = '/api/business/';

export async function createBusiness(body: TCreateBusinessRequest): Promise<TBusiness> {
  const { data } = await protectedClient.post(CREATE_BUSINESS_PATH, body);
  return ZEnvelope(ZBusiness).parse(data).result;
}

export function useCreateBusiness() {
  return useMutation({ mutationFn: createBusiness });
}
