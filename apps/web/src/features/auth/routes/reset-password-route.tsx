// /forgot-password/{encodedEmail}/{key}: choose a new password. The link's key is single-use and
// expires after an hour; a refused key shows an honest "ask for a new link" state.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZResetPasswordRequest } from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { authPath, FORGOT_PASSWORD_PATH, LOGIN_PATH } from '../../../config/paths';
import { applyApiErrorToForm, describeApiFailure } from '../../../lib/api-errors';
import { useResetPassword } from '../api/reset-password';
import { CenteredCard } from '../../../components/centered-card';
import { AUTH_STRINGS } from '../strings';
import { decodeEmailParam } from '../utils/encoded-email';

// The address and key come from the link; the person types only the password.
const ZNewPassword = ZResetPasswordRequest.pick({ password: true });
const RESET_FIELDS = ['password'] as const;

function InvalidLink() {
  return (
    <CenteredCard title={AUTH_STRINGS.resetInvalidTitle} description={AUTH_STRINGS.resetInvalidText}>
      <Button asChild>
        <Link to={FORGOT_PASSWORD_PATH}>{AUTH_STRINGS.requestNewLink}</Link>
      </Button>
    </CenteredCard>
  );
}

export function ResetPasswordRoute() {
  const { encodedEmail = '', key = '' } = useParams();
  const email = decodeEmailParam(encodedEmail);
  const form = useForm<z.input<typeof ZNewPassword>, unknown, z.output<typeof ZNewPassword>>({
    resolver: zodResolver(ZNewPassword),
    defaultValues: { password: '' },
  });
  const reset = useResetPassword();
  const [keyRefused, setKeyRefused] = useState(false);
  const { errors, isSubmitting } = form.formState;

  if (!email || !key || keyRefused) return <InvalidLink />;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await reset.mutateAsync({ email, key, password });
    } catch (error) {
      const failure = describeApiFailure(error);
      if (failure.kind === 'response' && failure.fieldErrors?.key) setKeyRefused(true);
      else applyApiErrorToForm(form, RESET_FIELDS, error);
    }
  });

  if (reset.isSuccess) {
    return (
      <CenteredCard title={AUTH_STRINGS.resetDoneTitle} description={AUTH_STRINGS.resetDoneText}>
        <Button asChild>
          <Link to={authPath(LOGIN_PATH, { email })}>{AUTH_STRINGS.loginLink}</Link>
        </Button>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title={AUTH_STRINGS.resetTitle} description={AUTH_STRINGS.resetDescription(email)}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={AUTH_STRINGS.newPassword}
          type="password"
          autoComplete="new-password"
          registration={form.register('password')}
          error={errors.password?.message}
          hint={AUTH_STRINGS.passwordHint}
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? AUTH_STRINGS.resetSubmitting : AUTH_STRINGS.resetSubmit}
        </Button>
      </form>
    </CenteredCard>
  );
}
