// A group's widget language (issue 30): the default locale and, per locale, the texts the business
// overrides (ICU MessageFormat). Each override is checked with the shared contract before saving and
// the server's 400 names `strings.<locale>.<key>`, shown on that text.
import {
  WIDGET_LOCALE_NAMES,
  WIDGET_LOCALES,
  WIDGET_MESSAGES,
  WIDGET_STRING_KEYS,
  ZWidgetStrings,
  type TChatGroupSettings,
  type TWidgetLocale,
} from '@titan/contracts';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';

import { FieldShell } from '../../../components/form/field-shell';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { describeApiFailure } from '../../../lib/api-errors';
import { useUpdateChatGroup } from '../api/update-chat-group';
import { LANGUAGE_STRINGS as S } from '../strings';

type TDrafts = Record<string, Record<string, string>>;

/** The overrides as the API takes them: empty texts dropped, locales without any left out. */
function toStrings(drafts: TDrafts): TDrafts {
  const out: TDrafts = {};
  for (const [locale, texts] of Object.entries(drafts)) {
    const kept = Object.entries(texts).filter(([, text]) => text.trim() !== '');
    if (kept.length) out[locale] = Object.fromEntries(kept);
  }
  return out;
}

/** Field messages by `strings.<locale>.<key>` (and `locale`), from the contract or the server. */
function issuesOf(strings: TDrafts): Record<string, string> {
  const parsed = ZWidgetStrings.safeParse(strings);
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[['strings', ...issue.path].join('.')] ??= issue.message;
  return errors;
}

export function WidgetLanguageForm({ group }: { group: TChatGroupSettings }) {
  const id = useId();
  const update = useUpdateChatGroup();
  const [locale, setLocale] = useState<TWidgetLocale>(group.locale);
  const [editing, setEditing] = useState<TWidgetLocale>(group.locale);
  const [drafts, setDrafts] = useState<TDrafts>(() => structuredClone(group.strings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const texts = drafts[editing] ?? {};
  const changed = (l: TWidgetLocale) => Object.values(drafts[l] ?? {}).filter((t) => t.trim()).length;
  const setText = (key: string, text: string) =>
    setDrafts((prev) => ({ ...prev, [editing]: { ...prev[editing], [key]: text } }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const strings = toStrings(drafts);
    const found = issuesOf(strings);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length) {
      setFormError(S.fixErrors);
      const first = Object.keys(found)[0]?.split('.')[1];
      if (first && (WIDGET_LOCALES as readonly string[]).includes(first)) setEditing(first as TWidgetLocale);
      return;
    }
    setBusy(true);
    try {
      const saved = await update.mutateAsync({ id: group.id, locale, strings });
      setDrafts(structuredClone(saved.strings));
      toast.success(S.saved);
    } catch (error) {
      const failure = describeApiFailure(error);
      if (failure.kind === 'response' && failure.fieldErrors) {
        const fromServer: Record<string, string> = {};
        for (const [path, messages] of Object.entries(failure.fieldErrors))
          if (messages[0]) fromServer[path] = messages[0];
        setErrors(fromServer);
        setFormError(S.fixErrors);
      } else if (failure.kind !== 'handled') {
        setFormError(failure.message || S.fixErrors);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate aria-label={S.formLabel} onSubmit={(e) => void submit(e)} className="grid gap-4">
      <FormAlert message={formError ?? undefined} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FieldShell label={S.locale} hint={S.localeHint} error={errors.locale}>
          {(a11y) => (
            <NativeSelect
              {...a11y}
              value={locale}
              onChange={(e) => setLocale(e.target.value as TWidgetLocale)}
            >
              {WIDGET_LOCALES.map((l) => (
                <option key={l} value={l}>
                  {WIDGET_LOCALE_NAMES[l]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FieldShell>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-editing`}>{S.editing}</Label>
          <NativeSelect
            id={`${id}-editing`}
            value={editing}
            onChange={(e) => setEditing(e.target.value as TWidgetLocale)}
          >
            {WIDGET_LOCALES.map((l) => (
              <option key={l} value={l}>
                {WIDGET_LOCALE_NAMES[l]}
                {changed(l) ? ` (${S.overridden(changed(l))})` : ''}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <details className="rounded-md border p-3" open={Object.keys(errors).length > 0 || undefined}>
        <summary className="cursor-pointer text-sm font-medium">
          {S.textsSummary(WIDGET_LOCALE_NAMES[editing], changed(editing))}
        </summary>
        <p className="mt-2 text-xs text-muted-foreground">{S.textsHint}</p>
        <div
          className="mt-3 grid gap-3"
          lang={editing}
          dir={editing === 'ar' ? 'rtl' : 'ltr'}
          data-testid="widget-texts"
        >
          {WIDGET_STRING_KEYS.map((key) => (
            <FieldShell
              key={`${editing}.${key}`}
              label={`${WIDGET_MESSAGES.en[key]} (${key})`}
              error={errors[`strings.${editing}.${key}`] ?? errors[`strings.${editing}`]}
            >
              {(a11y) => (
                <Input
                  {...a11y}
                  name={key}
                  value={texts[key] ?? ''}
                  placeholder={WIDGET_MESSAGES[editing][key]}
                  onChange={(e) => setText(key, e.target.value)}
                />
              )}
            </FieldShell>
          ))}
        </div>
      </details>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? S.saving : S.save}
        </Button>
      </div>
    </form>
  );
}
