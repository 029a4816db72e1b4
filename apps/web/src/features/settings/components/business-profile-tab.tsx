// Settings → Business profile: the current business's name, phone and time zone (editable with
// business.update), its code, shared with people who should ask to join, and its marketing frequency cap.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZUpdateBusinessRequest, type TBusiness, type TUpdateBusinessRequest } from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { CopyButton } from '../../../components/copy-button';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useBusiness } from '../../../lib/business/business';
import { usePermissions } from '../../../lib/business/roles';
import { useUpdateBusiness } from '../api/update-business';
import { dialCodeDigits, numericOnlyInputProps, toDialCode } from '../../../lib/numeric-input';
import { SETTINGS_STRINGS } from '../strings';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { SelectField } from '../../../components/form/select-field';
import { timeZoneOptions } from '../../../lib/time-zones';
import { FrequencyCapCard } from './frequency-cap-card';

const STRINGS = SETTINGS_STRINGS.business;
const BUSINESS_FIELDS = ['name', 'dial_code', 'phone_number', 'time_zone'] as const;
/** Clearing an optional field removes the value on the server. */
const emptyToNull = (value: unknown) => (value === '' ? null : value);

function BusinessForm({ business }: { business: TBusiness }) {
  const form = useForm<TUpdateBusinessRequest>({
    resolver: zodResolver(ZUpdateBusinessRequest),
    defaultValues: {
      name: business.name,
      // The field holds the digits; the "+" is its prefix (toDialCode puts it back).
      dial_code: dialCodeDigits(business.dial_code),
      phone_number: business.phone_number,
      time_zone: business.time_zone,
    },
  });
  const update = useUpdateBusiness();
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      form.reset(values);
      toast.success(SETTINGS_STRINGS.saved);
    } catch (error) {
      applyApiErrorToForm(form, BUSINESS_FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid max-w-md gap-4">
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <TextField label={STRINGS.name} registration={form.register('name')} error={errors.name?.message} />
      <div className="grid grid-cols-[6rem_1fr] gap-3">
        <TextField
          label={STRINGS.dialCode}
          prefix="+"
          placeholder="1"
          {...numericOnlyInputProps}
          registration={form.register('dial_code', { setValueAs: (v) => toDialCode(v, null) })}
          error={errors.dial_code?.message}
        />
        <TextField
          label={`${STRINGS.phoneNumber} ${SETTINGS_STRINGS.optional}`}
          type="tel"
          {...numericOnlyInputProps}
          registration={form.register('phone_number', { setValueAs: emptyToNull })}
          error={errors.phone_number?.message}
        />
      </div>
      <SelectField
        label={STRINGS.timeZone}
        options={timeZoneOptions(business.time_zone)}
        registration={form.register('time_zone')}
        error={errors.time_zone?.message}
      />
      <p className="-mt-2 text-sm text-muted-foreground">{STRINGS.timeZoneHint}</p>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? SETTINGS_STRINGS.saving : SETTINGS_STRINGS.save}
        </Button>
      </div>
    </form>
  );
}

function BusinessDetails({ business }: { business: TBusiness }) {
  const phone = [business.dial_code, business.phone_number].filter(Boolean).join(' ');
  return (
    <dl className="grid max-w-md grid-cols-[10rem_1fr] gap-2 text-sm">
      <dt className="text-muted-foreground">{STRINGS.name}</dt>
      <dd>{business.name}</dd>
      <dt className="text-muted-foreground">{STRINGS.phoneNumber}</dt>
      <dd>{phone || STRINGS.notSet}</dd>
      <dt className="text-muted-foreground">{STRINGS.timeZone}</dt>
      <dd>{business.time_zone}</dd>
    </dl>
  );
}

export function BusinessProfileTab() {
  const business = useBusiness();
  const { can } = usePermissions();
  if (business.isPending) return <SectionLoading />;
  if (business.isError)
    return <SectionError error={business.error} onRetry={() => void business.refetch()} />;
  const data = business.data;
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{STRINGS.title}</CardTitle>
          <CardDescription>{STRINGS.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {can('business.update') ? (
            <BusinessForm key={data.updated_on} business={data} />
          ) : (
            <BusinessDetails business={data} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{STRINGS.codeTitle}</CardTitle>
          <CardDescription>{STRINGS.codeDescription}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-3">
          <code aria-label={STRINGS.codeTitle} className="rounded-md bg-muted px-3 py-1.5 font-mono text-sm">
            {data.unique_code}
          </code>
          <CopyButton value={data.unique_code} />
        </CardContent>
      </Card>
      <FrequencyCapCard />
    </div>
  );
}
