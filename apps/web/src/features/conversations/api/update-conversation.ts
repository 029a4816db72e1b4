// PUT /api/msg/conversations/{id}/ {status} or {is_read} → the conversation, which replaces the
// selected one and its rows in the loaded lists.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZConversation,
  ZEnvelope,
  type TConversation,
  type TUpdateConversationRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { storeConversation } from './get-conversation';
import { CONVERSATIONS_PATH } from './get-conversations';

export async function updateConversation({
  id,
  ...body
}: TUpdateConversationRequest & { id: number }): Promise<TConversation> {
  const { data } = await protectedClient.put(`${CONVERSATIONS_PATH}${id}/`, body);
  return ZEnvelope(ZConversation).parse(data).result;
}

export function useUpdateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConversation,
    onSuccess: (conversation) => storeConversation(queryClient, conversation),
  });
}
