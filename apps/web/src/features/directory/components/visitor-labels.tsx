// A customer's labels (PUT /api/business/customer-directory/{id}/ {label_ids}): chips, and for roles
// with engage.write a picker of the business's labels. The directory filters by one label.
import type { TDirectoryVisitor } from '@titan/contracts';
import { ChevronDownIcon, TagIcon } from 'lucide-react';

import { LabelChips } from '../../../components/labels/label-chips';
import { LabelMenuItems } from '../../../components/labels/label-menu-items';
import { Button } from '../../../components/ui/button';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { reportApiError } from '../../../lib/api-errors';
import { useLabels } from '../../../lib/labels';
import { useUpdateVisitor } from '../api/update-visitor';
import { DIRECTORY_LABEL_STRINGS as L } from '../labels-strings';

export function VisitorLabelsCard({ visitor, canWrite }: { visitor: TDirectoryVisitor; canWrite: boolean }) {
  const update = useUpdateVisitor();
  const toggle = (labelId: number, checked: boolean) => {
    const ids = visitor.labels.map((l) => l.id).filter((id) => id !== labelId);
    update.mutate(
      { id: visitor.id, label_ids: checked ? [...ids, labelId] : ids },
      { onError: (error) => reportApiError(error, { toast: true }) },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{L.title}</CardTitle>
        {canWrite ? (
          <CardAction>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="outline" size="sm">
                  <TagIcon aria-hidden="true" />
                  {L.edit}
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end" className="max-h-80 min-w-48 overflow-y-auto">
                <LabelMenuItems
                  selected={visitor.labels.map((l) => l.id)}
                  onToggle={(label, checked) => toggle(label.id, checked)}
                  disabled={update.isPending}
                />
              </DropdownMenuContent>
            </DropdownMenu>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {visitor.labels.length === 0 ? (
          <p className="text-sm text-muted-foreground">{L.none}</p>
        ) : (
          <LabelChips labels={visitor.labels} max={50} />
        )}
      </CardContent>
    </Card>
  );
}

/** The directory's label filter: one label, in the URL (?label=). */
export function DirectoryLabelFilter({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const labels = useLabels().data ?? [];
  if (labels.length === 0 && value === null) return null;
  const current = labels.find((l) => l.id === value);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant={current ? 'secondary' : 'outline'}
          className="max-w-56 gap-1"
          aria-label={current ? L.filtered(current.name) : L.filter}
        >
          {current ? (
            <span
              aria-hidden="true"
              className="size-2 shrink-0 rounded-full"
              style={{ backgroundColor: current.color }}
            />
          ) : (
            <TagIcon aria-hidden="true" />
          )}
          <span className="truncate">{current ? current.name : L.title}</span>
          <ChevronDownIcon aria-hidden="true" className="size-3.5" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-80 overflow-y-auto">
        <DropdownMenuItem onSelect={() => onChange(null)}>{L.any}</DropdownMenuItem>
        {labels.map((label) => (
          <DropdownMenuItem key={label.id} onSelect={() => onChange(label.id)}>
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
  );
}
