// PUT /api/business/ → the updated current business. Its name also shows in the profile's list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZBusiness, ZEnvelope, type TBusiness, type TUpdateBusinessRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { profileQueryOptions } from '../../../lib/session/profile';
import { BUSINESS_PATH, businessQueryOptions } from '../../../lib/business/business';

export async function updateBusiness(body: TUpdateBusinessRequest): Promise<TBusiness> {
  const { data } = await protectedClient.put(BUSINESS_PATH, body);
  return ZEnvelope(ZBusiness).parse(data).result;
}

export function useUpdateBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBusiness,
    onSuccess: (business) => {
      queryClient.setQueryData(businessQueryOptions().queryKey, business);
      void queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
    },
  });
}
