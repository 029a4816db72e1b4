// A group's business hours and away message: on or off, the time zone, openings (a day may hold
// several, e.g. around lunch), holidays and the away message (issue 29).
import { supportedTimeZones, WEEKDAYS } from '@titan/contracts';
import { useId, useMemo } from 'react';
import { useFieldArray } from 'react-hook-form';

import { SelectField } from '../../../components/form/select-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';

const S = CHAT_GROUPS_STRINGS.hours;
const DAY_OPTIONS = WEEKDAYS.map((day) => ({ value: day, label: S.days[day] }));

export function BusinessHoursFields({ form }: { form: TGroupForm }) {
  const id = useId();
  const { errors } = form.formState;
  const enabled = form.watch('hours_enabled');
  const weekly = useFieldArray({ control: form.control, name: 'business_hours.weekly' });
  const zones = useMemo(() => supportedTimeZones().map((zone) => ({ value: zone, label: zone })), []);
  const hoursErrors = errors.business_hours;
  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-2">
        <input
          id={`${id}-enabled`}
          type="checkbox"
          className="size-4 accent-primary"
          {...form.register('hours_enabled')}
        />
        <label htmlFor={`${id}-enabled`} className="text-sm">
          {S.enabled}
        </label>
      </div>
      {enabled ? (
        <>
          <SelectField
            label={S.timeZone}
            options={zones}
            registration={form.register('business_hours.time_zone')}
            error={hoursErrors?.time_zone?.message}
          />
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">{S.weekly}</legend>
            {weekly.fields.map((field, index) => {
              const rowErrors = hoursErrors?.weekly?.[index];
              return (
                <div
                  key={field.id}
                  role="group"
                  aria-label={S.rowLabel(index + 1)}
                  className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[1fr_8rem_8rem_auto]"
                >
                  <div className="col-span-2 sm:col-span-1">
                    <SelectField
                      label={S.day}
                      options={DAY_OPTIONS}
                      registration={form.register(`business_hours.weekly.${index}.day`)}
                      error={rowErrors?.day?.message}
                    />
                  </div>
                  <TextField
                    label={S.start}
                    type="time"
                    registration={form.register(`business_hours.weekly.${index}.start`)}
                    error={rowErrors?.start?.message}
                  />
                  <TextField
                    label={S.end}
                    type="time"
                    registration={form.register(`business_hours.weekly.${index}.end`)}
                    error={rowErrors?.end?.message}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    aria-label={S.removeLabel(index + 1)}
                    onClick={() => weekly.remove(index)}
                  >
                    {S.remove}
                  </Button>
                </div>
              );
            })}
            {hoursErrors?.weekly?.message || hoursErrors?.weekly?.root?.message ? (
              <p className="text-sm text-destructive" role="alert">
                {hoursErrors.weekly.message ?? hoursErrors.weekly.root?.message}
              </p>
            ) : null}
            <div>
              <Button
                type="button"
                variant="outline"
                onClick={() => weekly.append({ day: 'mon', start: '09:00', end: '17:00' })}
              >
                {S.add}
              </Button>
            </div>
          </fieldset>
          <TextareaField
            label={S.holidays}
            hint={S.holidaysHint}
            rows={3}
            className="font-mono"
            registration={form.register('business_hours.holidays')}
            error={hoursErrors?.holidays?.message}
          />
        </>
      ) : null}
      <TextareaField
        label={S.awayMessage}
        hint={S.awayMessageHint}
        rows={3}
        registration={form.register('away_message')}
        error={errors.away_message?.message}
      />
    </div>
  );
}
