// Team → Invite someone: email + role; the server mails them a join link.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ROLES,
  ZInviteMemberRequest,
  type TInviteMemberRequest,
  type TRoleInfo,
  type TRoleRef,
} from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useInviteMember } from '../api/invite-member';
import { SETTINGS_STRINGS } from '../strings';
import { roleOptions, toRoleRef } from '../utils/display';

const STRINGS = SETTINGS_STRINGS.team;
const INVITE_FIELDS = ['email', 'role'] as const;

export function InviteMemberCard({ roles }: { roles: TRoleInfo[] | undefined }) {
  const form = useForm<TInviteMemberRequest, unknown, z.output<typeof ZInviteMemberRequest>>({
    resolver: zodResolver(ZInviteMemberRequest),
    defaultValues: { email: '', role: 'agent' },
  });
  const invite = useInviteMember();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const invitation = await invite.mutateAsync(values);
      toast.success(STRINGS.invited(invitation.email));
      form.reset({ email: '', role: values.role });
    } catch (error) {
      applyApiErrorToForm(form, INVITE_FIELDS, error);
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.inviteTitle}</CardTitle>
        <CardDescription>{STRINGS.inviteDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label={STRINGS.inviteTitle}
          onSubmit={(event) => void onSubmit(event)}
          className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start"
        >
          <div className="sm:col-span-3">
            <FormAlert message={errors.root?.server?.message} />
          </div>
          <TextField
            label={STRINGS.inviteEmail}
            type="email"
            autoComplete="off"
            registration={form.register('email')}
            error={errors.email?.message}
          />
          <SelectField
            label={STRINGS.inviteRole}
            options={roleOptions(roles, ROLES)}
            registration={form.register('role', {
              setValueAs: (v: TRoleRef | string) => toRoleRef(String(v)),
            })}
            error={errors.role?.message}
          />
          <Button type="submit" disabled={isSubmitting} className="sm:mt-[1.375rem]">
            {isSubmitting ? STRINGS.inviteSubmitting : STRINGS.inviteSubmit}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
