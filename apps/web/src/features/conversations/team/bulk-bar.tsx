// What the selected rows can have done to them at once (POST /api/msg/conversations/bulk/): assign,
// unassign, resolve, reopen. All or none: the server refuses the whole change when one fails.
import { XIcon } from 'lucide-react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { reportApiError } from '../../../lib/api-errors';
import { useMembers } from '../../../lib/business/members';
import { useProfile } from '../../../lib/session/profile';
import type { TBulkConversationRequest } from '@titan/contracts';
import { useBulkUpdate } from './api/bulk-update';
import { memberName } from './utils';
import { TEAM_INBOX_STRINGS as T } from './strings';
import { useLabels } from '../../../lib/labels';
import { INBOX_LABEL_STRINGS as L } from '../labels/strings';

export function BulkBar({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const bulk = useBulkUpdate();
  const members = useMembers().data ?? [];
  const me = useProfile().data;
  const labels = useLabels().data ?? [];
  if (ids.length === 0) return null;
  const run = (change: Omit<TBulkConversationRequest, 'ids'>) =>
    bulk.mutate(
      { ids, ...change },
      {
        onSuccess: (result) => {
          toast.success(T.bulkDone(result.updated.length));
          onDone();
        },
        onError: (error) => reportApiError(error, { toast: true }),
      },
    );
  return (
    <div
      role="toolbar"
      aria-label={T.bulkActions}
      className="flex flex-wrap items-center gap-1 border-b bg-accent/40 px-3 py-2"
    >
      <span className="mr-1 text-sm font-medium">{T.selected(ids.length)}</span>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" size="sm" variant="outline" className="h-7" disabled={bulk.isPending}>
            {T.assignTo}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
          {me ? (
            <DropdownMenuItem onSelect={() => run({ assignee_id: me.pk })}>{T.assignToMe}</DropdownMenuItem>
          ) : null}
          <DropdownMenuItem onSelect={() => run({ assignee_id: null })}>{T.unassign}</DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>{T.assignTo}</DropdownMenuLabel>
          {members.map((m) => (
            <DropdownMenuItem key={m.id} onSelect={() => run({ assignee_id: m.user.pk })}>
              <span className="truncate">{memberName(m)}</span>
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      {labels.length > 0 ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button type="button" size="sm" variant="outline" className="h-7" disabled={bulk.isPending}>
              {L.addLabel}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
            {/* Adds the label to every selected conversation; the labels they carry stay. */}
            {labels.map((label) => (
              <DropdownMenuItem key={label.id} onSelect={() => run({ label_ids: [label.id] })}>
                <span
                  aria-hidden="true"
                  className="size-2 shrink-0 rounded-full"
                  style={{ backgroundColor: label.color }}
                />
                <span className="truncate">{label.name}</span>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="h-7"
        disabled={bulk.isPending}
        onClick={() => run({ status: 'resolved' })}
      >
        {T.resolve}
      </Button>
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="h-7"
        disabled={bulk.isPending}
        onClick={() => run({ status: 'active' })}
      >
        {T.reopen}
      </Button>
      <Button
        type="button"
        size="icon"
        variant="ghost"
        className="ml-auto size-7"
        aria-label={T.clearSelection}
        onClick={onDone}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </div>
  );
}
