// The customer lists API: /api/business/customer-lists/ (list, read, create, update, delete, members).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZCustomerList,
  ZDirectoryVisitor,
  ZEnvelope,
  ZListMembersResult,
  ZPage,
  type TCreateCustomerListRequest,
  type TCustomerList,
  type TListMembersResult,
  type TUpdateCustomerListRequest,
} from '@titan/contracts';
import { type z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const LISTS_API_PATH = '/api/business/customer-lists/';
export const LISTS_PAGE_SIZE = 20;
export const MEMBERS_PAGE_SIZE = 20;
const DIRECTORY_API_PATH = '/api/business/customer-directory/';

/** Every lists query of the business starts with this key; members follow the directory too. */
export const LISTS_KEY = [BUSINESS_SCOPE, 'customer-lists'] as const;

const ZListPage = ZPage(ZCustomerList);
const ZVisitorPage = ZPage(ZDirectoryVisitor);
export type TListPage = z.infer<typeof ZListPage> & { page: number };
export type TMemberPage = z.infer<typeof ZVisitorPage> & { page: number };

export function useLists(page: number) {
  return useQuery({
    queryKey: [...LISTS_KEY, 'page', page],
    queryFn: async ({ signal }): Promise<TListPage> => {
      const { data } = await protectedClient.get(LISTS_API_PATH, {
        params: { page, page_size: LISTS_PAGE_SIZE },
        signal,
      });
      return { ...ZEnvelope(ZListPage).parse(data).result, page };
    },
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useList(id: number) {
  return useQuery({
    queryKey: [...LISTS_KEY, 'one', id],
    queryFn: async ({ signal }): Promise<TCustomerList> => {
      const { data } = await protectedClient.get(`${LISTS_API_PATH}${id}/`, { signal });
      return ZEnvelope(ZCustomerList).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useListMembers(id: number, page: number) {
  return useQuery({
    queryKey: [...LISTS_KEY, 'members', id, page],
    queryFn: async ({ signal }): Promise<TMemberPage> => {
      const { data } = await protectedClient.get(`${LISTS_API_PATH}${id}/members/`, {
        params: { page, page_size: MEMBERS_PAGE_SIZE },
        signal,
      });
      return { ...ZEnvelope(ZVisitorPage).parse(data).result, page };
    },
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

/** Directory search for adding members (the first page of matches). */
export function useDirectorySearch(search: string) {
  return useQuery({
    queryKey: [BUSINESS_SCOPE, 'directory', 'list', { search, page: 1, for: 'lists' }],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(DIRECTORY_API_PATH, {
        params: { ...(search ? { search } : {}), page: 1, page_size: 10 },
        signal,
      });
      return ZEnvelope(ZVisitorPage).parse(data).result;
    },
    placeholderData: keepPreviousData,
  });
}

function useInvalidateLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: LISTS_KEY });
}

export function useCreateList() {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: async (body: TCreateCustomerListRequest): Promise<TCustomerList> => {
      const { data } = await protectedClient.post(LISTS_API_PATH, body);
      return ZEnvelope(ZCustomerList).parse(data).result;
    },
    onSuccess: () => void invalidate(),
  });
}

export function useUpdateList(id: number) {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: async (body: TUpdateCustomerListRequest): Promise<TCustomerList> => {
      const { data } = await protectedClient.put(`${LISTS_API_PATH}${id}/`, body);
      return ZEnvelope(ZCustomerList).parse(data).result;
    },
    onSuccess: () => void invalidate(),
  });
}

export function useDeleteList(id: number) {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: async () => {
      await protectedClient.delete(`${LISTS_API_PATH}${id}/`);
    },
    onSuccess: () => void invalidate(),
  });
}

export function useChangeMembers(id: number, change: 'add' | 'remove') {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: async (customerIds: number[]): Promise<TListMembersResult> => {
      const path = change === 'add' ? 'members/' : 'members/remove/';
      const { data } = await protectedClient.post(`${LISTS_API_PATH}${id}/${path}`, {
        customer_ids: customerIds,
      });
      return ZEnvelope(ZListMembersResult).parse(data).result;
    },
    onSuccess: () => void invalidate(),
  });
}
