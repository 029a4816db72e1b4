// A group's SLA targets (first response, resolution, in minutes) and whether resolving asks the
// customer for a rating (issue 29).
import { useId } from 'react';

import { TextField } from '../../../components/form/text-field';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';

const S = CHAT_GROUPS_STRINGS.serviceLevels;

export function ServiceLevelFields({ form }: { form: TGroupForm }) {
  const id = useId();
  const { errors } = form.formState;
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={S.firstResponse}
          inputMode="numeric"
          hint={S.targetHint}
          registration={form.register('sla.first_response_minutes')}
          error={errors.sla?.first_response_minutes?.message}
        />
        <TextField
          label={S.resolution}
          inputMode="numeric"
          hint={S.targetHint}
          registration={form.register('sla.resolution_minutes')}
          error={errors.sla?.resolution_minutes?.message}
        />
      </div>
      <div className="flex items-center gap-2">
        <input
          id={`${id}-csat`}
          type="checkbox"
          className="size-4 accent-primary"
          {...form.register('csat')}
        />
        <label htmlFor={`${id}-csat`} className="text-sm">
          {S.csat}
        </label>
      </div>
    </div>
  );
}
