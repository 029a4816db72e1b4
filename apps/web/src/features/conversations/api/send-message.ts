// POST /api/msg/conversations/{id}/messages/ {message_type: 'text', content} or {message_type: 'file',
// content: <upload key>} → the message, shown at once (the live feed then finds it already there).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZMessage, type TMessage, type TSendMessageRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { applyMessageChange, type TMessagePages } from '../utils/live-list';
import { messagesPath, messagesQueryKey } from './get-messages';

export async function sendMessage({
  conversationId,
  ...body
}: TSendMessageRequest & { conversationId: number }): Promise<TMessage> {
  const { data } = await protectedClient.post(messagesPath(conversationId), body);
  return ZEnvelope(ZMessage).parse(data).result;
}

export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onSuccess: (message) => {
      queryClient.setQueryData<TMessagePages>(messagesQueryKey(message.conversation_id), (data) =>
        applyMessageChange(data, { event: 'INSERT', new: message }),
      );
    },
  });
}
