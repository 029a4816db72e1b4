// GET /api/business/customer-directory/{id}/ → one visitor with every recorded field (the directory's
// visitor page and the inbox's customer panel).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZDirectoryVisitor, ZEnvelope, type TDirectoryVisitor } from '@titan/contracts';

import { protectedClient } from '../protected-client';
import { DIRECTORY_API_PATH, DIRECTORY_KEY } from './keys';

export function visitorApiPath(id: number): string {
  return `${DIRECTORY_API_PATH}${id}/`;
}

export async function getVisitor(id: number): Promise<TDirectoryVisitor> {
  const { data } = await protectedClient.get(visitorApiPath(id));
  return ZEnvelope(ZDirectoryVisitor).parse(data).result;
}

export function visitorQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...DIRECTORY_KEY, 'detail', id],
    queryFn: () => getVisitor(id),
    meta: { errorShownOnScreen: true },
  });
}

export function useVisitor(id: number) {
  return useQuery(visitorQueryOptions(id));
}
