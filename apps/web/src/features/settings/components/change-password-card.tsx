// Settings → Profile → Password: the current password, the new one twice. Other sessions are
// signed out by the server; this one stays.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  PASSWORD_CHANGE_ERRORS,
  ZChangePasswordRequest,
  type TChangePasswordRequest,
} from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useChangePassword } from '../api/change-password';
import { SETTINGS_STRINGS } from '../strings';

const STRINGS = SETTINGS_STRINGS.password;
const FIELDS = ['current_password', 'new_password', 'new_password_confirm'] as const;
const EMPTY = { current_password: '', new_password: '', new_password_confirm: '' };

export function ChangePasswordCard() {
  const form = useForm<TChangePasswordRequest>({
    resolver: zodResolver(ZChangePasswordRequest),
    defaultValues: EMPTY,
  });
  const change = useChangePassword();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      form.reset(EMPTY);
      toast.success(PASSWORD_CHANGE_ERRORS.changed);
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid max-w-md gap-4">
          <FormAlert message={errors.root?.server?.message} />
          <TextField
            label={STRINGS.current}
            type="password"
            autoComplete="current-password"
            registration={form.register('current_password')}
            error={errors.current_password?.message}
          />
          <TextField
            label={STRINGS.next}
            type="password"
            autoComplete="new-password"
            registration={form.register('new_password')}
            error={errors.new_password?.message}
          />
          <TextField
            label={STRINGS.confirm}
            type="password"
            autoComplete="new-password"
            registration={form.register('new_password_confirm')}
            error={errors.new_password_confirm?.message}
          />
          <div>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? STRINGS.changing : STRINGS.submit}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
