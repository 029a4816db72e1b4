// Account creation; on success the screen asks the person to open the verification mail.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZRegisterRequest, type TRegisterRequest, type TUser } from '@titan/contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useRegister } from '../api/register';
import { AUTH_STRINGS } from '../strings';

const SIGNUP_FIELDS = ['first_name', 'last_name', 'email', 'password'] as const;

export function SignupForm({
  defaultEmail,
  onSignedUp,
}: {
  defaultEmail: string;
  onSignedUp: (user: TUser) => void;
}) {
  const form = useForm<TRegisterRequest, unknown, z.output<typeof ZRegisterRequest>>({
    resolver: zodResolver(ZRegisterRequest),
    defaultValues: { first_name: '', last_name: '', email: defaultEmail, password: '' },
  });
  const register = useRegister();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      onSignedUp(await register.mutateAsync(values));
    } catch (error) {
      applyApiErrorToForm(form, SIGNUP_FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <FormAlert message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={AUTH_STRINGS.firstName}
          autoComplete="given-name"
          registration={form.register('first_name')}
          error={errors.first_name?.message}
        />
        <TextField
          label={AUTH_STRINGS.lastName}
          autoComplete="family-name"
          registration={form.register('last_name')}
          error={errors.last_name?.message}
        />
      </div>
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
        autoComplete="new-password"
        registration={form.register('password')}
        error={errors.password?.message}
        hint={AUTH_STRINGS.passwordHint}
      />
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? AUTH_STRINGS.signupSubmitting : AUTH_STRINGS.signupSubmit}
      </Button>
    </form>
  );
}
