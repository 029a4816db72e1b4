// POST /api/whatsapp/message/send-template/ {conversation_id, name, language, components} → the
// stored template message, shown at once. The only thing that may be sent once the 24-hour window
// has closed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  WHATSAPP_TIMEOUT_MS,
  ZEnvelope,
  ZMessage,
  type TMessage,
  type TSendTemplateRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { applyMessageChange, type TMessagePages } from '../utils/live-list';
import { messagesQueryKey } from './get-messages';

export const SEND_TEMPLATE_PATH = '/api/whatsapp/message/send-template/';

export async function sendWhatsappTemplate(body: TSendTemplateRequest): Promise<TMessage> {
  const { data } = await protectedClient.post(SEND_TEMPLATE_PATH, body, { timeout: WHATSAPP_TIMEOUT_MS });
  return ZEnvelope(ZMessage).parse(data).result;
}

export function useSendWhatsappTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWhatsappTemplate,
    onSuccess: (message) => {
      queryClient.setQueryData<TMessagePages>(messagesQueryKey(message.conversation_id), (data) =>
        applyMessageChange(data, { event: 'INSERT', new: message }),
      );
    },
  });
}
