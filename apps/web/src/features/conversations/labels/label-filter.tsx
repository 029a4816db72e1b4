// The inbox's label filter (`label=<id>`): one label at a time, combined with the view and the
// filter panel's choices. Shown beside the views; each label with how many conversations carry it
// (the views' counts, live).
import { ChevronDownIcon } from 'lucide-react';

import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { useLabels } from '../../../lib/labels';
import { useConversationCounts } from '../team/api/get-conversation-counts';
import { INBOX_LABEL_STRINGS as L } from './strings';

export function LabelFilter({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const labels = useLabels().data ?? [];
  const counts = useConversationCounts().data;
  const countOf = (id: number) => counts?.labels.find((l) => l.id === id)?.count ?? 0;
  if (labels.length === 0 && value === null) return null;
  const current = labels.find((l) => l.id === value);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          size="sm"
          variant={current ? 'secondary' : 'ghost'}
          className="h-7 max-w-48 gap-1 px-2"
          aria-label={current ? L.labelFilter(current.name) : L.filterByLabel}
        >
          {current ? (
            <span
              aria-hidden="true"
              className="size-2 shrink-0 rounded-full"
              style={{ backgroundColor: current.color }}
            />
          ) : null}
          <span className="truncate">{current ? current.name : L.labels}</span>
          <ChevronDownIcon aria-hidden="true" className="size-3.5" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
        <DropdownMenuItem onSelect={() => onChange(null)}>{L.anyLabel}</DropdownMenuItem>
        {labels.map((label) => (
          <DropdownMenuItem key={label.id} onSelect={() => onChange(label.id)}>
            <span
              aria-hidden="true"
              className="size-2 shrink-0 rounded-full"
              style={{ backgroundColor: label.color }}
            />
            <span className="flex-1 truncate">{label.name}</span>
            {counts ? (
              <span className="text-xs text-muted-foreground tabular-nums">
                <span aria-hidden="true">{countOf(label.id)}</span>
                <span className="sr-only">{L.labelCount(countOf(label.id))}</span>
              </span>
            ) : null}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
