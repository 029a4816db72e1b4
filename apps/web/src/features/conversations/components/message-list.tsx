// The conversation's messages, grouped by day under date dividers and kept scrolled to the newest
// while the reader is at the bottom; "Load older messages" pages back without moving what is shown.
import type { TConversation, TMessage } from '@titan/contracts';
import { useEffect, useLayoutEffect, useRef } from 'react';

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useMessages } from '../api/get-messages';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { repliedMessageId } from '../utils/display';
import { dayKey, formatDayDivider } from '../utils/format-time';
import { flattenMessages } from '../utils/live-list';
import { MessageItem } from './message-item';
import { useScrollToMessage } from '../search/use-scroll-to-message';
import { InternalItem } from '../team/timeline-items';
import { isInternalMessage } from '../team/utils';

/** Within this many pixels of the bottom the reader counts as following the conversation. */
const FOLLOW_THRESHOLD_PX = 120;

function groupByDay<T extends { created_at: string }>(items: T[]): { key: string; items: T[] }[] {
  const groups: { key: string; items: T[] }[] = [];
  for (const item of items) {
    const key = dayKey(item.created_at);
    const last = groups.at(-1);
    if (last && last.key === key) last.items.push(item);
    else groups.push({ key, items: [item] });
  }
  return groups;
}

export function MessageList({
  conversation,
  onReply,
}: {
  conversation: TConversation;
  /** Offers "Reply" on WhatsApp messages. */
  onReply?: (message: TMessage) => void;
}) {
  const query = useMessages(conversation.id);
  const messages = flattenMessages(query.data);
  const byId = new Map(messages.map((m) => [String(m.id), m]));
  useScrollToMessage(messages.length);
  const quotedOf = (message: TMessage) => {
    const id = repliedMessageId(message);
    return id ? (byId.get(id) ?? null) : null;
  };
  const groups = groupByDay(messages);
  const newest = messages.at(-1);
  const newestId = newest?.id;
  const newestOutgoing = newest !== undefined && newest.sender_type !== 'customer';
  const pageCount = query.data?.pages.length ?? 0;

  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const keepPosition = useRef<{ height: number; top: number } | null>(null);

  const toBottom = () => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  // New messages (and the first load) scroll to the newest while the reader follows along; a reply
  // from the business always does.
  useLayoutEffect(() => {
    if (following.current || newestOutgoing) {
      following.current = true;
      toBottom();
    }
  }, [newestId, newestOutgoing]);

  // Older messages arrive above: keep the messages in view where they were.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const kept = keepPosition.current;
    if (!el || !kept) return;
    keepPosition.current = null;
    el.scrollTop = el.scrollHeight - kept.height + kept.top;
  }, [pageCount]);

  // Images and media grow the content after render.
  useEffect(() => {
    const content = contentRef.current;
    if (!content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) toBottom();
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  const loadOlder = () => {
    const el = scrollRef.current;
    if (el) keepPosition.current = { height: el.scrollHeight, top: el.scrollTop };
    void query.fetchNextPage();
  };

  return (
    <div
      ref={scrollRef}
      className="min-h-0 flex-1 overflow-y-auto px-4 py-3"
      onScroll={(event) => {
        const el = event.currentTarget;
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_THRESHOLD_PX;
      }}
    >
      <div ref={contentRef} className="flex flex-col gap-3">
        {query.hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="outline" size="sm" disabled={query.isFetchingNextPage} onClick={loadOlder}>
              {query.isFetchingNextPage ? <Spinner /> : null}
              {S.loadOlder}
            </Button>
          </div>
        ) : null}
        {query.isPending ? (
          <div className="flex justify-center p-6">
            <Spinner className="size-6" />
          </div>
        ) : messages.length === 0 ? (
          <p className="p-6 text-center text-sm text-muted-foreground">{S.noMessages}</p>
        ) : (
          groups.map((group) => (
            <section key={group.key} aria-label={formatDayDivider(group.items[0]!.created_at)}>
              <div role="separator" className="my-2 flex items-center gap-3 text-xs text-muted-foreground">
                <span className="h-px flex-1 bg-border" />
                <span>{formatDayDivider(group.items[0]!.created_at)}</span>
                <span className="h-px flex-1 bg-border" />
              </div>
              <ol className="flex flex-col gap-3">
                {group.items.map((message) =>
                  // Notes and activity lines: the team's own, drawn apart from what the customer sees.
                  isInternalMessage(message) ? (
                    <InternalItem key={String(message.id)} message={message} />
                  ) : (
                    <MessageItem
                      key={String(message.id)}
                      message={message}
                      conversation={conversation}
                      quoted={quotedOf(message)}
                      onReply={onReply}
                    />
                  ),
                )}
              </ol>
            </section>
          ))
        )}
      </div>
    </div>
  );
}
