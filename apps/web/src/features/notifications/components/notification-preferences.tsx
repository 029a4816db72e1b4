// Settings → Notifications: per kind of notification, whether it reaches the member in the app,
// by push and by email (GET/PUT /api/notifications/preferences/); this browser's push permission
// and subscription; and the chime.
import {
  NOTIFICATION_TYPES,
  type TNotificationChannels,
  type TNotificationPreferences,
} from '@titan/contracts';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { apiErrorMessage } from '../../../lib/api-errors';
import { usePreferences } from '../api/get-preferences';
import { useSavePreferences } from '../api/save-preferences';
import {
  disablePush,
  enablePush,
  pushState,
  setSoundEnabled,
  soundEnabled,
  type TPushState,
} from '../lib/push';
import { NOTIFICATION_STRINGS } from '../strings';

const S = NOTIFICATION_STRINGS.preferences;
const CHANNELS: { key: keyof TNotificationChannels; label: string }[] = [
  { key: 'in_app', label: S.inApp },
  { key: 'push', label: S.push },
  { key: 'email', label: S.email },
];

function PreferencesForm({ saved }: { saved: TNotificationPreferences }) {
  const [prefs, setPrefs] = useState(saved);
  const save = useSavePreferences();
  const dirty = JSON.stringify(prefs) !== JSON.stringify(saved);
  const unsaved = useUnsavedChanges(dirty);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    try {
      const next = await save.mutateAsync(prefs);
      setPrefs(next);
      toast.success(S.saved);
    } catch (e) {
      setError(apiErrorMessage(e, NOTIFICATION_STRINGS.loadFailed));
    }
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {unsaved.dialog}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <ul className="grid gap-3">
        {NOTIFICATION_TYPES.map((type) => (
          <li key={type} className="rounded-md border p-3">
            <fieldset className="grid gap-2">
              <legend className="text-sm font-medium">{NOTIFICATION_STRINGS.types[type]}</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {CHANNELS.map(({ key, label }) => (
                  <label key={key} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      checked={prefs[type][key]}
                      onChange={(e) =>
                        setPrefs((p) => ({ ...p, [type]: { ...p[type], [key]: e.target.checked } }))
                      }
                    />
                    {label}
                  </label>
                ))}
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
      <div>
        <Button type="submit" disabled={!dirty || save.isPending}>
          {save.isPending ? '…' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}

function BrowserCard() {
  const [state, setState] = useState<TPushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [sound, setSound] = useState(soundEnabled);
  useEffect(() => {
    void pushState().then(setState, () => setState('unsupported'));
  }, []);

  const turnOn = async () => {
    setBusy(true);
    setFailed(false);
    try {
      setState(await enablePush(true));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async () => {
    setBusy(true);
    await disablePush();
    setState(await pushState());
    setBusy(false);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.browserTitle}</CardTitle>
        <CardDescription>{S.browserDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {state === 'unsupported' ? <p className="text-sm">{S.unsupported}</p> : null}
        {state === 'denied' ? <p className="text-sm">{S.denied}</p> : null}
        {state === 'enabled' ? (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm" role="status">
              {S.enabled}
            </p>
            <Button variant="outline" size="sm" disabled={busy} onClick={() => void turnOff()}>
              {S.disable}
            </Button>
          </div>
        ) : null}
        {state === 'disabled' ? (
          <div>
            <Button disabled={busy} onClick={() => void turnOn()}>
              {S.enable}
            </Button>
          </div>
        ) : null}
        {failed ? (
          <p role="alert" className="text-sm text-destructive">
            {S.failed}
          </p>
        ) : null}
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={sound}
            onChange={(e) => {
              setSound(e.target.checked);
              setSoundEnabled(e.target.checked);
            }}
          />
          {S.sound}
        </label>
      </CardContent>
    </Card>
  );
}

export function NotificationPreferences() {
  const query = usePreferences();
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{S.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {query.isPending ? (
            <SectionLoading />
          ) : query.isError ? (
            <SectionError error={query.error} onRetry={() => void query.refetch()} />
          ) : (
            <PreferencesForm saved={query.data} />
          )}
        </CardContent>
      </Card>
      <BrowserCard />
    </>
  );
}
