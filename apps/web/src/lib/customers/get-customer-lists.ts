// GET /api/business/customer-directory/{id}/lists/ → the static lists a customer is in, by name (the
// inbox's customer panel).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCustomerListRef, ZEnvelope, type TCustomerListRef } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../protected-client';
import { visitorApiPath } from './get-customer';
import { DIRECTORY_KEY } from './keys';

export async function getCustomerLists(id: number, signal?: AbortSignal): Promise<TCustomerListRef[]> {
  const { data } = await protectedClient.get(`${visitorApiPath(id)}lists/`, { signal });
  return ZEnvelope(z.array(ZCustomerListRef)).parse(data).result;
}

export function customerListsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...DIRECTORY_KEY, 'detail', id, 'lists'],
    queryFn: ({ signal }) => getCustomerLists(id, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useCustomerLists(id: number) {
  return useQuery(customerListsQueryOptions(id));
}
