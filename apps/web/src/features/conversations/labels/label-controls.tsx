// Labels on conversations (PUT /api/msg/conversations/{id}/ {label_ids}): the items of the row menu
// and the header's label picker. The server's answer replaces the conversation in every list.
import type { TConversation, TLabelRef } from '@titan/contracts';
import { TagIcon } from 'lucide-react';

import { LabelMenuItems } from '../../../components/labels/label-menu-items';
import { Button } from '../../../components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '../../../components/ui/dropdown-menu';
import { IconTooltip } from '../../../components/ui/tooltip';
import { reportApiError } from '../../../lib/api-errors';
import { useUpdateConversation } from '../api/update-conversation';
import { INBOX_LABEL_STRINGS as L } from './strings';

/** Toggles one label on a conversation; from a component that outlives the menu. */
export function useLabelConversation() {
  const update = useUpdateConversation();
  const toggle = (conversation: Pick<TConversation, 'id' | 'labels'>, label: TLabelRef, checked: boolean) => {
    const ids = conversation.labels.map((l) => l.id).filter((id) => id !== label.id);
    update.mutate(
      { id: conversation.id, label_ids: checked ? [...ids, label.id] : ids },
      { onError: (error) => reportApiError(error, { toast: true }) },
    );
  };
  return { toggle, isPending: update.isPending };
}

export function ConversationLabelItems({
  conversation,
  toggle,
  disabled,
}: {
  conversation: Pick<TConversation, 'id' | 'labels'>;
  toggle: ReturnType<typeof useLabelConversation>['toggle'];
  disabled?: boolean;
}) {
  return (
    <LabelMenuItems
      selected={conversation.labels.map((l) => l.id)}
      onToggle={(label, checked) => toggle(conversation, label, checked)}
      disabled={disabled}
    />
  );
}

/** The conversation header's label picker: a tag button opening the business's labels. */
export function LabelPickerButton({ conversation }: { conversation: TConversation }) {
  const { toggle, isPending } = useLabelConversation();
  return (
    <DropdownMenu>
      <IconTooltip label={L.labelConversation}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={L.labelConversation}>
            <TagIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
      </IconTooltip>
      <DropdownMenuContent align="end" className="max-h-96 min-w-48 overflow-y-auto">
        <ConversationLabelItems conversation={conversation} toggle={toggle} disabled={isPending} />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
