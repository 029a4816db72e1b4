// One conversation: the group's greeting, the messages as they arrive, who of the staff is typing,
// the request for an email while nobody is online, and the composer.
import { useEffect, useRef } from 'react';
import type { TGroupAvailability, TPublicMessage } from '@titan/contracts';
import { useT } from '../i18n';
import { AwayEmail, type TAway } from './away-email';
import { ClosedNotice } from './closed-notice';
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
  onTyping?(): void;
  /** The staff member typing in this conversation now, if any. */
  typingName?: string | null;
  /** Nobody is online: ask for the visitor's email (null: do not ask). */
  away?: TAway | null;
  /** Outside business hours: the away message and when the team is back (null: open). */
  closed?: TGroupAvailability | null;
};

export function ChatView({
  greeting,
  staffName,
  messages,
  loadError,
  focusKey,
  onSendText,
  onSendFile,
  onTyping,
  typingName = null,
  away = null,
  closed = null,
}: Props) {
  const { t } = useT();
  const logRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, typingName]);

  return (
    <section className="chat" aria-label={t('conversation_label')}>
      <ol ref={logRef} className="log" role="log" aria-label={t('messages_label')} aria-live="polite">
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
      <p className="typing" role="status">
        {typingName ? t('typing', { name: typingName }) : ''}
      </p>
      {closed ? <ClosedNotice availability={closed} /> : null}
      {away ? <AwayEmail away={away} /> : null}
      {loadError ? (
        <p className="error" role="alert">
          {loadError}
        </p>
      ) : null}
      <Composer focusKey={focusKey} onSendText={onSendText} onSendFile={onSendFile} onTyping={onTyping} />
    </section>
  );
}
