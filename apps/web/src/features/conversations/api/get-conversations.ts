// GET /api/msg/conversations/?page&page_size&<filters> → one page of the inbox, newest activity first.
// The screen loads pages while the loaded count is below the total (infinite scroll).
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT, ZConversation, ZEnvelope, ZPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';
import { CONVERSATIONS_STRINGS } from '../strings';
import type { TConversationQueryParams } from '../utils/filters';
import { nextConversationPage, type TConversationPage } from '../utils/live-list';

export const CONVERSATIONS_PATH = '/api/msg/conversations/';

/** Every conversation query of the business starts with this key. */
export const CONVERSATIONS_KEY = [BUSINESS_SCOPE, 'conversations'] as const;
export const CONVERSATION_LISTS_KEY = [...CONVERSATIONS_KEY, 'list'] as const;

export async function getConversations(
  params: TConversationQueryParams & { page: number },
  signal?: AbortSignal,
): Promise<TConversationPage> {
  const { data } = await protectedClient.get(CONVERSATIONS_PATH, {
    params: { ...params, page_size: PAGE_SIZE_DEFAULT },
    signal,
  });
  return ZEnvelope(ZPage(ZConversation)).parse(data).result;
}

export function conversationsQueryOptions(params: TConversationQueryParams) {
  return infiniteQueryOptions({
    queryKey: [...CONVERSATION_LISTS_KEY, params],
    queryFn: ({ pageParam, signal }) => getConversations({ ...params, page: pageParam }, signal),
    initialPageParam: 1,
    // Live changes shift the server's pages: duplicates are dropped when flattening, and the next
    // page is the one holding the row after the loaded ones.
    getNextPageParam: (_lastPage, allPages) => nextConversationPage(allPages, PAGE_SIZE_DEFAULT),
    meta: { errorToast: CONVERSATIONS_STRINGS.listFailed },
  });
}

export function useConversations(params: TConversationQueryParams) {
  return useInfiniteQuery(conversationsQueryOptions(params));
}
