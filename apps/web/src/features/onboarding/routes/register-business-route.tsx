// /register-business: a signed-in person without a business creates one and becomes its owner.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateBusinessRequest, type TCreateBusinessRequest } from '@titan/contracts';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { JOIN_BUSINESS_PATH } from '../../../config/paths';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCreateBusiness } from '../api/create-business';
import { LogOutButton } from '../components/log-out-button';
import { numericOnlyInputProps, toDialCode } from '../../../lib/numeric-input';
import { browserTimeZone, timeZoneOptions } from '../../../lib/time-zones';
import { ONBOARDING_STRINGS } from '../strings';
import { useEnterBusiness } from '../utils/use-enter-business';

const BUSINESS_FIELDS = ['name', 'dial_code', 'phone_number', 'time_zone'] as const;
/** An optional field left empty is sent as absent, not as an invalid empty string. */
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

export function RegisterBusinessRoute() {
  const form = useForm<TCreateBusinessRequest>({
    resolver: zodResolver(ZCreateBusinessRequest),
    // The browser's zone is the likely one; the person can choose another.
    defaultValues: { name: '', time_zone: browserTimeZone() },
  });
  const zones = useMemo(() => timeZoneOptions(browserTimeZone()), []);
  const create = useCreateBusiness();
  const enterBusiness = useEnterBusiness();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      enterBusiness((await create.mutateAsync(values)).unique_code);
    } catch (error) {
      applyApiErrorToForm(form, BUSINESS_FIELDS, error);
    }
  });

  return (
    <CenteredCard
      title={ONBOARDING_STRINGS.registerTitle}
      description={ONBOARDING_STRINGS.registerDescription}
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={ONBOARDING_STRINGS.businessName}
          autoComplete="organization"
          registration={form.register('name')}
          error={errors.name?.message}
        />
        <div className="grid grid-cols-[6rem_1fr] gap-3">
          <TextField
            label={ONBOARDING_STRINGS.dialCode}
            prefix="+"
            placeholder="1"
            {...numericOnlyInputProps}
            registration={form.register('dial_code', { setValueAs: (v) => toDialCode(v, undefined) })}
            error={errors.dial_code?.message}
          />
          <TextField
            label={`${ONBOARDING_STRINGS.phoneNumber} ${ONBOARDING_STRINGS.optional}`}
            type="tel"
            autoComplete="tel-national"
            {...numericOnlyInputProps}
            registration={form.register('phone_number', { setValueAs: emptyToUndefined })}
            error={errors.phone_number?.message}
          />
        </div>
        <SelectField
          label={ONBOARDING_STRINGS.timeZone}
          options={zones}
          registration={form.register('time_zone')}
          error={errors.time_zone?.message}
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? ONBOARDING_STRINGS.registerSubmitting : ONBOARDING_STRINGS.registerSubmit}
        </Button>
      </form>
      <p className="text-center text-sm text-muted-foreground">
        {ONBOARDING_STRINGS.joinInstead}{' '}
        <Link to={JOIN_BUSINESS_PATH} className="text-foreground underline underline-offset-4">
          {ONBOARDING_STRINGS.joinInsteadLink}
        </Link>
      </p>
      <div className="flex justify-center">
        <LogOutButton />
      </div>
    </CenteredCard>
  );
}
