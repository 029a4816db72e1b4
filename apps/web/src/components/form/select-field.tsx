// A labelled native select wired to react-hook-form.
import { useId, type ComponentProps } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';

type TSelectFieldProps = Omit<ComponentProps<'select'>, 'id' | 'name'> & {
  label: string;
  registration: UseFormRegisterReturn;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
};

export function SelectField({ label, registration, options, error, ...selectProps }: TSelectFieldProps) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...selectProps}
        {...registration}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
