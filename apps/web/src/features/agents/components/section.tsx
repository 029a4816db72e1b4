// A titled section of the agent screen (a fieldset, so its controls are grouped for assistive tech),
// with the section's own error alert for what no single field holds.
import type { ReactNode } from 'react';

export function Section({
  title,
  hint,
  error,
  children,
}: {
  title: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <fieldset className="grid gap-4 rounded-lg border p-4 md:p-6">
      <legend className="px-1 text-base font-semibold">{title}</legend>
      {hint ? <p className="-mt-2 text-sm text-muted-foreground">{hint}</p> : null}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}

/** A checkbox with its label, keyboard-usable as any native checkbox. */
export function CheckboxRow({
  checked,
  onChange,
  label,
  detail,
  disabled,
  describedBy,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  detail?: ReactNode;
  disabled?: boolean;
  describedBy?: string | undefined;
}) {
  return (
    <label className="flex items-start gap-3 text-sm">
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-primary"
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="grid gap-0.5">
        <span>{label}</span>
        {detail ? <span className="text-xs text-muted-foreground">{detail}</span> : null}
      </span>
    </label>
  );
}
