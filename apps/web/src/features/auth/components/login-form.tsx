// Email + password sign-in. Server errors land on the fields or the form alert; an unverified email
// (403) also offers to resend the verification mail.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZLoginRequest, type TLoginRequest } from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { FORGOT_PASSWORD_PATH } from '../../../config/paths';
import { apiErrorStatus, applyApiErrorToForm } from '../../../lib/api-errors';
import { useLogin } from '../api/login';
import { AUTH_STRINGS } from '../strings';
import { useStartSession } from '../utils/use-start-session';
import { ResendVerificationButton } from './resend-verification-button';

const LOGIN_FIELDS = ['email', 'password'] as const;
const FORBIDDEN = 403;

export function LoginForm({
  next,
  defaultEmail,
  onMfaRequired,
}: {
  next: string | null;
  defaultEmail: string;
  /** The account has a second factor: the caller shows the second step with this token. */
  onMfaRequired: (mfaToken: string) => void;
}) {
  const form = useForm<TLoginRequest, unknown, z.output<typeof ZLoginRequest>>({
    resolver: zodResolver(ZLoginRequest),
    defaultValues: { email: defaultEmail, password: '' },
  });
  const login = useLogin();
  const startSession = useStartSession();
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setUnverifiedEmail(null);
    try {
      const answer = await login.mutateAsync(values);
      if ('mfa_required' in answer) onMfaRequired(answer.mfa_token);
      else startSession(answer, next);
    } catch (error) {
      applyApiErrorToForm(form, LOGIN_FIELDS, error);
      if (apiErrorStatus(error) === FORBIDDEN) setUnverifiedEmail(values.email);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <FormAlert message={errors.root?.server?.message}>
        {unverifiedEmail ? <ResendVerificationButton email={unverifiedEmail} /> : null}
      </FormAlert>
      <TextField
        label={AUTH_STRINGS.email}
        type="email"
        autoComplete="email"
        registration={form.register('email')}
        error={errors.email?.message}
      />
      <TextField
        label={AUTH_STRINGS.password}
        type="password"
        autoComplete="current-password"
        registration={form.register('password')}
        error={errors.password?.message}
      />
      <Link to={FORGOT_PASSWORD_PATH} className="-mt-2 text-sm underline-offset-4 hover:underline">
        {AUTH_STRINGS.forgotPasswordLink}
      </Link>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? AUTH_STRINGS.loginSubmitting : AUTH_STRINGS.loginSubmit}
      </Button>
    </form>
  );
}
