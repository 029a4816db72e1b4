// When the agent runs: a few plain choices (every week on these days at this time, every day, every
// month, every few hours, once, or a cron expression), the time zone, and — live as they change —
// the schedule in words ("Every Monday at 09:00, Europe/Berlin") with its next runs.
import { useId, useMemo } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';

import { SelectField } from '../../../components/form/select-field';
import { NumberField } from '../../../components/form/number-field';
import { TextField } from '../../../components/form/text-field';
import { AGENT_STRINGS } from '../strings';
import type { TAgentForm } from '../utils/agent-form';
import { formatInZone, formToSchedule, nextRuns, scheduleInWords, SCHEDULE_PRESETS } from '../utils/schedule';
import { Section } from './section';

const S = AGENT_STRINGS.schedule;
/** Monday first, as people read a week. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

export function ScheduleField({
  form,
  hasSchedule,
  active,
  error,
  disabled,
}: {
  form: UseFormReturn<TAgentForm>;
  /** A saved schedule cannot be removed, only changed. */
  hasSchedule: boolean;
  active: boolean;
  error: string | undefined;
  disabled: boolean;
}) {
  const schedule = useWatch({ control: form.control, name: 'schedule' });
  const errors = form.formState.errors.schedule;
  const zonesId = useId();
  const zones = useMemo(() => timeZones(), []);
  const request = formToSchedule(schedule);
  const words = scheduleInWords(request);
  const upcoming = nextRuns(request);
  const presets = SCHEDULE_PRESETS.filter((p) => p !== 'none' || !hasSchedule).map((p) => ({
    value: p,
    label: S.presets[p],
  }));
  const toggleDay = (day: number, on: boolean) =>
    form.setValue('schedule.days', on ? [...schedule.days, day] : schedule.days.filter((d) => d !== day), {
      shouldDirty: true,
    });

  return (
    <Section title={S.title} error={error}>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={S.repeat}
          options={presets}
          disabled={disabled}
          registration={form.register('schedule.preset')}
        />
        {schedule.preset === 'none' ? null : (
          <div className="grid gap-2">
            <TextField
              label={S.timezone}
              hint={S.timezoneHint}
              list={zonesId}
              autoComplete="off"
              spellCheck={false}
              disabled={disabled}
              registration={form.register('schedule.timezone')}
              error={errors?.timezone?.message}
            />
            <datalist id={zonesId}>
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </div>
        )}
      </div>

      {schedule.preset === 'weekly' ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">{S.days}</legend>
          <div className="flex flex-wrap gap-3">
            {WEEK.map((day) => (
              <label key={day} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={schedule.days.includes(day)}
                  disabled={disabled}
                  onChange={(e) => toggleDay(day, e.target.checked)}
                />
                {S.dayNamesShort[day]}
              </label>
            ))}
          </div>
          {errors?.days?.message ? (
            <p role="alert" className="text-sm text-destructive">
              {errors.days.message}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-3">
        {schedule.preset === 'monthly' ? (
          <NumberField
            label={S.dayOfMonth}
            min={1}
            max={31}
            disabled={disabled}
            register={form.register}
            name="schedule.day_of_month"
          />
        ) : null}
        {['weekly', 'daily', 'monthly'].includes(schedule.preset) ? (
          <TextField
            label={S.time}
            type="time"
            disabled={disabled}
            registration={form.register('schedule.time')}
          />
        ) : null}
        {schedule.preset === 'interval' ? (
          <NumberField
            label={S.everyHours}
            min={1}
            max={744}
            disabled={disabled}
            register={form.register}
            name="schedule.every_hours"
            error={errors?.every_hours?.message}
          />
        ) : null}
        {schedule.preset === 'once' ? (
          <TextField
            label={S.runAt}
            type="datetime-local"
            disabled={disabled}
            registration={form.register('schedule.run_at')}
            error={errors?.run_at?.message}
          />
        ) : null}
        {schedule.preset === 'cron' ? (
          <TextField
            label={S.cron}
            hint={S.cronHint}
            spellCheck={false}
            className="font-mono"
            disabled={disabled}
            registration={form.register('schedule.cron')}
            error={errors?.cron?.message}
          />
        ) : null}
        {schedule.preset === 'none' || schedule.preset === 'once' ? null : (
          <SelectField
            label={S.missed}
            disabled={disabled}
            options={[
              { value: 'skip', label: S.missedOptions.skip },
              { value: 'run_once', label: S.missedOptions.run_once },
            ]}
            registration={form.register('schedule.missed')}
          />
        )}
      </div>

      {schedule.preset === 'none' || schedule.preset === 'once' ? null : (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={S.startAt}
            type="datetime-local"
            disabled={disabled}
            registration={form.register('schedule.start_at')}
            error={errors?.start_at?.message}
          />
          <TextField
            label={S.endAt}
            type="datetime-local"
            disabled={disabled}
            registration={form.register('schedule.end_at')}
            error={errors?.end_at?.message}
          />
        </div>
      )}

      {request ? (
        <div className="grid gap-2 rounded-md bg-muted/50 p-3 text-sm" aria-live="polite">
          <p>
            <span className="font-medium">{S.inWords}: </span>
            <span data-testid="schedule-words">{words}</span>
          </p>
          {'error' in upcoming ? (
            <p className="text-destructive">{upcoming.error}</p>
          ) : (
            <div>
              <p className="font-medium">{S.nextRuns}</p>
              {upcoming.runs.length === 0 ? (
                <p>{S.noNextRuns}</p>
              ) : (
                <ol aria-label={S.nextRuns} className="list-decimal pl-5">
                  {upcoming.runs.map((run) => (
                    <li key={run}>
                      <time dateTime={run}>{formatInZone(run, request.timezone)}</time>
                    </li>
                  ))}
                </ol>
              )}
              {active ? null : <p className="mt-1 text-xs text-muted-foreground">{S.nextRunsPaused}</p>}
            </div>
          )}
        </div>
      ) : null}
    </Section>
  );
}
