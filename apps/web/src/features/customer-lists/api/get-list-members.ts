// GET /api/business/customer-lists/{id}/members/?page&page_size → one page of a list's members.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZDirectoryVisitor, ZEnvelope, ZPage } from '@titan/contracts';
import { type z } from 'zod';

import { CUSTOMER_LISTS_KEY } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';
import { listApiPath } from './get-list';

export const MEMBERS_PAGE_SIZE = 20;

const ZVisitorPage = ZPage(ZDirectoryVisitor);
export type TMemberPage = z.infer<typeof ZVisitorPage> & { page: number };

export async function getListMembers(id: number, page: number, signal?: AbortSignal): Promise<TMemberPage> {
  const { data } = await protectedClient.get(`${listApiPath(id)}members/`, {
    params: { page, page_size: MEMBERS_PAGE_SIZE },
    signal,
  });
  return { ...ZEnvelope(ZVisitorPage).parse(data).result, page };
}

export function listMembersQueryOptions(id: number, page: number) {
  return queryOptions({
    queryKey: [...CUSTOMER_LISTS_KEY, 'members', id, page],
    queryFn: ({ signal }) => getListMembers(id, page, signal),
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useListMembers(id: number, page: number) {
  return useQuery(listMembersQueryOptions(id, page));
}
