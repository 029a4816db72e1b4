// A labelled input wired to react-hook-form, with its error (client or server) announced and linked.
import type { ComponentProps, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { Input } from '../ui/input';
import { FieldShell } from './field-shell';

type TTextFieldProps = Omit<ComponentProps<'input'>, 'id' | 'name'> & {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextField({ label, registration, error, hint, ...inputProps }: TTextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {(a11y) => <Input {...a11y} {...inputProps} {...registration} />}
    </FieldShell>
  );
}
