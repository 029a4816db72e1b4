// GET /api/business/customer-lists/{id}/ → one list or segment (today's member count included).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCustomerList, ZEnvelope, type TCustomerList } from '@titan/contracts';

import { CUSTOMER_LISTS_KEY, CUSTOMER_LISTS_PATH } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';

export function listApiPath(id: number): string {
  return `${CUSTOMER_LISTS_PATH}${id}/`;
}

export async function getList(id: number, signal?: AbortSignal): Promise<TCustomerList> {
  const { data } = await protectedClient.get(listApiPath(id), { signal });
  return ZEnvelope(ZCustomerList).parse(data).result;
}

export function listQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...CUSTOMER_LISTS_KEY, 'one', id],
    queryFn: ({ signal }) => getList(id, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useList(id: number) {
  return useQuery(listQueryOptions(id));
}
