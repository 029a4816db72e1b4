// GET /api/msg/search/?q=&page= (issue 29): matches with their conversation and a highlight.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZSearchPage, type TSearchPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const SEARCH_PATH = '/api/msg/search/';

export async function searchInbox(q: string, page = 1): Promise<TSearchPage> {
  const { data } = await protectedClient.get(SEARCH_PATH, { params: { q, page } });
  return ZEnvelope(ZSearchPage).parse(data).result;
}

/** Whether the text holds something to search for (the server refuses the rest with 400). */
export const searchable = (q: string) => /[\p{L}\p{N}]/u.test(q) && q.trim().length <= 200;

export function useInboxSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: ['inbox-search', text],
    queryFn: () => searchInbox(text),
    enabled: searchable(text),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
