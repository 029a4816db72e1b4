// Nobody who answers this chat is online: the visitor may leave an email address, stored on their
// record, so the conversation goes on by email; then the chat says where the answer will go.
import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../api';
import { useT } from '../i18n';

export type TAway = {
  /** The address just left (the thanks is shown), or null while asking. */
  savedEmail: string | null;
  onSave(email: string): Promise<void>;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function AwayEmail({ away }: { away: TAway }) {
  const tr = useT();
  const { t } = tr;
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (away.savedEmail) {
    return (
      <div className="away" role="status">
        <p>{t('away_email_saved', { email: away.savedEmail })}</p>
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const value = email.trim();
    if (!EMAIL.test(value)) {
      setError(t('invalid_email'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await away.onSave(value);
    } catch (err) {
      const field = err instanceof ApiError && err.fields?.email?.[0];
      setError(field || errorText(err, t('generic_error'), tr));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="away" onSubmit={submit} noValidate aria-labelledby="away-title">
      <p id="away-title" className="away-title">
        {t('away_title')}
      </p>
      <p className="muted">{t('away_prompt')}</p>
      <div className="away-row">
        <label className="sr-only" htmlFor="away-email">
          {t('away_email_label')}
        </label>
        <input
          id="away-email"
          type="email"
          autoComplete="email"
          placeholder={t('away_email_label')}
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'away-error' : undefined}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="send" disabled={busy}>
          {t('away_email_save')}
        </button>
      </div>
      {error ? (
        <p className="error" id="away-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
