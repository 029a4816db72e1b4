// A list row's own controls beside its link (a link may hold no controls): the bulk-select box and
// the row menu (assign to me, unassign, assign to a member). Shown on hover and focus with a
// pointer, always on touch screens and while the row is selected.
import type { TConversation } from '@titan/contracts';
import { EllipsisIcon } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '../../../components/ui/dropdown-menu';
import { cn } from '../../../lib/utils';
import { initiatorName } from '../utils/display';
import { AssignMenuItems, useAssign } from './assign-menu';
import { ConversationLabelItems, useLabelConversation } from '../labels/label-controls';
import { DropdownMenuSeparator } from '../../../components/ui/dropdown-menu';
import { TEAM_INBOX_STRINGS as T } from './strings';

export function RowControls({
  conversation,
  checked,
  onToggle,
}: {
  conversation: TConversation;
  checked: boolean;
  onToggle: () => void;
}) {
  const name = initiatorName(conversation);
  const { assign } = useAssign();
  const labelling = useLabelConversation();
  const reveal =
    'opacity-0 group-focus-within/row:opacity-100 group-hover/row:opacity-100 focus-visible:opacity-100 pointer-coarse:opacity-100';
  return (
    <div className="absolute right-2 bottom-2 flex items-center gap-1">
      <input
        type="checkbox"
        aria-label={T.select(name)}
        checked={checked}
        onChange={onToggle}
        className={cn('size-4 accent-primary', checked ? 'opacity-100' : reveal)}
      />
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={T.rowActions(name)}
            className={cn('size-7', reveal)}
          >
            <EllipsisIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="max-h-80 overflow-y-auto">
          <AssignMenuItems conversation={conversation} assign={assign} />
          <DropdownMenuSeparator />
          <ConversationLabelItems
            conversation={conversation}
            toggle={labelling.toggle}
            disabled={labelling.isPending}
          />
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
