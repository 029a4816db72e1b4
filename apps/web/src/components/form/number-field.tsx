// A labelled number input wired to react-hook-form: read as a number (an emptied box is NaN, which
// the form's schema refuses), typed on a phone's number pad. Otherwise a TextField.
import type { ComponentProps } from 'react';
import type { FieldPath, FieldValues, UseFormRegister } from 'react-hook-form';

import { TextField } from './text-field';

type TNumberFieldProps<T extends FieldValues> = Omit<
  ComponentProps<typeof TextField>,
  'registration' | 'type' | 'inputMode'
> & {
  register: UseFormRegister<T>;
  name: FieldPath<T>;
  /** Fractions allowed (the pad shows a decimal point). */
  decimal?: boolean;
};

export function NumberField<T extends FieldValues>({
  register,
  name,
  decimal,
  ...props
}: TNumberFieldProps<T>) {
  return (
    <TextField
      type="number"
      inputMode={decimal ? 'decimal' : 'numeric'}
      registration={register(name, { valueAsNumber: true })}
      {...props}
    />
  );
}
