// /p/{token}: the preference centre behind a business's mail. The person sees the business (its
// name and look, never Titan's) and the address the mail went to, switches the business's topics
// on or off for email, or stops all of its mail — saved with one button, then said so. Choosing
// topics again after stopping all subscribes again. A link whose token is not valid says so.
import { CheckCircle2Icon, SaveIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useParams } from 'react-router';
import type { TPreferences } from '@titan/contracts';

import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorStatus } from '../../../lib/api-errors';
import { usePreferences } from '../api/get-preferences';
import { useSavePreferences } from '../api/save-preferences';
import { BusinessCard } from '../components/business-card';
import { consentLocale, consentStrings, type TConsentPageStrings } from '../strings';

/** The server refuses a token it did not sign (400) or whose send is gone (404). */
const INVALID = new Set([400, 401, 403, 404, 410]);

function Choices({ token, prefs, S }: { token: string; prefs: TPreferences; S: TConsentPageStrings }) {
  const save = useSavePreferences(token);
  const [kept, setKept] = useState(() => new Set(prefs.topics.filter((t) => t.subscribed).map((t) => t.id)));
  const [leaveAll, setLeaveAll] = useState(prefs.unsubscribe_all);
  const [dirty, setDirty] = useState(false);
  const ids = useId();
  useEffect(() => {
    document.title = S.title(prefs.business.name);
  }, [S, prefs.business.name]);

  const toggle = (id: number, on: boolean) => {
    const next = new Set(kept);
    if (on) next.add(id);
    else next.delete(id);
    setKept(next);
    // Choosing a topic means mail again.
    if (on) setLeaveAll(false);
    setDirty(true);
  };
  const submit = () => {
    save.mutate(
      { topics: leaveAll ? [] : [...kept], unsubscribe_all: leaveAll },
      {
        // The page shows what the server kept.
        onSuccess: (saved) => {
          setKept(new Set(saved.topics.filter((t) => t.subscribed).map((t) => t.id)));
          setLeaveAll(saved.unsubscribe_all);
          setDirty(false);
        },
      },
    );
  };

  return (
    <BusinessCard
      business={prefs.business}
      lang={prefs.locale}
      title={prefs.unsubscribe_all && !dirty ? S.leftAllTitle : S.title(prefs.business.name)}
      description={
        prefs.unsubscribe_all && !dirty ? S.leftAll(prefs.business.name, prefs.email) : S.intro(prefs.email)
      }
    >
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-medium">
            {S.topicsLegend} · {S.channel}
          </legend>
          {prefs.topics.length === 0 ? <p className="text-sm text-muted-foreground">{S.noTopics}</p> : null}
          {prefs.topics.map((t) => (
            <label key={t.id} className="flex items-start gap-3 text-sm" htmlFor={`${ids}-${t.id}`}>
              <input
                id={`${ids}-${t.id}`}
                type="checkbox"
                className="mt-0.5 size-4"
                checked={!leaveAll && kept.has(t.id)}
                onChange={(e) => toggle(t.id, e.target.checked)}
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{t.name}</span>
                {t.description ? <span className="text-muted-foreground">{t.description}</span> : null}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="flex items-start gap-3 border-t pt-4 text-sm" htmlFor={`${ids}-all`}>
          <input
            id={`${ids}-all`}
            type="checkbox"
            className="mt-0.5 size-4"
            checked={leaveAll}
            onChange={(e) => {
              setLeaveAll(e.target.checked);
              setDirty(true);
            }}
          />
          <span className="grid gap-0.5">
            <span className="font-medium">{S.leaveAll}</span>
            <span className="text-muted-foreground">{S.leaveAllHint}</span>
          </span>
        </label>
        {prefs.unsubscribe_all && !dirty ? (
          <p className="text-sm text-muted-foreground">{S.comeBack}</p>
        ) : null}
        {save.isError ? (
          <Alert variant="destructive">
            <AlertDescription>{S.failed}</AlertDescription>
          </Alert>
        ) : null}
        {save.isSuccess && !dirty ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <CheckCircle2Icon aria-hidden="true" className="size-4 text-emerald-600" />
            {S.saved}
          </p>
        ) : null}
        <Button type="submit" disabled={save.isPending || !dirty}>
          {save.isPending ? <Spinner /> : <SaveIcon aria-hidden="true" />}
          {save.isPending ? S.saving : S.save}
        </Button>
      </form>
    </BusinessCard>
  );
}

export function PreferencesRoute() {
  const token = useParams().token?.trim() ?? '';
  const prefs = usePreferences(token);
  const lang = consentLocale();
  const fallback = consentStrings(lang);
  useEffect(() => {
    if (!token || prefs.isError) document.title = fallback.invalidTitle;
  }, [token, prefs.isError, fallback.invalidTitle]);
  const status = prefs.isError ? apiErrorStatus(prefs.error) : null;
  if (!token || (status !== null && INVALID.has(status)))
    return (
      <BusinessCard
        business={null}
        lang={lang}
        title={fallback.invalidTitle}
        description={fallback.invalid}
      />
    );
  if (prefs.isPending)
    return (
      <BusinessCard business={null} lang={lang} title={fallback.loading}>
        <Spinner />
      </BusinessCard>
    );
  if (prefs.isError)
    return (
      <BusinessCard business={null} lang={lang} title={fallback.failed}>
        <Button variant="outline" onClick={() => void prefs.refetch()}>
          {fallback.retry}
        </Button>
      </BusinessCard>
    );
  return <Choices token={token} prefs={prefs.data} S={consentStrings(prefs.data.locale)} />;
}
