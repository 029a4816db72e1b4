// The steps as a list: each a button that opens it in the side panel, with where it leads and its
// counts. The phone's view of a journey, and the keyboard's way through it beside the canvas.
import type { TJourneyStats } from '@titan/contracts';
import { CircleAlertIcon } from 'lucide-react';

import { cn } from '../../../lib/utils';
import {
  edgeOf,
  exitLabelText,
  exitSlots,
  stepSummary,
  stepTitle,
  type TGraph,
  type TGraphErrors,
} from '../graph';
import { EDITOR_STRINGS as S, PANEL_STRINGS as P } from '../strings';

export function StepList({
  graph,
  selectedId,
  stats,
  errors,
  onSelect,
}: {
  graph: TGraph;
  selectedId: string | null;
  stats: TJourneyStats | undefined;
  errors: TGraphErrors;
  onSelect: (id: string) => void;
}) {
  return (
    <ol aria-label={S.steps} className="grid gap-2">
      {graph.nodes.map((n) => {
        const counts = stats?.nodes[n.id];
        const invalid = Boolean(errors.steps[n.id]);
        const leads = exitSlots(n)
          .map((label) => {
            const to = edgeOf(graph, n.id, label)?.to;
            if (!to) return null;
            return label === undefined ? `→ ${to}` : `${exitLabelText(label)} → ${to}`;
          })
          .filter(Boolean)
          .join(' · ');
        return (
          <li key={n.id}>
            <button
              type="button"
              aria-pressed={n.id === selectedId}
              onClick={() => onSelect(n.id)}
              className={cn(
                'grid w-full gap-1 rounded-md border p-3 text-left text-sm transition-colors hover:bg-accent/60',
                'outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                n.id === selectedId && 'border-ring bg-accent/40',
                invalid && 'border-destructive',
              )}
            >
              <span className="flex items-center gap-2 font-medium">
                {invalid ? <CircleAlertIcon className="size-4 text-destructive" aria-hidden="true" /> : null}
                {`${stepTitle(n)} · ${n.id}`}
              </span>
              <span className="break-words text-muted-foreground">{stepSummary(n)}</span>
              {leads ? (
                <span className="text-xs break-words text-muted-foreground">{`${P.then}: ${leads}`}</span>
              ) : null}
              {counts ? (
                <span className="text-xs tabular-nums" data-testid={`counts-${n.id}`}>
                  {S.countsOf(counts)}
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
