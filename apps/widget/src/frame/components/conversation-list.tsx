// The visitor's conversations, newest first, with their unread counts, and a way to start another.
import { useEffect, useRef } from 'react';
import type { TConversation } from '@titan/contracts';
import { formatListTime } from '../format';
import { useT } from '../i18n';

type Props = {
  conversations: TConversation[];
  unread: Record<number, number>;
  focusKey: number;
  onOpen(id: number): void;
  onStart(): void;
};

export function ConversationList({ conversations, unread, focusKey, onOpen, onStart }: Props) {
  const startRef = useRef<HTMLButtonElement>(null);
  const tr = useT();
  const { t } = tr;
  useEffect(() => startRef.current?.focus(), [focusKey]);

  return (
    <section className="list" aria-labelledby="list-title">
      <h2 id="list-title">{t('your_conversations')}</h2>
      {conversations.length === 0 ? <p className="muted">{t('no_conversations')}</p> : null}
      <ul aria-labelledby="list-title">
        {conversations.map((conversation) => {
          const count = unread[conversation.id] ?? 0;
          return (
            <li key={conversation.id}>
              <button type="button" className="row" onClick={() => onOpen(conversation.id)}>
                <span className="row-title">{conversation.title}</span>
                <span className="row-meta">
                  {count > 0 ? <span className="count">{t('unread_count', { count })}</span> : null}
                  <time dateTime={conversation.last_message_at ?? conversation.created_at}>
                    {formatListTime(conversation.last_message_at ?? conversation.created_at, tr)}
                  </time>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <button ref={startRef} type="button" className="primary" onClick={onStart}>
        {t('new_conversation')}
      </button>
    </section>
  );
}
