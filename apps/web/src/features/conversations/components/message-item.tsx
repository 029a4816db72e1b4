// One message in the conversation pane: the sender's avatar with initials, the body by channel and
// type, the time, and for outgoing WhatsApp messages the delivery status.
import type { TConversation, TMessage } from '@titan/contracts';

import { cn } from '../../../lib/utils';
import { initiatorName, initials, isOutgoing, isWhatsAppMessage } from '../utils/display';
import { formatMessageTime } from '../utils/format-time';
import { OwnChannelContent } from './own-channel-content';
import { StatusTicks } from './status-ticks';
import { WhatsAppContent } from './whatsapp-content';

export function Avatar({ name }: { name: string }) {
  return (
    <span
      role="img"
      aria-label={name}
      title={name}
      className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-xs font-semibold text-muted-foreground"
    >
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  );
}

function senderName(message: TMessage, conversation: Pick<TConversation, 'initiator'>): string {
  const name = message.sender?.name?.trim();
  if (name) return name;
  return message.sender_type === 'customer' ? initiatorName(conversation) : (message.sender?.email ?? '');
}

export function MessageItem({
  message,
  conversation,
}: {
  message: TMessage;
  conversation: Pick<TConversation, 'initiator'>;
}) {
  const outgoing = isOutgoing(message);
  const whatsapp = isWhatsAppMessage(message);
  return (
    <li
      data-message-id={String(message.id)}
      className={cn('flex items-end gap-2', outgoing ? 'flex-row-reverse' : 'flex-row')}
    >
      <Avatar name={senderName(message, conversation)} />
      <div
        className={cn(
          'flex max-w-[75%] min-w-0 flex-col gap-1 rounded-lg px-3 py-2',
          outgoing ? 'bg-primary/10' : 'bg-muted',
        )}
      >
        {whatsapp ? <WhatsAppContent message={message} /> : <OwnChannelContent message={message} />}
        <div
          className={cn('flex items-center gap-1 text-xs text-muted-foreground', outgoing && 'justify-end')}
        >
          <time dateTime={message.created_at}>{formatMessageTime(message.created_at)}</time>
          {whatsapp && outgoing && message.status ? <StatusTicks status={message.status} /> : null}
        </div>
      </div>
    </li>
  );
}
