// The list pane (spec section 2): title, filters, the rows, and infinite scroll that loads the next
// page while fewer rows are loaded than the total. The list stays live through the realtime feed.
import { InboxIcon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useConversations } from '../api/get-conversations';
import { useLiveConversations } from '../hooks/use-live-conversations';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { hasActiveFilters, NO_FILTERS, toQueryParams, type TFilterChoices } from '../utils/filters';
import { flattenConversations } from '../utils/live-list';
import { ConversationRow } from './conversation-row';
import { FilterPanel } from './filter-panel';
import { BulkBar } from '../team/bulk-bar';
import { InboxViews } from '../team/inbox-views';
import { ALL_VIEW, viewParams, type TInboxView } from '../team/utils';
import { RowControls } from '../team/row-controls';
import { LabelFilter } from '../labels/label-filter';

export function ConversationsList({
  businessCode,
  filters,
  onFiltersChange,
  selectedId,
  hrefFor,
  actions,
}: {
  businessCode: string | null;
  filters: TFilterChoices;
  onFiltersChange: (filters: TFilterChoices) => void;
  selectedId: number | null;
  hrefFor: (id: number) => string;
  /** Extra links in the list header, next to the filter (e.g. embed settings for managers). */
  actions?: ReactNode;
}) {
  // The team inbox's view (All, Mine, Unassigned, an assignee, a group) narrows the filters.
  const [view, setView] = useState<TInboxView>(ALL_VIEW);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [labelId, setLabelId] = useState<number | null>(null);
  const params = {
    ...toQueryParams(filters),
    ...viewParams(view),
    ...(labelId === null ? {} : { label: String(labelId) }),
  };
  const query = useConversations(params);
  useLiveConversations(businessCode, params);
  const rows = flattenConversations(query.data);
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  const scrollRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root: scrollRef.current, rootMargin: '200px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length]);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-4 py-3">
        <h1 className="text-lg font-semibold tracking-tight">{S.title}</h1>
        <div className="flex items-center gap-1">
          {actions}
          <LabelFilter
            value={labelId}
            onChange={(id) => {
              setLabelId(id);
              setSelected(new Set());
            }}
          />
          <FilterPanel applied={filters} onApply={onFiltersChange} />
        </div>
      </div>
      <InboxViews
        view={view}
        onChange={(next) => {
          setView(next);
          setSelected(new Set());
        }}
      />
      <BulkBar ids={[...selected]} onDone={() => setSelected(new Set())} />
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending ? (
          <div className="flex justify-center p-6">
            <Spinner className="size-6" />
          </div>
        ) : rows.length === 0 ? (
          <div className="flex flex-col items-center gap-3 p-8 text-center">
            <InboxIcon aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="text-sm text-muted-foreground">{S.noConversations}</p>
            {hasActiveFilters(filters) ? (
              <Button variant="outline" size="sm" onClick={() => onFiltersChange(NO_FILTERS)}>
                {S.clearAllFilters}
              </Button>
            ) : null}
          </div>
        ) : (
          <ul aria-label={S.title} className="flex flex-col">
            {rows.map((conversation) => (
              <li key={conversation.id} className="group/row relative flex flex-col">
                <ConversationRow
                  conversation={conversation}
                  href={hrefFor(conversation.id)}
                  selected={conversation.id === selectedId}
                />
                <RowControls
                  conversation={conversation}
                  checked={selected.has(conversation.id)}
                  onToggle={() => toggle(conversation.id)}
                />
              </li>
            ))}
          </ul>
        )}
        {hasNextPage ? (
          <div ref={sentinelRef} className="flex justify-center p-4">
            {isFetchingNextPage ? <Spinner aria-label={S.loadingMore} /> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
