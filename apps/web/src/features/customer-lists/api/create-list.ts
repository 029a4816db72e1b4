// POST /api/business/customer-lists/ → the new list or segment; every lists query is fetched again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZCustomerList,
  ZEnvelope,
  type TCreateCustomerListRequest,
  type TCustomerList,
} from '@titan/contracts';

import { CUSTOMER_LISTS_KEY, CUSTOMER_LISTS_PATH } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';

export async function createList(body: TCreateCustomerListRequest): Promise<TCustomerList> {
  const { data } = await protectedClient.post(CUSTOMER_LISTS_PATH, body);
  return ZEnvelope(ZCustomerList).parse(data).result;
}

export function useCreateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createList,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CUSTOMER_LISTS_KEY }),
  });
}
