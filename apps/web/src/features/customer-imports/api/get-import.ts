// GET /api/business/customer-directory/imports/{id}/ → one import's progress and counts.
import { queryOptions } from '@tanstack/react-query';
import { ZCustomerImport, ZEnvelope, type TCustomerImport } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const importApiPath = (id: string) => `/api/business/customer-directory/imports/${id}/`;

export const importQueryKey = (id: string) => [BUSINESS_SCOPE, 'customer-imports', id] as const;

export async function getImport(id: string, signal?: AbortSignal): Promise<TCustomerImport> {
  const { data } = await protectedClient.get(importApiPath(id), { signal });
  return ZEnvelope(ZCustomerImport).parse(data).result;
}

export function importQueryOptions(id: string) {
  return queryOptions({
    queryKey: importQueryKey(id),
    queryFn: ({ signal }) => getImport(id, signal),
  });
}
