// The inbox's views with their counts (issue 29): All, Mine, Unassigned, and by assignee or chat
// group. Counts come from GET /api/msg/conversations/counts/ and follow the live feed.
import { ChevronDownIcon } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { useMembers } from '../../../lib/business/members';
import { cn } from '../../../lib/utils';
import { useChatGroupChoices } from '../../../lib/chat-group-choices';
import { useConversationCounts } from './api/get-conversation-counts';
import { ALL_VIEW, memberName, type TInboxView } from './utils';
import { TEAM_INBOX_STRINGS as T } from './strings';

const same = (a: TInboxView, b: TInboxView) =>
  a.assignee === b.assignee && a.assigned_chat_group === b.assigned_chat_group;

function ViewButton({
  label,
  count,
  active,
  onClick,
}: {
  label: string;
  count: number | undefined;
  active: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      type="button"
      size="sm"
      variant={active ? 'secondary' : 'ghost'}
      aria-pressed={active}
      aria-label={count === undefined ? label : T.viewCount(label, count)}
      onClick={onClick}
      className="h-7 gap-1.5 px-2"
    >
      {label}
      {count === undefined ? null : ' '}
      {count === undefined ? null : (
        <span className={cn('text-xs tabular-nums', active ? 'text-foreground' : 'text-muted-foreground')}>
          {count}
        </span>
      )}
    </Button>
  );
}

export function InboxViews({ view, onChange }: { view: TInboxView; onChange: (view: TInboxView) => void }) {
  const groups = useChatGroupChoices().data ?? [];
  const counts = useConversationCounts().data;
  const members = useMembers().data ?? [];
  const countOf = (id: number) => counts?.assignees.find((a) => a.id === id)?.count ?? 0;
  const groupCount = (id: number | null) => counts?.groups.find((g) => g.id === id)?.count ?? 0;
  const fixed: { label: string; view: TInboxView; count?: number }[] = [
    { label: T.viewAll, view: ALL_VIEW, count: counts?.all },
    { label: T.viewMine, view: { assignee: 'me' }, count: counts?.mine },
    { label: T.viewUnassigned, view: { assignee: 'none' }, count: counts?.unassigned },
  ];
  const other = !fixed.some((f) => same(f.view, view));
  return (
    <div role="group" aria-label={T.views} className="flex flex-wrap items-center gap-1 border-b px-3 py-2">
      {fixed.map((f) => (
        <ViewButton
          key={f.label}
          label={f.label}
          count={f.count}
          active={same(f.view, view)}
          onClick={() => onChange(f.view)}
        />
      ))}
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            type="button"
            size="sm"
            variant={other ? 'secondary' : 'ghost'}
            className="h-7 max-w-48 gap-1 px-2"
          >
            <span className="truncate">{other && view.label ? view.label : T.viewMore}</span>
            <ChevronDownIcon aria-hidden="true" className="size-3.5" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
          <DropdownMenuLabel>{T.byAssignee}</DropdownMenuLabel>
          {members.map((m) => (
            <DropdownMenuItem
              key={m.id}
              onSelect={() => onChange({ assignee: String(m.user.pk), label: memberName(m) })}
            >
              <span className="flex-1 truncate">{memberName(m)}</span>
              <span className="text-xs text-muted-foreground tabular-nums">{countOf(m.user.pk)}</span>
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuLabel>{T.byGroup}</DropdownMenuLabel>
          {groups.map((g) => (
            <DropdownMenuItem
              key={g.id}
              onSelect={() => onChange({ assigned_chat_group: String(g.id), label: g.name })}
            >
              <span className="flex-1 truncate">{g.name}</span>
              <span className="text-xs text-muted-foreground tabular-nums">{groupCount(g.id)}</span>
            </DropdownMenuItem>
          ))}
          <DropdownMenuItem onSelect={() => onChange({ assigned_chat_group: 'none', label: T.noGroup })}>
            <span className="flex-1 truncate">{T.noGroup}</span>
            <span className="text-xs text-muted-foreground tabular-nums">{groupCount(null)}</span>
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
