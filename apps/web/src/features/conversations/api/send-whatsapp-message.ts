// POST /api/whatsapp/conversations/{id}/messages/ (text, or uploaded media by id, optionally replying
// with context.message_id) → the stored message, shown at once. A 409 means the 24-hour window has
// closed: the window is fetched again so the composer offers templates.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  WHATSAPP_TIMEOUT_MS,
  ZEnvelope,
  ZMessage,
  type TMessage,
  type TWhatsappSendRequest,
} from '@titan/contracts';

import { apiErrorStatus } from '../../../lib/api-errors';
import { protectedClient } from '../../../lib/protected-client';
import { applyMessageChange, type TMessagePages } from '../utils/live-list';
import { messagesQueryKey } from './get-messages';
import { whatsappConversationPath, whatsappWindowQueryKey } from './get-whatsapp-window';

const CONFLICT = 409;

export type TWhatsappSendVariables = { conversationId: number; body: TWhatsappSendRequest };

export async function sendWhatsappMessage({
  conversationId,
  body,
}: TWhatsappSendVariables): Promise<TMessage> {
  const { data } = await protectedClient.post(`${whatsappConversationPath(conversationId)}messages/`, body, {
    timeout: WHATSAPP_TIMEOUT_MS,
  });
  return ZEnvelope(ZMessage).parse(data).result;
}

export function useSendWhatsappMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWhatsappMessage,
    onSuccess: (message) => {
      queryClient.setQueryData<TMessagePages>(messagesQueryKey(message.conversation_id), (data) =>
        applyMessageChange(data, { event: 'INSERT', new: message }),
      );
    },
    onError: (error, { conversationId }) => {
      if (apiErrorStatus(error) === CONFLICT)
        void queryClient.invalidateQueries({ queryKey: whatsappWindowQueryKey(conversationId) });
    },
  });
}
