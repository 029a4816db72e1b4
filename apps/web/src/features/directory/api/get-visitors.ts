// GET /api/business/customer-directory/?search&page&page_size → one page of visitors, newest first
// (a search's count stops at DIRECTORY_COUNT_CAP: `count_capped`).
// The previous page stays on screen while the next one (or a new search) loads.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZDirectoryPage, ZEnvelope } from '@titan/contracts';
import type { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { DIRECTORY_API_PATH, DIRECTORY_KEY } from '../../../lib/customers/keys';

export { DIRECTORY_API_PATH, DIRECTORY_KEY };
export const DIRECTORY_PAGE_SIZE = 20;
export const DIRECTORY_LISTS_KEY = [...DIRECTORY_KEY, 'list'] as const;

const ZVisitorPage = ZDirectoryPage;
/** `label`: a label's id (the customers carrying it), or none. */
export type TVisitorListParams = { search: string; page: number; label?: number | null };
/** A page of the answer, with the page number it is: while the next page loads, the previous one
 * stays on screen and must still say which rows it holds. */
export type TVisitorPage = z.infer<typeof ZVisitorPage> & { page: number };

export async function getVisitors(
  { search, page, label }: TVisitorListParams,
  signal?: AbortSignal,
): Promise<TVisitorPage> {
  const { data } = await protectedClient.get(DIRECTORY_API_PATH, {
    params: {
      ...(search ? { search } : {}),
      ...(label ? { label } : {}),
      page,
      page_size: DIRECTORY_PAGE_SIZE,
    },
    signal,
  });
  return { ...ZEnvelope(ZVisitorPage).parse(data).result, page };
}

export function visitorsQueryOptions(params: TVisitorListParams) {
  return queryOptions({
    queryKey: [...DIRECTORY_LISTS_KEY, params],
    queryFn: ({ signal }) => getVisitors(params, signal),
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useVisitors(params: TVisitorListParams) {
  return useQuery(visitorsQueryOptions(params));
}
