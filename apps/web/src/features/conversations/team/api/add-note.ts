// POST /api/msg/conversations/{id}/notes/ {content} → the internal note, added to the open thread at
// once. Assigning one conversation is PUT /api/msg/conversations/{id}/ {assignee_id}
// (useUpdateConversation).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZMessage, type TMessage } from '@titan/contracts';

import { protectedClient } from '../../../../lib/protected-client';
import { CONVERSATIONS_PATH } from '../../api/get-conversations';
import { messagesQueryKey } from '../../api/get-messages';
import { applyMessageChange, type TMessagePages } from '../../utils/live-list';

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
