// Live updates for the visitor's conversations: one socket per session token, following the list and
// the messages of the most recent conversations; a resync or a lost session is handed back.
import { useEffect, useEffectEvent, useRef } from 'react';
import type { TConversation, TRealtimeChange, TRealtimeTyping } from '@titan/contracts';

import { VisitorSocket, type TTopic } from '../realtime';

/** Live message feeds are kept for this many of the visitor's most recent conversations. */
const FOLLOWED_CONVERSATIONS = 20;

type THandlers = {
  onChange: (change: TRealtimeChange) => void;
  onResync: (topic: TTopic) => void;
  onUnauthorized: () => void;
  onTyping: (typing: TRealtimeTyping) => void;
};

export function useLiveChat(
  token: string | null,
  business: string,
  conversations: TConversation[],
  handlers: THandlers,
) {
  const onChange = useEffectEvent(handlers.onChange);
  const onResync = useEffectEvent(handlers.onResync);
  const onUnauthorized = useEffectEvent(handlers.onUnauthorized);
  const onTyping = useEffectEvent(handlers.onTyping);

  const socketRef = useRef<VisitorSocket | null>(null);
  useEffect(() => {
    if (!token) return;
    const live = new VisitorSocket(token, {
      onChange: (change) => onChange(change),
      onResync: (topic) => onResync(topic),
      onUnauthorized: () => onUnauthorized(),
      onTyping: (typing) => onTyping(typing),
    });
    live.subscribe('conversations', { topic: 'conversations', business_code: business });
    socketRef.current = live;
    return () => {
      live.close();
      if (socketRef.current === live) socketRef.current = null;
    };
  }, [token, business]);
  // Runs after the socket effect whenever the token changes, so a new socket follows them too.
  useEffect(() => {
    const live = socketRef.current;
    if (!live) return;
    for (const conversation of conversations.slice(0, FOLLOWED_CONVERSATIONS)) {
      // An open conversation may be answered before its feed is acknowledged: it is fetched then.
      live.subscribe(
        `m${conversation.id}`,
        { topic: 'messages', conversation_id: conversation.id },
        { catchUp: conversation.status === 'active' },
      );
    }
  }, [token, conversations]);

  /** The visitor is typing in this conversation: staff hear it (throttled by the socket). */
  return (conversationId: number) => socketRef.current?.typing(conversationId);
}
