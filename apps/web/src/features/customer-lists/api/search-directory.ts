// GET /api/business/customer-directory/?search&page=1&page_size=10 → the first matches of a directory
// search, for adding members to a static list.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZDirectoryVisitor, ZEnvelope, ZPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

const DIRECTORY_API_PATH = '/api/business/customer-directory/';
const ZVisitorPage = ZPage(ZDirectoryVisitor);

export async function searchDirectory(search: string, signal?: AbortSignal) {
  const { data } = await protectedClient.get(DIRECTORY_API_PATH, {
    params: { ...(search ? { search } : {}), page: 1, page_size: 10 },
    signal,
  });
  return ZEnvelope(ZVisitorPage).parse(data).result;
}

export function directorySearchQueryOptions(search: string) {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'directory', 'list', { search, page: 1, for: 'lists' }],
    queryFn: ({ signal }) => searchDirectory(search, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDirectorySearch(search: string) {
  return useQuery(directorySearchQueryOptions(search));
}
