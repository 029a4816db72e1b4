// A row's labels as small chips: the label's colour as a dot, its name in the text colour (readable
// in light and dark whatever the colour). Past `max`, the rest are counted ("+2", named for readers).
import type { TLabelRef } from '@titan/contracts';

import { LABEL_STRINGS } from '../../lib/strings';
import { cn } from '../../lib/utils';

export function LabelChip({ label, className }: { label: TLabelRef; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex max-w-32 min-w-0 items-center gap-1 rounded-full border bg-background px-1.5 py-px text-xs leading-4 text-foreground',
        className,
      )}
      title={label.name}
    >
      <span
        aria-hidden="true"
        className="size-2 shrink-0 rounded-full"
        style={{ backgroundColor: label.color }}
      />
      <span className="truncate">{label.name}</span>
    </span>
  );
}

export function LabelChips({
  labels,
  max = 3,
  className,
}: {
  labels: TLabelRef[];
  max?: number;
  className?: string;
}) {
  if (labels.length === 0) return null;
  const shown = labels.slice(0, max);
  const rest = labels.slice(max);
  return (
    <ul
      aria-label={LABEL_STRINGS.labels}
      className={cn('flex min-w-0 flex-wrap items-center gap-1', className)}
    >
      {shown.map((label) => (
        <li key={label.id} className="min-w-0">
          <LabelChip label={label} />
        </li>
      ))}
      {rest.length > 0 ? (
        <li
          className="text-xs text-muted-foreground"
          aria-label={LABEL_STRINGS.moreLabel(rest.map((l) => l.name))}
          title={rest.map((l) => l.name).join(', ')}
        >
          {LABEL_STRINGS.more(rest.length)}
        </li>
      ) : null}
    </ul>
  );
}
