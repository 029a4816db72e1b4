// The pane's header (spec sections 2 and 4): initiator name, status dot, group badge, and the menu
// that marks the conversation resolved or active again; the server's answer replaces the selection.
import type { TConversation } from '@titan/contracts';
import { ArrowLeftIcon, EllipsisVerticalIcon } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { AssignMenuItems, useAssign } from '../team/assign-menu';
import { AssigneeBadge } from '../team/assignee-badge';
import { reportApiError } from '../../../lib/api-errors';
import { cn } from '../../../lib/utils';
import { useUpdateConversation } from '../api/update-conversation';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { initiatorName, truncateGroupName } from '../utils/display';
import { IconTooltip } from '../../../components/ui/tooltip';
import { FitText } from '../../../components/fit-text';

export function ConversationHeader({
  conversation,
  backHref,
}: {
  conversation: TConversation;
  backHref: string;
}) {
  const update = useUpdateConversation();
  const { assign } = useAssign();
  const next = conversation.status === 'active' ? 'resolved' : 'active';
  const group = conversation.assigned_chat_group;

  const changeStatus = () =>
    update.mutate(
      { id: conversation.id, status: next },
      {
        onSuccess: (result) => toast.success(S.marked(result.status)),
        onError: (error) => reportApiError(error, { toast: true }),
      },
    );

  return (
    <header className="flex items-center gap-3 border-b px-4 py-3">
      <Button asChild variant="ghost" size="icon" className="md:hidden">
        <Link to={backHref} aria-label={S.back}>
          <ArrowLeftIcon aria-hidden="true" />
        </Link>
      </Button>
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
        <FitText as="h2" text={initiatorName(conversation)} className="min-w-0 font-semibold" />
        <span
          role="img"
          aria-label={S.statusLabels[conversation.status]}
          title={S.statusLabels[conversation.status]}
          data-status={conversation.status}
          className={cn(
            'size-2.5 shrink-0 rounded-full',
            conversation.status === 'active' ? 'bg-emerald-500' : 'bg-muted-foreground/50',
          )}
        />
        {group ? (
          <Badge variant="outline" title={group.name}>
            {truncateGroupName(group.name)}
          </Badge>
        ) : null}
        <AssigneeBadge assignee={conversation.assignee} />
      </div>
      <DropdownMenu>
        <IconTooltip label={S.conversationActions}>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              aria-label={S.conversationActions}
              disabled={update.isPending}
            >
              <EllipsisVerticalIcon aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
        </IconTooltip>
        <DropdownMenuContent align="end" className="max-h-96 overflow-y-auto">
          <DropdownMenuItem onSelect={changeStatus}>
            {conversation.status === 'active' ? S.markResolved : S.markActive}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <AssignMenuItems conversation={conversation} assign={assign} />
        </DropdownMenuContent>
      </DropdownMenu>
    </header>
  );
}
