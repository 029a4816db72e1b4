// GET /api/business/customer-directory/?search=&page_size= → the first few customers matching a
// search, for pickers (the inbox's "New conversation"). The directory's own pages use
// features/directory/api/get-visitors.ts; both keys start with the directory's.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZDirectoryPage, ZEnvelope, type TDirectoryVisitor } from '@titan/contracts';

import { protectedClient } from '../protected-client';
import { DIRECTORY_API_PATH, DIRECTORY_KEY } from './keys';

export const PICKER_SIZE = 8;

export async function findCustomers(search: string, signal?: AbortSignal): Promise<TDirectoryVisitor[]> {
  const { data } = await protectedClient.get(DIRECTORY_API_PATH, {
    params: { ...(search ? { search } : {}), page: 1, page_size: PICKER_SIZE },
    signal,
  });
  return ZEnvelope(ZDirectoryPage).parse(data).result.results;
}

export function findCustomersQueryOptions(search: string) {
  return queryOptions({
    queryKey: [...DIRECTORY_KEY, 'picker', search],
    queryFn: ({ signal }) => findCustomers(search, signal),
    placeholderData: keepPreviousData,
  });
}

export function useFindCustomers(search: string) {
  return useQuery(findCustomersQueryOptions(search));
}
