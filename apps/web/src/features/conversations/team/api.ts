// The team inbox's calls (next-api.md "Team inbox"): the views' counts, bulk changes and notes.
// Assigning one conversation is PUT /api/msg/conversations/{id}/ {assignee_id} (useUpdateConversation).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZBulkConversationResult,
  ZChatGroup,
  ZConversationCounts,
  ZEnvelope,
  ZMessage,
  type TBulkConversationRequest,
  type TConversationCounts,
  type TMessage,
} from '@titan/contracts';

import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { CONVERSATIONS_KEY, CONVERSATIONS_PATH } from '../api/get-conversations';
import { messagesQueryKey } from '../api/get-messages';
import { applyMessageChange, type TMessagePages } from '../utils/live-list';

export const COUNTS_KEY = [...CONVERSATIONS_KEY, 'counts'] as const;

export async function getConversationCounts(): Promise<TConversationCounts> {
  const { data } = await protectedClient.get(`${CONVERSATIONS_PATH}counts/`);
  return ZEnvelope(ZConversationCounts).parse(data).result;
}

export function useConversationCounts() {
  return useQuery({ queryKey: COUNTS_KEY, queryFn: getConversationCounts });
}

/** The business's chat groups, for the "by chat group" views (any staff member may read them). */
export function useChatGroupChoices() {
  return useQuery({
    queryKey: [...CONVERSATIONS_KEY, 'group-choices'],
    queryFn: async () => {
      const { data } = await protectedClient.get('/api/msg/chat-groups/');
      return ZEnvelope(z.array(ZChatGroup))
        .parse(data)
        .result.map((g) => ({ id: g.id, name: g.name }));
    },
  });
}

export async function bulkUpdate(body: TBulkConversationRequest) {
  const { data } = await protectedClient.post(`${CONVERSATIONS_PATH}bulk/`, body);
  return ZEnvelope(ZBulkConversationResult).parse(data).result;
}

/** A bulk change; the lists and counts are fetched again (the live feed also moves the rows). */
export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkUpdate,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY }),
  });
}

export async function addNote({
  conversationId,
  content,
}: {
  conversationId: number;
  content: string;
}): Promise<TMessage> {
  const { data } = await protectedClient.post(`${CONVERSATIONS_PATH}${conversationId}/notes/`, { content });
  return ZEnvelope(ZMessage).parse(data).result;
}

export function useAddNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addNote,
    onSuccess: (message) =>
      queryClient.setQueryData<TMessagePages>(messagesQueryKey(message.conversation_id), (data) =>
        applyMessageChange(data, { event: 'INSERT', new: message }),
      ),
  });
}
