// The satisfaction survey a resolved conversation asks (issue 29): five stars as a radio group, an
// optional comment, sent by the survey's token; then a thanks. In the visitor's language.
import { useEffect, useState, type FormEvent } from 'react';
import { errorText, publicApi } from '../api';
import { useT } from '../i18n';

/**
 * The contract's CSAT_RATINGS (1–5), kept here: a value import of @titan/contracts would bring
 * zod and every schema into the frame (its budget is 80 KB gzip).
 */
const CSAT_RATINGS = [1, 2, 3, 4, 5] as const;

export function CsatRating({ token }: { token: string }) {
  const tr = useT();
  const { t } = tr;
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `csat-${token.slice(0, 8)}`;

  // A survey answered before (another tab, an earlier visit) shows its thanks.
  useEffect(() => {
    let cancelled = false;
    publicApi.csat(token).then(
      (survey) => {
        if (!cancelled && survey.rating !== null) setDone(true);
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  if (done) {
    return (
      <p className="csat-thanks" role="status">
        {t('csat_thanks')}
      </p>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (rating === null || busy) return;
    setBusy(true);
    setError(null);
    try {
      await publicApi.rate(token, { rating, ...(comment.trim() ? { comment: comment.trim() } : {}) });
      setDone(true);
    } catch (err) {
      setError(errorText(err, t('generic_error'), tr));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="csat" onSubmit={submit} aria-labelledby={`${id}-q`}>
      <p id={`${id}-q`} className="away-title">
        {t('csat_question')}
      </p>
      <div className="csat-stars" role="radiogroup" aria-labelledby={`${id}-q`}>
        {CSAT_RATINGS.map((n) => (
          <label key={n} className={rating !== null && n <= rating ? 'star on' : 'star'}>
            <input
              type="radio"
              name={id}
              value={n}
              className="sr-only"
              checked={rating === n}
              onChange={() => setRating(n)}
            />
            <span aria-hidden="true">★</span>
            <span className="sr-only">{t('csat_rating', { rating: n })}</span>
          </label>
        ))}
      </div>
      <label className="sr-only" htmlFor={`${id}-comment`}>
        {t('csat_comment_label')}
      </label>
      <textarea
        id={`${id}-comment`}
        rows={2}
        placeholder={t('csat_comment_label')}
        value={comment}
        maxLength={2000}
        onChange={(e) => setComment(e.target.value)}
      />
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="send" disabled={rating === null || busy}>
        {t('csat_send')}
      </button>
    </form>
  );
}
