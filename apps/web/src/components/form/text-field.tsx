// A labelled input wired to react-hook-form, with its error (client or server) announced and linked.
import type { ComponentProps, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { cn } from '../../lib/utils';
import { Input } from '../ui/input';
import { FieldShell } from './field-shell';

type TTextFieldProps = Omit<ComponentProps<'input'>, 'id' | 'name'> & {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
  /** Shown inside the box before the value, e.g. the "+" of a dial code; not part of the value. */
  prefix?: string;
};

export function TextField({ label, registration, error, hint, prefix, ...inputProps }: TTextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {(a11y) =>
        prefix ? (
          <div className="relative">
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted-foreground"
            >
              {prefix}
            </span>
            <Input {...a11y} {...inputProps} {...registration} className={cn('pl-7', inputProps.className)} />
          </div>
        ) : (
          <Input {...a11y} {...inputProps} {...registration} />
        )
      }
    </FieldShell>
  );
}
