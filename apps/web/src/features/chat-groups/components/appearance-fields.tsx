// A group widget's look: greeting, colour (picker and hex, one value) and launcher position.
import { useId } from 'react';
import { Controller } from 'react-hook-form';

import { TextareaField } from '../../../components/form/textarea-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';
import { DEFAULT_COLOR, isHexColor } from '../utils/color';

const S = CHAT_GROUPS_STRINGS.appearance;
const POSITIONS = ['right', 'left'] as const;

export function AppearanceFields({ form }: { form: TGroupForm }) {
  const id = useId();
  const { errors } = form.formState;
  return (
    <div className="grid gap-4">
      <TextareaField
        label={S.greeting}
        rows={2}
        hint={S.greetingHint}
        registration={form.register('greeting')}
        error={errors.greeting?.message}
      />
      <Controller
        control={form.control}
        name="color"
        render={({ field, fieldState }) => (
          <div className="grid gap-2">
            <Label htmlFor={`${id}-hex`}>{S.colorHex}</Label>
            <div className="flex items-center gap-2">
              <input
                type="color"
                aria-label={S.colorPicker}
                className="h-9 w-12 cursor-pointer rounded-md border bg-transparent p-1"
                value={isHexColor(field.value) ? field.value.toLowerCase() : DEFAULT_COLOR}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
              />
              <Input
                id={`${id}-hex`}
                ref={field.ref}
                name={field.name}
                value={field.value}
                maxLength={7}
                spellCheck={false}
                autoComplete="off"
                className="w-32 font-mono"
                aria-invalid={fieldState.error ? true : undefined}
                aria-describedby={fieldState.error ? `${id}-hex-error` : undefined}
                onChange={(event) => field.onChange(event.target.value.trim())}
                onBlur={field.onBlur}
              />
            </div>
            {fieldState.error ? (
              <p id={`${id}-hex-error`} className="text-sm text-destructive">
                {fieldState.error.message}
              </p>
            ) : null}
          </div>
        )}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{S.position}</legend>
        <div className="flex gap-4">
          {POSITIONS.map((position) => (
            <label key={position} className="flex items-center gap-2 text-sm">
              <input type="radio" value={position} {...form.register('launcher_position')} />
              {S.positions[position]}
            </label>
          ))}
        </div>
        {errors.launcher_position ? (
          <p className="text-sm text-destructive">{errors.launcher_position.message}</p>
        ) : null}
      </fieldset>
    </div>
  );
}
