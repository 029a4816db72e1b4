// GET /api/business/customer-lists/?page&page_size → the business's lists and segments, a page at a
// time. The one fetcher of lists: the lists screen pages through them, and every picker (an agent's
// audience, a QR form's list, an import's list) takes them all through customerListChoicesQueryOptions.
// Creating, changing or deleting a list invalidates CUSTOMER_LISTS_KEY, so every picker follows.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  PAGE_SIZE_MAX,
  ZCustomerList,
  ZEnvelope,
  ZPage,
  type TCustomerList,
  type TCustomerListKind,
} from '@titan/contracts';
import { type z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const CUSTOMER_LISTS_PATH = '/api/business/customer-lists/';

/** Every customer-list query of the business starts with this key (one list and its members too). */
export const CUSTOMER_LISTS_KEY = [BUSINESS_SCOPE, 'customer-lists'] as const;

const ZListPage = ZPage(ZCustomerList);
export type TCustomerListPage = z.infer<typeof ZListPage> & { page: number };

export async function getCustomerLists(
  params: { page: number; page_size: number },
  signal?: AbortSignal,
): Promise<TCustomerListPage> {
  const { data } = await protectedClient.get(CUSTOMER_LISTS_PATH, { params, signal });
  return { ...ZEnvelope(ZListPage).parse(data).result, page: params.page };
}

/** One page of lists, as the lists screen shows them (the last page stays while the next loads). */
export function customerListsQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...CUSTOMER_LISTS_KEY, 'page', page, pageSize],
    queryFn: ({ signal }) => getCustomerLists({ page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useCustomerLists(page: number, pageSize: number) {
  return useQuery(customerListsQueryOptions(page, pageSize));
}

/** Lists beyond the first pages are rare for a picker; this many pages are offered. */
const MAX_CHOICE_PAGES = 5;

/** Every list and segment a picker offers (up to MAX_CHOICE_PAGES full pages), in the API's order. */
export async function getCustomerListChoices(signal?: AbortSignal): Promise<TCustomerList[]> {
  const lists: TCustomerList[] = [];
  for (let page = 1; page <= MAX_CHOICE_PAGES; page += 1) {
    const result = await getCustomerLists({ page, page_size: PAGE_SIZE_MAX }, signal);
    lists.push(...result.results);
    if (result.next === null) break;
  }
  return lists;
}

/**
 * The lists a picker offers; `kind` keeps one kind (static lists take members, segments follow
 * their conditions). One cached answer for every picker, whatever the kind.
 */
export function customerListChoicesQueryOptions(kind?: TCustomerListKind) {
  return queryOptions({
    queryKey: [...CUSTOMER_LISTS_KEY, 'choices'],
    queryFn: ({ signal }) => getCustomerListChoices(signal),
    select: kind ? (lists: TCustomerList[]) => lists.filter((list) => list.kind === kind) : undefined,
  });
}

export function useCustomerListChoices(kind?: TCustomerListKind) {
  return useQuery(customerListChoicesQueryOptions(kind));
}
