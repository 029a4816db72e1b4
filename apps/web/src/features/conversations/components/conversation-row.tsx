// One row of the inbox (spec section 2): who, unread dot, two-line title, status and channel badges,
// the assigned group (cut at 25 characters) and when the last message came; under the title, a
// one-line preview of the last message (never a note: the server leaves notes out).
import type { TConversation } from '@titan/contracts';
import { PaperclipIcon } from 'lucide-react';
import { Link } from 'react-router';

import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { initiatorName, truncateGroupName } from '../utils/display';
import { formatLastMessageTime } from '../utils/format-time';
import { FitText } from '../../../components/fit-text';
import { AssigneeBadge } from '../team/assignee-badge';
import { LabelChips } from '../../../components/labels/label-chips';
import { SlaBadge } from '../sla/sla-badge';

export function StatusBadge({ status }: { status: TConversation['status'] }) {
  return (
    <Badge
      variant="outline"
      className={cn(
        status === 'active'
          ? 'border-emerald-600/40 text-emerald-700 dark:text-emerald-400'
          : 'text-muted-foreground',
      )}
    >
      {S.statusLabels[status]}
    </Badge>
  );
}

function LastMessagePreview({ preview }: { preview: TConversation['last_message_preview'] }) {
  if (!preview) return null;
  const text = preview.content.replace(/\s+/g, ' ').trim();
  const who = preview.sender_type === 'customer' ? null : S.previewSenders[preview.sender_type];
  return (
    <p
      data-testid="last-message-preview"
      className="flex min-w-0 items-center gap-1 text-xs text-muted-foreground"
    >
      {who ? <span className="shrink-0 font-medium">{who}:</span> : null}{' '}
      {preview.message_type === 'file' ? (
        <PaperclipIcon aria-label={S.previewFile} className="size-3 shrink-0" />
      ) : null}
      <span className="min-w-0 truncate">{text}</span>
    </p>
  );
}

export function ConversationRow({
  conversation,
  href,
  selected,
}: {
  conversation: TConversation;
  href: string;
  selected: boolean;
}) {
  const name = initiatorName(conversation);
  const group = conversation.assigned_chat_group?.name;
  return (
    <Link
      to={href}
      aria-current={selected ? 'true' : undefined}
      data-conversation-id={conversation.id}
      className={cn(
        'flex flex-col gap-1.5 border-b px-4 py-3 text-left transition-colors hover:bg-accent/60',
        selected && 'bg-accent',
      )}
    >
      <div className="flex items-center gap-2">
        <span
          className={cn(
            'min-w-0 flex-1 truncate text-sm',
            conversation.is_read ? 'font-medium' : 'font-semibold',
          )}
        >
          {name}
        </span>
        {conversation.is_read ? null : (
          <span role="img" aria-label={S.unreadDot} className="size-2 shrink-0 rounded-full bg-sky-500" />
        )}
        <time
          dateTime={conversation.last_message_at ?? conversation.created_at}
          className="shrink-0 text-xs text-muted-foreground"
        >
          {formatLastMessageTime(conversation.last_message_at ?? conversation.created_at)}
        </time>
      </div>
      <FitText text={conversation.title} className="text-muted-foreground" />
      <LastMessagePreview preview={conversation.last_message_preview} />
      <div className="flex flex-wrap items-center gap-1.5">
        <StatusBadge status={conversation.status} />
        {conversation.sla ? <SlaBadge sla={conversation.sla} /> : null}
        <Badge variant="secondary">{S.channelBadges[conversation.channel]}</Badge>
        {conversation.spam ? (
          <Badge variant="outline" className="border-destructive/60 text-destructive">
            {S.spamBadge}
          </Badge>
        ) : null}
        {group ? (
          <Badge variant="outline" title={group}>
            {truncateGroupName(group)}
          </Badge>
        ) : null}
        <AssigneeBadge assignee={conversation.assignee} compact />
        <LabelChips labels={conversation.labels} max={2} />
      </div>
    </Link>
  );
}
