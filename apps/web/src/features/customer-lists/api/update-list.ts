// PUT /api/business/customer-lists/{id}/ → the saved list or segment; every lists query is fetched again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZCustomerList,
  ZEnvelope,
  type TCustomerList,
  type TUpdateCustomerListRequest,
} from '@titan/contracts';

import { CUSTOMER_LISTS_KEY } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';
import { listApiPath } from './get-list';

export async function updateList(id: number, body: TUpdateCustomerListRequest): Promise<TCustomerList> {
  const { data } = await protectedClient.put(listApiPath(id), body);
  return ZEnvelope(ZCustomerList).parse(data).result;
}

export function useUpdateList(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateCustomerListRequest) => updateList(id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CUSTOMER_LISTS_KEY }),
  });
}
