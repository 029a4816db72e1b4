// The right pane (spec sections 2 and 4): nothing selected → the empty state; otherwise the header,
// the live messages, who is typing, the composer, and the customer panel beside them. Opening an unread conversation marks it read. A WhatsApp
// message's "Reply" puts it above the composer, which sends the reply with its context.
import { MessageSquareIcon } from 'lucide-react';
import type { TMessage } from '@titan/contracts';
import { useEffect, useRef, useState } from 'react';

import { Spinner } from '../../../components/ui/spinner';
import { reportApiError } from '../../../lib/api-errors';
import { useConversation } from '../api/get-conversation';
import { useWhatsappWindow } from '../api/get-whatsapp-window';
import { useUpdateConversation } from '../api/update-conversation';
import { useLiveMessages } from '../hooks/use-live-messages';
import { MediaFailureContext, useMediaFailureNotifier } from '../hooks/use-media-failure-notice';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { Composer } from './composer';
import { ConversationHeader } from './conversation-header';
import { MessageList } from './message-list';
import { TypingIndicator } from '../team/typing-indicator';
import { CustomerPanel } from '../customer/customer-panel';
import { useCustomerPanel } from '../customer/use-customer-panel';

export function NoConversationSelected() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 p-8 text-center">
      <MessageSquareIcon aria-hidden="true" className="size-10 text-muted-foreground" />
      <h2 className="font-medium">{S.noSelection}</h2>
      <p className="text-sm text-muted-foreground">{S.noSelectionText}</p>
    </div>
  );
}

export function ConversationPane({
  conversationId,
  businessCode,
  backHref,
}: {
  conversationId: number;
  businessCode: string | null;
  backHref: string;
}) {
  const query = useConversation(conversationId);
  useLiveMessages(businessCode, conversationId);
  const conversation = query.data;
  // The WhatsApp message the next send replies to; replies need the 24-hour window open.
  const [replyTo, setReplyTo] = useState<TMessage | null>(null);
  const whatsapp = conversation?.channel === 'whatsapp';
  const serviceWindow = useWhatsappWindow(conversationId, whatsapp);
  const canReply = whatsapp && serviceWindow.data?.open !== false;
  // The pane is keyed by conversation: one media failure toast per conversation view.
  const notifyMediaFailure = useMediaFailureNotifier();
  const customerPanel = useCustomerPanel();

  // Read once per unread state: a new customer message while it is open makes it unread again.
  const markRead = useUpdateConversation();
  const { mutate: markReadMutate } = markRead;
  const markedFor = useRef<string | null>(null);
  const unreadKey =
    conversation && !conversation.is_read ? `${conversation.id}:${conversation.last_message_at}` : null;
  useEffect(() => {
    if (!unreadKey || markedFor.current === unreadKey) return;
    markedFor.current = unreadKey;
    markReadMutate(
      { id: conversationId, is_read: true },
      { onError: (error) => reportApiError(error, { toast: true }) },
    );
  }, [unreadKey, conversationId, markReadMutate]);

  if (!conversation) {
    return query.isError ? (
      <NoConversationSelected />
    ) : (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner className="size-6" />
      </div>
    );
  }
  return (
    <div className="relative flex min-h-0 flex-1">
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <ConversationHeader
          conversation={conversation}
          backHref={backHref}
          customerPanel={{ open: customerPanel.open, toggle: customerPanel.toggle }}
        />
        <MediaFailureContext.Provider value={notifyMediaFailure}>
          <MessageList conversation={conversation} onReply={canReply ? setReplyTo : undefined} />
        </MediaFailureContext.Provider>
        <TypingIndicator conversationId={conversation.id} />
        <Composer conversation={conversation} replyTo={replyTo} onClearReply={() => setReplyTo(null)} />
      </div>
      {customerPanel.open ? (
        <CustomerPanel
          customerId={conversation.initiator?.id ?? null}
          conversationId={conversation.id}
          onClose={() => customerPanel.setOpen(false)}
        />
      ) : null}
    </div>
  );
}
