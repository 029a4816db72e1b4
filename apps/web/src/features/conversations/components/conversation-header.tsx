// The pane's header (spec sections 2 and 4): initiator name, status dot, group badge, and the menu
// that marks the conversation resolved or active again; the server's answer replaces the selection.
import type { TConversation } from '@titan/contracts';
import { ArrowLeftIcon, EllipsisVerticalIcon, PanelRightIcon } from 'lucide-react';
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
import { SnoozeCustomDialog, SnoozeMenuItems, SNOOZE_STRINGS, useSnooze } from '../team/snooze-menu';
import { formatInZone } from '../team/snooze';
import { useState } from 'react';
import { LabelChips } from '../../../components/labels/label-chips';
import { LabelPickerButton } from '../labels/label-controls';
import { reportApiError } from '../../../lib/api-errors';
import { cn } from '../../../lib/utils';
import { useUpdateConversation } from '../api/update-conversation';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { initiatorName, truncateGroupName } from '../utils/display';
import { IconTooltip } from '../../../components/ui/tooltip';
import { FitText } from '../../../components/fit-text';
import { CUSTOMER_PANEL_STRINGS } from '../customer/strings';

export function ConversationHeader({
  conversation,
  backHref,
  customerPanel,
}: {
  conversation: TConversation;
  backHref: string;
  /** The customer panel's state and switch, when the pane has one. */
  customerPanel?: { open: boolean; toggle: () => void };
}) {
  const update = useUpdateConversation();
  const { assign } = useAssign();
  const { snooze, timeZone } = useSnooze(conversation);
  const [customSnooze, setCustomSnooze] = useState(false);
  const next = conversation.status === 'resolved' ? 'active' : 'resolved';
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
        {conversation.status === 'snoozed' && conversation.snoozed_until ? (
          <Badge variant="outline" data-testid="snoozed-until">
            {SNOOZE_STRINGS.until(formatInZone(new Date(conversation.snoozed_until), timeZone))}
          </Badge>
        ) : null}
        <LabelChips labels={conversation.labels} max={4} />
      </div>
      <LabelPickerButton conversation={conversation} />
      {customerPanel ? (
        <IconTooltip
          label={customerPanel.open ? CUSTOMER_PANEL_STRINGS.hidePanel : CUSTOMER_PANEL_STRINGS.showPanel}
        >
          <Button
            type="button"
            variant={customerPanel.open ? 'secondary' : 'ghost'}
            size="icon"
            aria-label={CUSTOMER_PANEL_STRINGS.panel}
            aria-pressed={customerPanel.open}
            onClick={customerPanel.toggle}
          >
            <PanelRightIcon aria-hidden="true" />
          </Button>
        </IconTooltip>
      ) : null}
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
            {conversation.status === 'resolved' ? S.markActive : S.markResolved}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <SnoozeMenuItems
            conversation={conversation}
            snooze={snooze}
            timeZone={timeZone}
            onCustom={() => setCustomSnooze(true)}
          />
          <DropdownMenuSeparator />
          <AssignMenuItems conversation={conversation} assign={assign} />
        </DropdownMenuContent>
      </DropdownMenu>
      <SnoozeCustomDialog
        open={customSnooze}
        onOpenChange={setCustomSnooze}
        snooze={snooze}
        timeZone={timeZone}
      />
    </header>
  );
}
