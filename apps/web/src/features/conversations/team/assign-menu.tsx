// The assignment items of a conversation's menus (row menu, header): assign to me, unassign, and
// every member of the business, each with their presence dot (kept live by the inbox). The server
// refuses what the caller may not do and says why.
import type { TConversation } from '@titan/contracts';
import { toast } from 'sonner';

import {
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
} from '../../../components/ui/dropdown-menu';
import { reportApiError } from '../../../lib/api-errors';
import { useMembers } from '../../../lib/business/members';
import { PresenceDot } from '../../../components/presence-dot';
import { useProfile } from '../../../lib/session/profile';
import { useUpdateConversation } from '../api/update-conversation';
import { TEAM_INBOX_STRINGS as T } from './strings';
import { memberName } from './utils';

export function useAssign() {
  const update = useUpdateConversation();
  const assign = (conversationId: number, assigneeId: number | null) =>
    update.mutate(
      { id: conversationId, assignee_id: assigneeId },
      {
        onSuccess: (result) =>
          toast.success(result.assignee ? T.assigned(result.assignee.name) : T.unassignedDone),
        onError: (error) => reportApiError(error, { toast: true }),
      },
    );
  return { assign, isPending: update.isPending };
}

/**
 * The menu's items. `assign` comes from useAssign() in a component that outlives the menu (the
 * menu's content unmounts when an item is picked, and a mutation's callbacks need their component).
 */
export function AssignMenuItems({
  conversation,
  assign,
}: {
  conversation: Pick<TConversation, 'id' | 'assignee'>;
  assign: (conversationId: number, assigneeId: number | null) => void;
}) {
  const members = useMembers();
  const me = useProfile().data;
  const current = conversation.assignee?.id ?? null;
  return (
    <>
      {me && current !== me.pk ? (
        <DropdownMenuItem onSelect={() => assign(conversation.id, me.pk)}>{T.assignToMe}</DropdownMenuItem>
      ) : null}
      {current !== null ? (
        <DropdownMenuItem onSelect={() => assign(conversation.id, null)}>{T.unassign}</DropdownMenuItem>
      ) : null}
      <DropdownMenuSeparator />
      <DropdownMenuLabel>{T.assignTo}</DropdownMenuLabel>
      {(members.data ?? [])
        .filter((m) => m.user.pk !== current)
        .map((m) => (
          <DropdownMenuItem key={m.id} onSelect={() => assign(conversation.id, m.user.pk)}>
            {m.presence ? <PresenceDot status={m.presence} labelled /> : null}
            <span className="truncate">{memberName(m)}</span>
          </DropdownMenuItem>
        ))}
    </>
  );
}
