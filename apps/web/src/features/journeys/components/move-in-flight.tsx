// Shown on a live journey whose earlier versions still have customers in flight: they finish on the
// version they entered, unless staff move them to a step of the live version
// (POST /api/journeys/{id}/move-in-flight/).
import type { TJourneyGraph } from '@titan/contracts';
import { useId, useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { useMoveInFlight } from '../api/move-in-flight';
import { EDITOR_STRINGS as S, STEP_TITLES } from '../strings';

export function MoveInFlight({
  journeyId,
  graph,
  count,
}: {
  journeyId: number;
  /** The live version's graph. */
  graph: TJourneyGraph;
  count: number;
}) {
  const steps = graph.nodes.filter((n) => n.type !== 'trigger');
  const [toNode, setToNode] = useState(steps[0]?.id ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const move = useMoveInFlight(journeyId);
  const selectId = useId();
  const errorId = useId();
  if (steps.length === 0) return null;

  const onMove = () => {
    setFieldError(null);
    move.mutate(
      { to_node: toNode },
      {
        onSuccess: (result) => toast.success(S.moved(result)),
        onError: (err) => {
          const field = describeApiFailure(err);
          const words = field.kind === 'response' ? field.fieldErrors?.to_node?.[0] : undefined;
          if (words) setFieldError(words);
          else toast.error(apiErrorMessage(err));
        },
      },
    );
  };

  return (
    <section
      aria-labelledby={`${selectId}-heading`}
      className="grid min-w-0 gap-2 rounded-md border border-border p-3 text-sm"
    >
      <h2 id={`${selectId}-heading`} className="font-medium">
        {S.inFlightHeading}
      </h2>
      <p className="text-muted-foreground">{S.inFlight(count)}</p>
      <div className="flex min-w-0 flex-wrap items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-1 sm:max-w-xs">
          <Label htmlFor={selectId}>{S.moveTo}</Label>
          <NativeSelect
            id={selectId}
            value={toNode}
            onChange={(e) => setToNode(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? errorId : undefined}
          >
            {steps.map((n) => (
              <option key={n.id} value={n.id}>
                {`${STEP_TITLES[n.type]} · ${n.id}`}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="button" variant="outline" onClick={onMove} disabled={move.isPending}>
          {move.isPending ? S.moving : S.move}
        </Button>
      </div>
      {fieldError ? (
        <p id={errorId} className="text-destructive">
          {fieldError}
        </p>
      ) : null}
    </section>
  );
}
