// One message in the conversation pane: the sender's avatar with initials, the body by channel and
// type, the time, and for outgoing WhatsApp messages the delivery status (with the reason under the
// bubble when it failed). A WhatsApp reply quotes the message it answers when that one is loaded.
// Under an AI answer, its rating; under a staff reply, "Turn into an article".
import type { TConversation, TMessage } from '@titan/contracts';
import { ReplyIcon } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import {
  failureReason,
  initials,
  isOutgoing,
  isWhatsAppMessage,
  messageSummary,
  senderName,
} from '../utils/display';
import { formatMessageTime } from '../utils/format-time';
import { OwnChannelContent } from './own-channel-content';
import { StatusTicks } from './status-ticks';
import { WhatsAppContent } from './whatsapp-content';
import { EmailContent } from '../email/email-content';
import { isEmailMessage } from '../email/email-utils';
import { IconTooltip } from '../../../components/ui/tooltip';
import { usePermissions } from '../../../lib/business/roles';
import { AiRating } from './ai-rating';
import { ReplyToArticle } from './reply-to-article';

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

function Quote({
  message,
  conversation,
}: {
  message: TMessage;
  conversation: Pick<TConversation, 'initiator'>;
}) {
  return (
    <blockquote
      aria-label={S.quotedMessage}
      className="rounded border-l-2 border-primary/60 bg-background/60 px-2 py-1 text-xs"
    >
      <p className="font-medium">{senderName(message, conversation)}</p>
      <p className="line-clamp-2 text-muted-foreground">{messageSummary(message)}</p>
    </blockquote>
  );
}

export function MessageItem({
  message,
  conversation,
  quoted = null,
  onReply,
}: {
  message: TMessage;
  conversation: Pick<TConversation, 'initiator'>;
  /** The loaded message this one replies to (WhatsApp context). */
  quoted?: TMessage | null;
  /** Offers a "Reply" action (WhatsApp messages while replies can be sent). */
  onReply?: (message: TMessage) => void;
}) {
  const outgoing = isOutgoing(message);
  const whatsapp = isWhatsAppMessage(message);
  const name = senderName(message, conversation);
  const failure = whatsapp && outgoing && message.status === 'failed' ? failureReason(message) : null;
  // The AI first responder's answers (and its message handing off) are rated by staff.
  const aiRun =
    message.sender_type === 'agent' &&
    message.message_type !== 'note' &&
    typeof message.meta_data.run_id === 'string'
      ? message.meta_data.run_id
      : null;
  // A good staff reply can become a help-centre article draft (for those who write the knowledge base).
  const canWriteKb = usePermissions().can('engage.write');
  const staffReply =
    message.sender_type === 'staff' && message.message_type === 'text' && message.content.trim() !== '';
  return (
    <li
      data-message-id={String(message.id)}
      className={cn('group flex items-end gap-2', outgoing ? 'flex-row-reverse' : 'flex-row')}
    >
      <Avatar name={name} />
      <div className={cn('flex max-w-[75%] min-w-0 flex-col gap-1', outgoing ? 'items-end' : 'items-start')}>
        <div
          className={cn(
            'flex max-w-full min-w-0 flex-col gap-1 rounded-lg px-3 py-2',
            outgoing ? 'bg-primary/10' : 'bg-muted',
          )}
        >
          {quoted ? <Quote message={quoted} conversation={conversation} /> : null}
          {whatsapp ? (
            <WhatsAppContent message={message} />
          ) : isEmailMessage(message) ||
            (Array.isArray(message.meta_data.attachments) && message.meta_data.attachments.length > 0) ? (
            <EmailContent message={message} />
          ) : (
            <OwnChannelContent message={message} />
          )}
          <div
            className={cn('flex items-center gap-1 text-xs text-muted-foreground', outgoing && 'justify-end')}
          >
            <time dateTime={message.created_at}>{formatMessageTime(message.created_at)}</time>
            {whatsapp && outgoing && message.status ? <StatusTicks status={message.status} /> : null}
          </div>
        </div>
        {failure ? (
          <p role="note" aria-label={S.failedReason} className="text-xs break-words text-destructive">
            {failure}
          </p>
        ) : null}
        {aiRun ? <AiRating runId={aiRun} /> : null}
        {staffReply && canWriteKb ? <ReplyToArticle message={message} /> : null}
      </div>
      {whatsapp && onReply ? (
        <IconTooltip label={S.reply}>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={S.replyTo(name)}
            onClick={() => onReply(message)}
            className="size-7 self-center opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100 pointer-coarse:opacity-100"
          >
            <ReplyIcon aria-hidden="true" />
          </Button>
        </IconTooltip>
      ) : null}
    </li>
  );
}
