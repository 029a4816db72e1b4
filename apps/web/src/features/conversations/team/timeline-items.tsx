// The team's own lines in the timeline (issue 29): private notes, on an amber ground with a lock and
// "Private note", mentions shown as @Name; activity lines (assigned, status changed) centred and small.
import type { TMessage } from '@titan/contracts';
import { LockIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { formatMessageTime } from '../utils/format-time';
import { TEAM_INBOX_STRINGS as T } from './strings';
import { MENTION } from './utils';

/** A note's text with its mentions as @Name chips. */
function MentionText({ content }: { content: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of content.matchAll(MENTION)) {
    if (match.index > last) parts.push(content.slice(last, match.index));
    parts.push(
      <span
        key={match.index}
        data-member-id={match[2]}
        className="rounded bg-amber-200/70 px-0.5 font-medium text-amber-950 dark:bg-amber-400/25 dark:text-amber-100"
      >
        @{match[1]}
      </span>,
    );
    last = match.index + match[0].length;
  }
  if (last < content.length) parts.push(content.slice(last));
  return <>{parts}</>;
}

export function NoteItem({ message }: { message: TMessage }) {
  const author = message.sender?.name ?? message.sender?.email ?? '';
  return (
    <li data-message-id={String(message.id)} data-message-type="note" className="flex justify-end">
      <div className="flex max-w-[85%] min-w-0 flex-col gap-1 rounded-lg border border-dashed border-amber-500/60 bg-amber-50 px-3 py-2 text-amber-950 dark:bg-amber-950/40 dark:text-amber-50">
        <p className="flex items-center gap-1 text-xs font-medium text-amber-800 dark:text-amber-300">
          <LockIcon aria-hidden="true" className="size-3" />
          {T.noteBadge}
          {author ? <span className="font-normal">· {author}</span> : null}
        </p>
        <p className="text-sm break-words whitespace-pre-wrap">
          <MentionText content={message.content} />
        </p>
        <time
          dateTime={message.created_at}
          className="self-end text-xs text-amber-800/80 dark:text-amber-300/80"
        >
          {formatMessageTime(message.created_at)}
        </time>
      </div>
    </li>
  );
}

export function ActivityItem({ message }: { message: TMessage }) {
  return (
    <li
      data-message-id={String(message.id)}
      data-message-type="activity"
      className="flex justify-center px-4 text-center text-xs text-muted-foreground"
    >
      <span className="break-words">
        {message.content} · <time dateTime={message.created_at}>{formatMessageTime(message.created_at)}</time>
      </span>
    </li>
  );
}

export function InternalItem({ message }: { message: TMessage }) {
  return message.message_type === 'note' ? (
    <NoteItem message={message} />
  ) : (
    <ActivityItem message={message} />
  );
}
