// Keeps the open conversation's messages live (spec section 4): an insert appends, an update replaces
// the message with the same id; a new customer WhatsApp message refetches the 24-hour window. Typing
// signals go to the typing store (use-typing.ts). A resync (or a fresh subscription) refetches the loaded pages.
import { useQueryClient } from '@tanstack/react-query';
import { ZMessage } from '@titan/contracts';
import { useEffect } from 'react';

import { realtimeClient } from '../../../lib/realtime';
import { messagesQueryKey } from '../api/get-messages';
import { whatsappWindowQueryKey } from '../api/get-whatsapp-window';
import { isWhatsAppMessage } from '../utils/display';
import { applyMessageChange, type TMessagePages } from '../utils/live-list';
import { heardTyping, stoppedTyping } from './use-typing';

export function useLiveMessages(businessCode: string | null, conversationId: number): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const queryKey = messagesQueryKey(conversationId);
    return realtimeClient().subscribe(
      {
        topic: 'messages',
        conversation_id: conversationId,
        ...(businessCode ? { business_code: businessCode } : {}),
      },
      {
        onChange: (change) => {
          if (change.table !== 'messages' && change.table !== 'wa_messages') return;
          const parsed = ZMessage.safeParse(change.new);
          if (!parsed.success || parsed.data.conversation_id !== conversationId) return;
          const message = parsed.data;
          queryClient.setQueryData<TMessagePages>(queryKey, (data) =>
            applyMessageChange(data, { event: change.event, new: message }),
          );
          // Whoever sent it has stopped typing.
          if (
            change.event === 'INSERT' &&
            (message.sender_type === 'customer' || message.sender_type === 'staff')
          )
            stoppedTyping(conversationId, { type: message.sender_type, id: message.sender_id });
          // A customer's WhatsApp message opens (or renews) the 24-hour window.
          if (change.event === 'INSERT' && message.sender_type === 'customer' && isWhatsAppMessage(message))
            void queryClient.invalidateQueries({ queryKey: whatsappWindowQueryKey(conversationId) });
        },
        onResync: () => void queryClient.invalidateQueries({ queryKey, exact: true }),
        onTyping: (typing) => {
          if (typing.conversation_id === conversationId) heardTyping(conversationId, typing.who);
        },
      },
    );
  }, [businessCode, conversationId, queryClient]);
}
