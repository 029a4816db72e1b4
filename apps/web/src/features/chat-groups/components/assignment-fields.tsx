// A group's auto-assignment: the mode (off, round robin, least busy) and each member's capacity.
import { ASSIGNMENT_MODES } from '@titan/contracts';
import { useId } from 'react';

import { NumberField } from '../../../components/form/number-field';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';

const S = CHAT_GROUPS_STRINGS.assignment;

export function AssignmentFields({ form }: { form: TGroupForm }) {
  const id = useId();
  const { errors } = form.formState;
  const modeError = errors.assignment?.mode?.message;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-mode`}>{S.mode}</Label>
        <NativeSelect
          id={`${id}-mode`}
          aria-invalid={modeError ? true : undefined}
          aria-describedby={modeError ? `${id}-mode-error` : undefined}
          {...form.register('assignment.mode')}
        >
          {ASSIGNMENT_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {S.modes[mode]}
            </option>
          ))}
        </NativeSelect>
        {modeError ? (
          <p id={`${id}-mode-error`} className="text-sm text-destructive">
            {modeError}
          </p>
        ) : null}
      </div>
      <NumberField
        label={S.capacity}
        min={1}
        max={1000}
        hint={S.capacityHint}
        register={form.register}
        name="assignment.capacity"
        error={errors.assignment?.capacity?.message}
      />
    </div>
  );
}
