// /join-existing-business: ask to join a business by its code; an owner or admin approves.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZAssignRequest, type TAssignResult } from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';

import { CenteredCard } from '../../../components/centered-card';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { REGISTER_BUSINESS_PATH } from '../../../config/paths';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useAssignToBusiness } from '../api/assign-to-business';
import { LogOutButton } from '../components/log-out-button';
import { ONBOARDING_STRINGS } from '../strings';
import { useEnterBusiness } from '../utils/use-enter-business';

// The join-request variant of the assign body.
const ZJoinByCode = ZAssignRequest.options[1];
const JOIN_FIELDS = ['unique_code'] as const;

export function JoinBusinessRoute() {
  const form = useForm<z.input<typeof ZJoinByCode>, unknown, z.output<typeof ZJoinByCode>>({
    resolver: zodResolver(ZJoinByCode),
    defaultValues: { unique_code: '' },
  });
  const assign = useAssignToBusiness();
  const enterBusiness = useEnterBusiness();
  const [pending, setPending] = useState<TAssignResult | null>(null);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await assign.mutateAsync(values);
      if (result.status === 'joined') enterBusiness(result.business.unique_code);
      else setPending(result);
    } catch (error) {
      applyApiErrorToForm(form, JOIN_FIELDS, error);
    }
  });

  if (pending) {
    return (
      <CenteredCard
        title={ONBOARDING_STRINGS.joinPendingTitle}
        description={ONBOARDING_STRINGS.joinPendingText(pending.business.name)}
      >
        <div className="flex justify-center">
          <LogOutButton />
        </div>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title={ONBOARDING_STRINGS.joinTitle} description={ONBOARDING_STRINGS.joinDescription}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={ONBOARDING_STRINGS.businessCode}
          autoComplete="off"
          registration={form.register('unique_code')}
          error={errors.unique_code?.message}
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? ONBOARDING_STRINGS.joinSubmitting : ONBOARDING_STRINGS.joinSubmit}
        </Button>
      </form>
      <p className="text-center text-sm text-muted-foreground">
        {ONBOARDING_STRINGS.createInstead}{' '}
        <Link to={REGISTER_BUSINESS_PATH} className="text-foreground underline underline-offset-4">
          {ONBOARDING_STRINGS.createInsteadLink}
        </Link>
      </p>
      <div className="flex justify-center">
        <LogOutButton />
      </div>
    </CenteredCard>
  );
}
