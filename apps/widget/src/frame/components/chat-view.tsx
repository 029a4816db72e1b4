// One conversation: the group's greeting, the messages as they arrive, and the composer.
import { useEffect, useRef } from 'react';
import type { TPublicMessage } from '@titan/contracts';
import { TEXT } from '../text';
import { Composer } from './composer';
import { MessageItem } from './message-item';

type Props = {
  greeting: string;
  staffName: string;
  messages: TPublicMessage[];
  loadError: string | null;
  focusKey: number;
  onSendText(text: string): Promise<void>;
  onSendFile(file: File): Promise<void>;
};

export function ChatView({
  greeting,
  staffName,
  messages,
  loadError,
  focusKey,
  onSendText,
  onSendFile,
}: Props) {
  const logRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages]);

  return (
    <section className="chat" aria-label="Conversation">
      <ol ref={logRef} className="log" role="log" aria-label={TEXT.messages} aria-live="polite">
        {greeting ? (
          <li className="msg">
            <span className="who">{staffName}</span>
            <div className="bubble">{greeting}</div>
          </li>
        ) : null}
        {messages.map((message) => (
          <MessageItem key={String(message.id)} message={message} staffName={staffName} />
        ))}
      </ol>
      {loadError ? (
        <p className="error" role="alert">
          {loadError}
        </p>
      ) : null}
      <Composer focusKey={focusKey} onSendText={onSendText} onSendFile={onSendFile} />
    </section>
  );
}
