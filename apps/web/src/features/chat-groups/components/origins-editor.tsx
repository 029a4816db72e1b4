// A list of allowed origins: type one, add it (checked by the contract's rule at once), remove any.
// Controlled: the business-wide settings and a group's form both keep the list in their own form,
// and the text typed but not yet added (the draft) too: saving adds it, or refuses with the field's
// error, so a typed origin is never silently dropped (which would leave the widget open to any site).
import { PlusIcon, XIcon } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { CHAT_GROUPS_STRINGS } from '../strings';
import { ORIGINS_MAX, ZOrigin } from '../utils/group-form';

const S = CHAT_GROUPS_STRINGS.origins;

/** What a pasted origin usually carries too much of: a trailing slash. */
function tidy(text: string): string {
  return text.trim().replace(/\/$/, '');
}

export type TOriginDraft = {
  text: string;
  setText: (text: string) => void;
  error: string | null;
  setError: (error: string | null) => void;
  input: RefObject<HTMLInputElement | null>;
};

/** The text typed into "Origin to allow" and its error, kept by the form that saves the list. */
export function useOriginDraft(): TOriginDraft {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement | null>(null);
  return { text, setText, error, setError, input };
}

function checkOrigin(text: string, value: string[]): { origin: string } | { error: string } {
  const parsed = ZOrigin.safeParse(tidy(text));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? S.invalid };
  if (value.includes(parsed.data)) return { error: S.duplicate };
  if (value.length >= ORIGINS_MAX) return { error: S.tooMany(ORIGINS_MAX) };
  return { origin: parsed.data };
}

/**
 * At save: the list to save with the typed origin added, or null when the typed text is not a valid
 * origin (its error is then shown under "Origin to allow" and the field focused). A typed origin
 * already in the list is simply cleared.
 */
export function commitOriginDraft(draft: TOriginDraft, value: string[]): string[] | null {
  if (!draft.text.trim()) return value;
  const checked = checkOrigin(draft.text, value);
  if ('error' in checked) {
    if (checked.error === S.duplicate) {
      draft.setText('');
      return value;
    }
    draft.setError(S.notAdded(checked.error));
    draft.input.current?.focus();
    return null;
  }
  draft.setText('');
  draft.setError(null);
  return [...value, checked.origin];
}

export function OriginsEditor({
  value,
  onChange,
  hint,
  error,
  itemErrors = [],
  disabled,
  draft,
}: {
  value: string[];
  onChange: (origins: string[]) => void;
  hint: string;
  error?: string | undefined;
  itemErrors?: readonly (string | undefined)[];
  disabled?: boolean;
  draft?: TOriginDraft | undefined;
}) {
  const id = useId();
  const own = useOriginDraft();
  const { text, setText, error: addError, setError: setAddError, input } = draft ?? own;

  const add = () => {
    const checked = checkOrigin(text, value);
    if ('error' in checked) return setAddError(checked.error);
    onChange([...value, checked.origin]);
    setText('');
    setAddError(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the origin rather than submitting the whole form.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  const shownError = addError ?? error;
  return (
    <fieldset className="grid gap-3" aria-describedby={`${id}-hint`}>
      <legend className="sr-only">{S.title}</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
      </p>
      {value.length === 0 ? (
        <p className="text-sm text-muted-foreground">{S.none}</p>
      ) : (
        <ul aria-label={S.listLabel} className="grid gap-1">
          {value.map((origin, index) => (
            <li key={origin} className="grid gap-1">
              <div className="flex items-center gap-2 rounded-md border px-3 py-1">
                <code className="min-w-0 flex-1 truncate font-mono text-sm">{origin}</code>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={S.remove(origin)}
                  disabled={disabled}
                  onClick={() => onChange(value.filter((_, i) => i !== index))}
                >
                  <XIcon aria-hidden="true" />
                </Button>
              </div>
              {itemErrors[index] ? <p className="text-sm text-destructive">{itemErrors[index]}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-2">
        <Label htmlFor={`${id}-input`}>{S.input}</Label>
        <div className="flex gap-2">
          <Input
            ref={input}
            id={`${id}-input`}
            value={text}
            inputMode="url"
            autoComplete="off"
            placeholder="https://www.example.com"
            aria-invalid={shownError ? true : undefined}
            aria-describedby={shownError ? `${id}-error` : undefined}
            disabled={disabled}
            onChange={(event) => {
              setText(event.target.value);
              setAddError(null);
            }}
            onKeyDown={onKeyDown}
          />
          <Button type="button" variant="outline" disabled={disabled || !text.trim()} onClick={add}>
            <PlusIcon aria-hidden="true" />
            {S.add}
          </Button>
        </div>
        {shownError ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
            {shownError}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
