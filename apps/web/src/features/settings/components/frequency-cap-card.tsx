// Settings → Business profile → Marketing frequency cap: "at most N marketing messages per customer
// every D days", shared by campaigns, journeys and agents (issue 32). Editable with business.update;
// everyone else reads the rule as a sentence.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  FREQUENCY_CAP_WORDS,
  ZFrequencyCapRequest,
  type TFrequencyCap,
  type TFrequencyCapRequest,
} from '@titan/contracts';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { NumberField } from '../../../components/form/number-field';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useFrequencyCap } from '../api/get-frequency-cap';
import { useUpdateFrequencyCap } from '../api/update-frequency-cap';
import { SETTINGS_STRINGS } from '../strings';

const STRINGS = SETTINGS_STRINGS.frequencyCap;
const FIELDS = ['enabled', 'max_messages', 'period_days'] as const;

/** The rule in plain words, or that there is none. */
function RuleSentence({ cap }: { cap: TFrequencyCap }) {
  return (
    <p className="text-sm" aria-live="polite" data-testid="frequency-cap-rule">
      {cap.enabled &&
      Number.isInteger(cap.max_messages) &&
      cap.max_messages > 0 &&
      Number.isInteger(cap.period_days) &&
      cap.period_days > 0
        ? FREQUENCY_CAP_WORDS.rule(cap)
        : STRINGS.off}
    </p>
  );
}

function FrequencyCapForm({ cap }: { cap: TFrequencyCap }) {
  const form = useForm<TFrequencyCapRequest>({
    resolver: zodResolver(ZFrequencyCapRequest),
    defaultValues: cap,
  });
  const update = useUpdateFrequencyCap();
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);
  const values = useWatch({ control: form.control }) as TFrequencyCap;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const saved = await update.mutateAsync(input);
      form.reset(saved);
      toast.success(SETTINGS_STRINGS.saved);
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid max-w-md gap-4">
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <label className="flex items-start gap-3 text-sm font-medium">
        <input type="checkbox" className="mt-0.5 size-4 accent-primary" {...form.register('enabled')} />
        <span>{STRINGS.enabled}</span>
      </label>
      <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-start gap-3">
        <NumberField
          label={STRINGS.maxMessages}
          min={1}
          max={100}
          disabled={!values.enabled}
          register={form.register}
          name="max_messages"
          error={errors.max_messages?.message}
        />
        <span className="pt-8 text-sm text-muted-foreground">{STRINGS.every}</span>
        <NumberField
          label={STRINGS.periodDays}
          min={1}
          max={90}
          disabled={!values.enabled}
          register={form.register}
          name="period_days"
          error={errors.period_days?.message}
        />
      </div>
      <RuleSentence cap={values} />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? SETTINGS_STRINGS.saving : STRINGS.save}
        </Button>
      </div>
    </form>
  );
}

export function FrequencyCapCard() {
  const cap = useFrequencyCap();
  const { can } = usePermissions();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {cap.isPending ? (
          <SectionLoading />
        ) : cap.isError ? (
          <SectionError error={cap.error} onRetry={() => void cap.refetch()} />
        ) : can('business.update') ? (
          <FrequencyCapForm cap={cap.data} />
        ) : (
          <RuleSentence cap={cap.data} />
        )}
        <p className="text-xs text-muted-foreground">{STRINGS.skipped}</p>
      </CardContent>
    </Card>
  );
}
