// The right pane (spec sections 2 and 4): nothing selected → the empty state; otherwise the header,
// the live messages and the composer. Opening an unread conversation marks it read.
import { MessageSquareIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';

import { Spinner } from '../../../components/ui/spinner';
import { reportApiError } from '../../../lib/api-errors';
import { useConversation } from '../api/get-conversation';
import { useUpdateConversation } from '../api/update-conversation';
import { useLiveMessages } from '../hooks/use-live-messages';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { Composer } from './composer';
import { ConversationHeader } from './conversation-header';
import { MessageList } from './message-list';

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
    <div className="flex min-h-0 flex-1 flex-col">
      <ConversationHeader conversation={conversation} backHref={backHref} />
      <MessageList conversation={conversation} />
      <Composer conversation={conversation} />
    </div>
  );
}
