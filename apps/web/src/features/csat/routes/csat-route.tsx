// /csat/:token: the rating page a resolved email, SMS or WhatsApp conversation links to (issue 29).
// Five stars as a radio group, an optional comment; then thanks, with a way to change the rating.
import { StarIcon } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { SectionLoading } from '../../../components/load-state';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/utils';
import { useSurvey } from '../api/get-survey';
import { useRate } from '../api/rate';
import { CSAT_STRINGS as S } from '../strings';

export function CsatRoute() {
  const { token = '' } = useParams();
  const survey = useSurvey(token);
  const rate = useRate(token);
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    document.title = S.title;
  }, []);

  if (survey.isPending) return <SectionLoading />;
  if (survey.isError) return <CenteredCard brand={null} title={S.invalidTitle} description={S.invalid} />;
  const { business } = survey.data;
  if (survey.data.rating !== null && !editing) {
    return (
      <CenteredCard
        brand={business}
        title={S.thanksTitle}
        description={S.thanks(business, survey.data.rating)}
      >
        <Button variant="outline" onClick={() => setEditing(true)}>
          {S.change}
        </Button>
      </CenteredCard>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rating === null) return;
    rate.mutate(
      { rating, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <CenteredCard brand={business} title={S.title} description={S.description(business)}>
      <form className="grid gap-4" onSubmit={submit}>
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{S.ratingLegend}</legend>
          <div className="flex gap-1">
            {[1, 2, 3, 4, 5].map((n) => (
              <label
                key={n}
                className="cursor-pointer rounded-md p-1 focus-within:ring-2 focus-within:ring-ring"
              >
                <input
                  type="radio"
                  name={`${id}-rating`}
                  value={n}
                  className="sr-only"
                  checked={rating === n}
                  onChange={() => setRating(n)}
                />
                <StarIcon
                  aria-hidden="true"
                  className={cn(
                    'size-8',
                    rating !== null && n <= rating
                      ? 'fill-amber-500 text-amber-600 dark:text-amber-400'
                      : 'text-muted-foreground',
                  )}
                />
                <span className="sr-only">{S.rating(n)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-comment`}>{S.comment}</Label>
          <Textarea
            id={`${id}-comment`}
            rows={3}
            maxLength={2000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </div>
        {rate.isError ? (
          <Alert variant="destructive">
            <AlertDescription>{S.failed}</AlertDescription>
          </Alert>
        ) : null}
        <Button type="submit" disabled={rating === null || rate.isPending}>
          {rate.isPending ? S.sending : S.send}
        </Button>
      </form>
    </CenteredCard>
  );
}
