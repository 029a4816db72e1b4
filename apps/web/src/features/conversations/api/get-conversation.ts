// GET /api/msg/conversations/{id}/ → the conversation shown in the pane. Seeded from a loaded list
// row when there is one, so opening a row shows its header at once.
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ZConversation, ZEnvelope, type TConversation } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { flattenConversations, replaceConversation, type TConversationPages } from '../utils/live-list';
import { CONVERSATION_LISTS_KEY, CONVERSATIONS_KEY, CONVERSATIONS_PATH } from './get-conversations';

export async function getConversation(id: number): Promise<TConversation> {
  const { data } = await protectedClient.get(`${CONVERSATIONS_PATH}${id}/`);
  return ZEnvelope(ZConversation).parse(data).result;
}

export function conversationQueryKey(id: number) {
  return [...CONVERSATIONS_KEY, 'detail', id] as const;
}

function fromLoadedLists(queryClient: QueryClient, id: number): TConversation | undefined {
  for (const [, data] of queryClient.getQueriesData<TConversationPages>({
    queryKey: CONVERSATION_LISTS_KEY,
  })) {
    const row = flattenConversations(data).find((c) => c.id === id);
    if (row) return row;
  }
  return undefined;
}

export function conversationQueryOptions(queryClient: QueryClient, id: number) {
  return queryOptions({
    queryKey: conversationQueryKey(id),
    queryFn: () => getConversation(id),
    initialData: () => fromLoadedLists(queryClient, id),
    // A list row is as fresh as its list: the realtime feed keeps both current.
    initialDataUpdatedAt: () => Date.now(),
    meta: { errorToast: true },
  });
}

export function useConversation(id: number) {
  const queryClient = useQueryClient();
  return useQuery(conversationQueryOptions(queryClient, id));
}

/** A newer copy of a conversation (a PUT answer, a live change): the pane and every loaded list show
 * it, each list in place. */
export function storeConversation(queryClient: QueryClient, conversation: TConversation): void {
  queryClient.setQueryData<TConversation>(conversationQueryKey(conversation.id), (old) =>
    old ? conversation : old,
  );
  queryClient.setQueriesData<TConversationPages>({ queryKey: CONVERSATION_LISTS_KEY }, (data) =>
    data ? replaceConversation(data, conversation) : data,
  );
}
