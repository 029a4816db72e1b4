// /forgot-password: ask for a reset link. The answer is the same whether or not the address exists.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZForgotPasswordRequest, type TForgotPasswordRequest } from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { authPath, LOGIN_PATH } from '../../../config/paths';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useForgotPassword } from '../api/forgot-password';
import { CenteredCard } from '../../../components/centered-card';
import { AUTH_STRINGS } from '../strings';

const FORGOT_FIELDS = ['email'] as const;

export function ForgotPasswordRoute() {
  const form = useForm<TForgotPasswordRequest, unknown, z.output<typeof ZForgotPasswordRequest>>({
    resolver: zodResolver(ZForgotPasswordRequest),
    defaultValues: { email: '' },
  });
  const forgot = useForgotPassword();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await forgot.mutateAsync(values);
      setSentTo(values.email);
    } catch (error) {
      applyApiErrorToForm(form, FORGOT_FIELDS, error);
    }
  });

  const backToLogin = (
    <Link
      to={authPath(LOGIN_PATH, { email: sentTo })}
      className="text-center text-sm underline underline-offset-4"
    >
      {AUTH_STRINGS.backToLogin}
    </Link>
  );

  if (sentTo) {
    return (
      <CenteredCard title={AUTH_STRINGS.forgotSentTitle} description={AUTH_STRINGS.forgotSentText(sentTo)}>
        {backToLogin}
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title={AUTH_STRINGS.forgotTitle} description={AUTH_STRINGS.forgotDescription}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={AUTH_STRINGS.email}
          type="email"
          autoComplete="email"
          registration={form.register('email')}
          error={errors.email?.message}
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? AUTH_STRINGS.forgotSubmitting : AUTH_STRINGS.forgotSubmit}
        </Button>
      </form>
      {backToLogin}
    </CenteredCard>
  );
}
