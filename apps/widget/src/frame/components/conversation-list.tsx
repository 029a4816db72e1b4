// The visitor's conversations, newest first, with their unread counts, and a way to start another.
import { useEffect, useRef } from 'react';
import type { TConversation } from '@titan/contracts';
import { formatListTime } from '../format';
import { TEXT } from '../text';

type Props = {
  conversations: TConversation[];
  unread: Record<number, number>;
  focusKey: number;
  onOpen(id: number): void;
  onStart(): void;
};

export function ConversationList({ conversations, unread, focusKey, onOpen, onStart }: Props) {
  const startRef = useRef<HTMLButtonElement>(null);
  useEffect(() => startRef.current?.focus(), [focusKey]);

  return (
    <section className="list" aria-labelledby="list-title">
      <h2 id="list-title">{TEXT.yourConversations}</h2>
      {conversations.length === 0 ? <p className="muted">{TEXT.noConversations}</p> : null}
      <ul aria-labelledby="list-title">
        {conversations.map((conversation) => {
          const count = unread[conversation.id] ?? 0;
          return (
            <li key={conversation.id}>
              <button type="button" className="row" onClick={() => onOpen(conversation.id)}>
                <span className="row-title">{conversation.title}</span>
                <span className="row-meta">
                  {count > 0 ? <span className="count">{TEXT.unreadIn(count)}</span> : null}
                  <time dateTime={conversation.last_message_at ?? conversation.created_at}>
                    {formatListTime(conversation.last_message_at ?? conversation.created_at)}
                  </time>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <button ref={startRef} type="button" className="primary" onClick={onStart}>
        {TEXT.newConversation}
      </button>
    </section>
  );
}
