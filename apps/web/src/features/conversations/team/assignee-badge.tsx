// Who owns a conversation: initials and name (or "Unassigned"), in the row and the header.
import type { TAssignee } from '@titan/contracts';
import { UserRoundIcon } from 'lucide-react';

import { cn } from '../../../lib/utils';
import { initials } from '../utils/display';
import { TEAM_INBOX_STRINGS as T } from './strings';

export function AssigneeBadge({
  assignee,
  compact = false,
}: {
  assignee: TAssignee | null;
  /** In list rows: only an assigned conversation shows its assignee. */
  compact?: boolean;
}) {
  if (!assignee && compact) return null;
  return (
    <span
      data-assignee-id={assignee?.id ?? ''}
      title={assignee ? T.assignedTo(assignee.name) : T.unassigned}
      className={cn(
        'inline-flex max-w-40 min-w-0 items-center gap-1 rounded-full border px-1.5 py-0.5 text-xs',
        assignee ? 'text-foreground' : 'border-dashed text-muted-foreground',
      )}
    >
      {assignee ? (
        <span
          aria-hidden="true"
          className="flex size-4 shrink-0 items-center justify-center rounded-full bg-primary/15 text-[0.6rem] font-semibold"
        >
          {initials(assignee.name)}
        </span>
      ) : (
        <UserRoundIcon aria-hidden="true" className="size-3" />
      )}
      <span className="sr-only">{T.assignee}: </span>
      <span className="truncate">{assignee ? assignee.name : T.unassigned}</span>
    </span>
  );
}
