// A labelled text area wired to react-hook-form, with its error (client or server) announced and linked.
import type { ComponentProps, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { Textarea } from '../ui/textarea';
import { FieldShell } from './field-shell';

type TTextareaFieldProps = Omit<ComponentProps<'textarea'>, 'id' | 'name'> & {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextareaField({ label, registration, error, hint, ...textareaProps }: TTextareaFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {(a11y) => <Textarea {...a11y} {...textareaProps} {...registration} />}
    </FieldShell>
  );
}
