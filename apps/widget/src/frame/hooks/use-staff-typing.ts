// "<name> is typing…": shown when staff type in a conversation, until their message arrives or a few
// quiet seconds pass.
import { useEffect, useRef, useState } from 'react';
import type { TRealtimeTyping } from '@titan/contracts';

/** How long "… is typing" stays without another typing signal. */
const TYPING_SHOWN_MS = 5_000;

export function useStaffTyping(fallbackName: string) {
  const [typing, setTyping] = useState<{ conversationId: number; name: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onTyping = (signal: TRealtimeTyping) => {
    if (signal.who.type !== 'staff') return;
    setTyping({ conversationId: signal.conversation_id, name: signal.who.name || fallbackName });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setTyping(null), TYPING_SHOWN_MS);
  };
  /** Staff's message arrived in this conversation: they are no longer typing there. */
  const answered = (conversationId: number) =>
    setTyping((prev) => (prev?.conversationId === conversationId ? null : prev));
  /** Who is typing in this conversation, or null. */
  const typingIn = (conversationId: number | null) =>
    typing && typing.conversationId === conversationId ? typing.name : null;
  return { onTyping, answered, typingIn };
}
