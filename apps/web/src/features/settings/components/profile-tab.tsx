// Settings → Profile: the signed-in person's name (the email is shown, not editable) and password.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZUpdateProfileRequest, type TUpdateProfileRequest } from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useProfile, type TProfile } from '../../../lib/session/profile';
import { useUpdateProfile } from '../api/update-profile';
import { SETTINGS_STRINGS } from '../strings';
import { ChangePasswordCard } from './change-password-card';
import { SectionError, SectionLoading } from '../../../components/load-state';

const STRINGS = SETTINGS_STRINGS.profile;
const PROFILE_FIELDS = ['first_name', 'last_name'] as const;

function ProfileForm({ profile }: { profile: TProfile }) {
  const form = useForm<z.input<typeof ZUpdateProfileRequest>, unknown, TUpdateProfileRequest>({
    resolver: zodResolver(ZUpdateProfileRequest),
    defaultValues: { first_name: profile.first_name, last_name: profile.last_name },
  });
  const update = useUpdateProfile();
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      form.reset({ first_name: saved.first_name, last_name: saved.last_name });
      toast.success(SETTINGS_STRINGS.saved);
    } catch (error) {
      applyApiErrorToForm(form, PROFILE_FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid max-w-md gap-4">
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={STRINGS.firstName}
          autoComplete="given-name"
          registration={form.register('first_name')}
          error={errors.first_name?.message}
        />
        <TextField
          label={STRINGS.lastName}
          autoComplete="family-name"
          registration={form.register('last_name')}
          error={errors.last_name?.message}
        />
      </div>
      <div className="grid gap-2 text-sm">
        <span className="font-medium">{STRINGS.email}</span>
        <span className="text-muted-foreground">{profile.email}</span>
      </div>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? SETTINGS_STRINGS.saving : SETTINGS_STRINGS.save}
        </Button>
      </div>
    </form>
  );
}

export function ProfileTab() {
  const profile = useProfile();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{STRINGS.title}</CardTitle>
          <CardDescription>{STRINGS.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {profile.isPending ? (
            <SectionLoading />
          ) : profile.isError ? (
            <SectionError error={profile.error} onRetry={() => void profile.refetch()} />
          ) : (
            <ProfileForm profile={profile.data} />
          )}
        </CardContent>
      </Card>
      <ChangePasswordCard />
    </div>
  );
}
