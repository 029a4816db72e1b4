// The frame every form field shares: label, control, hint and error, linked for assistive tech.
import { useId, type ReactNode } from 'react';

import { Label } from '../ui/label';

/** What a control needs to be linked to its label, hint and error. */
export type TControlA11y = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

export function FieldShell({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (a11y: TControlA11y) => ReactNode;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
