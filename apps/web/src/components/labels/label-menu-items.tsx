// The labels of a menu (a conversation's row menu and header, the bulk bar, a customer's page): one
// checkbox item per label of the business. `onToggle` is called with the label and its new state.
import type { TLabelRef } from '@titan/contracts';

import { useLabels } from '../../lib/labels';
import { LABEL_STRINGS } from '../../lib/strings';
import { DropdownMenuCheckboxItem, DropdownMenuLabel } from '../ui/dropdown-menu';

export function LabelMenuItems({
  selected,
  onToggle,
  title = LABEL_STRINGS.labels,
  disabled = false,
}: {
  selected: number[];
  onToggle: (label: TLabelRef, checked: boolean) => void;
  title?: string;
  /** While a change is on its way (the next one starts from its answer). */
  disabled?: boolean;
}) {
  const labels = useLabels().data ?? [];
  return (
    <>
      <DropdownMenuLabel>{title}</DropdownMenuLabel>
      {labels.length === 0 ? (
        <p className="max-w-56 px-2 py-1.5 text-xs text-muted-foreground">{LABEL_STRINGS.none}</p>
      ) : (
        labels.map((label) => (
          <DropdownMenuCheckboxItem
            key={label.id}
            checked={selected.includes(label.id)}
            disabled={disabled}
            // Picking a label keeps the menu open: several can be set in one go.
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={(checked) => onToggle(label, checked === true)}
          >
            <span
              aria-hidden="true"
              className="size-2 shrink-0 rounded-full"
              style={{ backgroundColor: label.color }}
            />
            <span className="truncate">{label.name}</span>
          </DropdownMenuCheckboxItem>
        ))
      )}
    </>
  );
}
