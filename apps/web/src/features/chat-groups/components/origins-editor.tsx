// A list of allowed origins: type one, add it (checked by the contract's rule at once), remove any.
// Controlled: the business-wide settings and a group's form both keep the list in their own form.
import { PlusIcon, XIcon } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';

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

export function OriginsEditor({
  value,
  onChange,
  hint,
  error,
  itemErrors = [],
  disabled,
}: {
  value: string[];
  onChange: (origins: string[]) => void;
  hint: string;
  error?: string | undefined;
  itemErrors?: readonly (string | undefined)[];
  disabled?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [addError, setAddError] = useState<string | null>(null);

  const add = () => {
    const parsed = ZOrigin.safeParse(tidy(text));
    if (!parsed.success) return setAddError(parsed.error.issues[0]?.message ?? null);
    if (value.includes(parsed.data)) return setAddError(S.duplicate);
    if (value.length >= ORIGINS_MAX) return setAddError(S.tooMany(ORIGINS_MAX));
    onChange([...value, parsed.data]);
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
