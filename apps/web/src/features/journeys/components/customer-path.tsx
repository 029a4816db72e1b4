// A customer's path through the journey: each pass, each step with when it was entered, when it is
// due (a wait) and when it finished, and what it did; and test mode — the same customer through the
// newest version with a fast clock.
import { JOURNEY_TEST_DEFAULT_SPEED } from '@titan/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { SectionError } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { apiErrorMessage } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useCustomerPath } from '../api/get-customer-path';
import { useTestJourney } from '../api/test-journey';
import { exitLabelText } from '../graph';
import { PATH_STRINGS as S } from '../strings';

export function CustomerPath({ journeyId, canTest }: { journeyId: number; canTest: boolean }) {
  const [draft, setDraft] = useState('');
  const [speed, setSpeed] = useState(String(JOURNEY_TEST_DEFAULT_SPEED));
  const [customerId, setCustomerId] = useState<number | null>(null);
  const path = useCustomerPath(journeyId, customerId);
  const test = useTestJourney(journeyId);
  const chosen = () => {
    const id = Number(draft);
    return Number.isInteger(id) && id > 0 ? id : null;
  };

  return (
    <section aria-labelledby="journey-path-heading" className="grid gap-3">
      <h2 id="journey-path-heading" className="text-lg font-semibold">
        {S.heading}
      </h2>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setCustomerId(chosen());
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor="journey-path-customer">{S.customerId}</Label>
          <Input
            id="journey-path-customer"
            inputMode="numeric"
            className="w-40"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
        <Button type="submit" variant="outline">
          {S.show}
        </Button>
        {canTest ? (
          <>
            <div className="grid gap-2">
              <Label htmlFor="journey-test-speed">{S.clockSpeed}</Label>
              <Input
                id="journey-test-speed"
                inputMode="numeric"
                className="w-40"
                value={speed}
                onChange={(e) => setSpeed(e.target.value)}
              />
            </div>
            <Button
              type="button"
              variant="outline"
              disabled={test.isPending}
              onClick={() => {
                const id = chosen();
                if (id === null) return;
                test.mutate(
                  { customer_id: id, clock_speed: Number(speed) },
                  {
                    onSuccess: () => {
                      setCustomerId(id);
                      toast.success(S.testStarted);
                    },
                    onError: (err) => toast.error(apiErrorMessage(err)),
                  },
                );
              }}
            >
              {S.test}
            </Button>
          </>
        ) : null}
      </form>
      {customerId === null ? null : path.isError ? (
        <SectionError error={path.error} onRetry={() => void path.refetch()} fallback={S.loadFailed} />
      ) : path.data ? (
        path.data.runs.length === 0 ? (
          <p className="text-sm text-muted-foreground">{S.none}</p>
        ) : (
          path.data.runs.map((run, i) => (
            <div key={run.id} className="grid gap-2 rounded-md border p-3">
              <p className="text-sm font-medium">
                {[
                  S.run(i + 1, run.version),
                  S.runStatus[run.status],
                  ...(run.clock_speed ? [S.testRun(run.clock_speed)] : []),
                  ...(run.goal_reached_at ? [S.goalReached(formatDateTime(run.goal_reached_at))] : []),
                ].join(' · ')}
              </p>
              <ol aria-label={S.run(i + 1, run.version)} className="grid gap-1 text-sm">
                {run.steps.map((step, j) => (
                  <li key={j} className="flex flex-wrap gap-x-3 gap-y-1 break-words">
                    <span className="font-medium">{step.node_id}</span>
                    <span>{S.stepStatus[step.status]}</span>
                    {step.outcome ? <span>{exitLabelText(step.outcome)}</span> : null}
                    <span className="text-muted-foreground">{formatDateTime(step.entered_at)}</span>
                    {step.status === 'waiting' && step.due_at ? (
                      <span className="text-muted-foreground">{S.due(formatDateTime(step.due_at))}</span>
                    ) : null}
                    {step.reason ? <span className="text-muted-foreground">{step.reason}</span> : null}
                    {step.agent_run ? (
                      <Link
                        className="underline"
                        to={`/engage/event-logs/agents/${step.agent_run.agent_id}/${step.agent_run.channel}/${step.agent_run.run_id}`}
                      >
                        {S.agentRun}
                      </Link>
                    ) : null}
                  </li>
                ))}
              </ol>
            </div>
          ))
        )
      ) : null}
    </section>
  );
}
