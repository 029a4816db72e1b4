// Keeps the shown conversation list live (spec section 4): subscribes to the business's conversation
// changes with the list's own filter and applies each change to that list's cache; the conversation
// open in the pane follows too. A resync (or a fresh subscription) refetches the list.
import { useQueryClient } from '@tanstack/react-query';
import { ZConversation, type TConversation } from '@titan/contracts';
import { useEffect } from 'react';

import { realtimeClient } from '../../../lib/realtime';
import { conversationQueryKey } from '../api/get-conversation';
import { conversationsQueryOptions } from '../api/get-conversations';
import type { TConversationQueryParams } from '../utils/filters';
import { applyConversationChange } from '../utils/live-list';
import { COUNTS_KEY } from '../team/api/get-conversation-counts';

export function useLiveConversations(businessCode: string | null, params: TConversationQueryParams): void {
  const queryClient = useQueryClient();
  // The params object is rebuilt on every render; its content is what matters.
  const paramsKey = JSON.stringify(params);
  useEffect(() => {
    if (!businessCode) return;
    const filter = JSON.parse(paramsKey) as TConversationQueryParams;
    const { queryKey } = conversationsQueryOptions(filter);
    return realtimeClient().subscribe(
      { topic: 'conversations', business_code: businessCode, filter: filter as Record<string, string> },
      {
        onChange: (change) => {
          if (change.table !== 'conversations') return;
          const parsed = ZConversation.safeParse(change.new);
          if (!parsed.success) return;
          const conversation = parsed.data;
          // The views' counts follow every change (one refetch, however many changes arrive).
          void queryClient.invalidateQueries({ queryKey: COUNTS_KEY });
          queryClient.setQueryData(queryKey, (data) =>
            applyConversationChange(data, {
              event: change.event,
              new: conversation,
              old: change.old,
              matches: change.matches,
            }),
          );
          queryClient.setQueryData<TConversation>(conversationQueryKey(conversation.id), (old) =>
            old ? conversation : old,
          );
        },
        onResync: () => void queryClient.invalidateQueries({ queryKey, exact: true }),
      },
    );
  }, [businessCode, paramsKey, queryClient]);
}
