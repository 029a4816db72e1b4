// Under an AI first responder's message: staff rate the answer good or bad (a bad one with what was
// wrong, optional), see the rating it has, and can take it back. The rating is the run's
// (PUT /api/ai/runs/{id}/rating/) and counts in the AI report.
import type { TAiRateRequest } from '@titan/contracts';
import { ThumbsDownIcon, ThumbsUpIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useAiRun } from '../api/get-ai-run';
import { useRateAiRun } from '../api/rate-ai-run';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.aiRating;

export function AiRating({ runId }: { runId: string }) {
  const run = useAiRun(runId);
  const rate = useRateAiRun(runId);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const save = (body: TAiRateRequest) =>
    rate.mutate(body, {
      onSuccess: () => {
        setAsking(false);
        setReason('');
        toast.success(S.saved);
      },
      onError: (error) => {
        if (!isHandledApiError(error)) toast.error(apiErrorMessage(error, S.failed));
      },
    });
  // Only the responder's finished runs are rated (a copilot's or one still running is not).
  if (!run.data || run.data.kind !== 'responder' || run.data.status === 'running') return null;
  const rating = run.data.rating;
  if (rating && !asking)
    return (
      <div role="group" aria-label={S.label} className="flex flex-wrap items-center gap-2 text-xs">
        <span className={rating === 'bad' ? 'text-destructive' : 'text-muted-foreground'}>
          {rating === 'good' ? S.ratedGood : S.ratedBad}
          {run.data.rating_reason ? `: ${run.data.rating_reason}` : ''}
        </span>
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-auto p-0 text-xs"
          disabled={rate.isPending}
          onClick={() => save({ rating: null })}
        >
          {S.undo}
        </Button>
      </div>
    );
  if (asking)
    return (
      <form
        aria-label={S.label}
        className="grid w-full max-w-sm gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          save({ rating: 'bad', reason: reason.trim() });
        }}
      >
        <label htmlFor={reasonId} className="text-xs font-medium">
          {S.reason}
        </label>
        <Textarea
          id={reasonId}
          rows={2}
          maxLength={1000}
          value={reason}
          placeholder={S.reasonPlaceholder}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={rate.isPending}>
            {S.save}
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setAsking(false)}>
            {S.cancel}
          </Button>
        </div>
      </form>
    );
  return (
    <div role="group" aria-label={S.label} className="flex items-center gap-1">
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label={S.good}
        title={S.good}
        disabled={rate.isPending}
        onClick={() => save({ rating: 'good' })}
      >
        <ThumbsUpIcon aria-hidden="true" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label={S.bad}
        title={S.bad}
        disabled={rate.isPending}
        onClick={() => setAsking(true)}
      >
        <ThumbsDownIcon aria-hidden="true" />
      </Button>
    </div>
  );
}
