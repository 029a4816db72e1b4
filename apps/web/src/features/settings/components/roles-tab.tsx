// Settings → Roles: the built-in roles and the business's own (issue 34). A custom role is a name,
// some of the existing permissions (each shown with what it allows, from contracts) and optionally
// the chat groups it is limited to. Members who manage the team add, edit and delete them; members
// and API keys are given them under Team and API keys.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CUSTOM_ROLE_PERMISSIONS,
  PERMISSION_INFO,
  ZCustomRoleRequest,
  type TPermission,
  type TRoleInfoOut,
} from '@titan/contracts';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { ConfirmAction } from '../../../components/confirm-action';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { applyApiErrorToForm, reportApiError } from '../../../lib/api-errors';
import { usePermissions, useRoles } from '../../../lib/business/roles';
import { useChatGroupChoices, type TChatGroupChoice } from '../../../lib/chat-group-choices';
import { useCreateRole } from '../api/create-role';
import { useDeleteRole } from '../api/delete-role';
import { useUpdateRole } from '../api/update-role';
import { ROLES_TAB_STRINGS as STRINGS } from '../roles-strings';

type TRoleForm = z.input<typeof ZCustomRoleRequest>;
const FIELDS = ['name', 'permissions', 'chat_group_ids'] as const;

function RoleForm({
  role,
  groups,
  onDone,
}: {
  role?: TRoleInfoOut;
  groups: TChatGroupChoice[];
  onDone: () => void;
}) {
  const form = useForm<TRoleForm, unknown, z.output<typeof ZCustomRoleRequest>>({
    resolver: zodResolver(ZCustomRoleRequest),
    defaultValues: {
      name: role?.label ?? '',
      permissions: role?.permissions ?? ['inbox.use'],
      chat_group_ids: role?.chat_group_ids ?? null,
    },
  });
  const create = useCreateRole();
  const update = useUpdateRole();
  const { errors, isSubmitting } = form.formState;
  const scope = useWatch({ control: form.control, name: 'chat_group_ids' });
  const limited = Array.isArray(scope);

  const setScope = (ids: number[] | null) =>
    form.setValue('chat_group_ids', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  const onSubmit = form.handleSubmit(async (values) => {
    // "Only these groups" with none ticked would mean every group: say so instead of saving it.
    if (Array.isArray(values.chat_group_ids) && values.chat_group_ids.length === 0) {
      form.setError('chat_group_ids', { message: STRINGS.scopeGroupsError });
      return;
    }
    try {
      if (role && typeof role.value === 'number') {
        await update.mutateAsync({ id: role.value, ...values });
        toast.success(STRINGS.saved(values.name));
      } else {
        await create.mutateAsync(values);
        toast.success(STRINGS.created(values.name));
      }
      onDone();
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{role ? STRINGS.editTitle(role.label) : STRINGS.createTitle}</DialogTitle>
        <DialogDescription>{STRINGS.formDescription}</DialogDescription>
      </DialogHeader>
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={STRINGS.name}
        autoComplete="off"
        maxLength={60}
        registration={form.register('name')}
        error={errors.name?.message}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{STRINGS.permissionsLegend}</legend>
        {CUSTOM_ROLE_PERMISSIONS.map((permission) => (
          <label key={permission} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0"
              value={permission}
              {...form.register('permissions')}
            />
            <span>
              <span className="font-medium">{PERMISSION_INFO[permission].label}</span>
              <span className="block text-muted-foreground">{PERMISSION_INFO[permission].description}</span>
            </span>
          </label>
        ))}
        <p className="text-xs text-muted-foreground">{STRINGS.ownerOnly}</p>
        {errors.permissions?.message ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.permissions.message}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{STRINGS.scopeLegend}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" className="size-4" checked={!limited} onChange={() => setScope(null)} />
          {STRINGS.scopeAll}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            className="size-4"
            checked={limited}
            disabled={groups.length === 0}
            onChange={() => setScope([])}
          />
          {STRINGS.scopeSome}
        </label>
        {groups.length === 0 ? (
          <p className="text-xs text-muted-foreground">{STRINGS.scopeNoGroups}</p>
        ) : null}
        {limited ? (
          <div className="ml-6 grid gap-1">
            {groups.map((group) => (
              <label key={group.id} className="flex items-center gap-2 text-sm break-words">
                <input
                  type="checkbox"
                  className="size-4 shrink-0"
                  checked={scope.includes(group.id)}
                  onChange={(event) =>
                    setScope(
                      event.target.checked ? [...scope, group.id] : scope.filter((id) => id !== group.id),
                    )
                  }
                />
                {group.name}
              </label>
            ))}
          </div>
        ) : null}
        {errors.chat_group_ids?.message ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.chat_group_ids.message}
          </p>
        ) : null}
      </fieldset>
      <DialogFooter>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? STRINGS.saving : STRINGS.save}
        </Button>
      </DialogFooter>
    </form>
  );
}

function RoleDialog({ role, groups }: { role?: TRoleInfoOut; groups: TChatGroupChoice[] }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {role ? (
          <Button variant="ghost" size="sm" aria-label={STRINGS.editLabel(role.label)}>
            {STRINGS.edit}
          </Button>
        ) : (
          <Button>{STRINGS.create}</Button>
        )}
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        {open ? <RoleForm role={role} groups={groups} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function scopeText(role: TRoleInfoOut, groups: TChatGroupChoice[]): string {
  if (!role.chat_group_ids) return STRINGS.allGroups;
  const names = role.chat_group_ids.map((id) => groups.find((g) => g.id === id)?.name ?? `#${id}`);
  return STRINGS.groupsScope(names);
}

function RoleRow({
  role,
  groups,
  manage,
}: {
  role: TRoleInfoOut;
  groups: TChatGroupChoice[];
  manage: boolean;
}) {
  const remove = useDeleteRole();
  const labels = role.permissions.map((p: TPermission) => PERMISSION_INFO[p].label);
  return (
    <TableRow>
      <TableCell className="font-medium">
        {role.label}{' '}
        {role.custom ? null : (
          <Badge variant="secondary" className="ml-1">
            {STRINGS.builtIn}
          </Badge>
        )}
      </TableCell>
      <TableCell className="min-w-56 max-w-96 whitespace-normal text-muted-foreground">
        {labels.join(', ')}
      </TableCell>
      <TableCell className="whitespace-normal">{scopeText(role, groups)}</TableCell>
      {manage ? (
        <TableCell className="text-right whitespace-nowrap">
          {role.custom && typeof role.value === 'number' ? (
            <>
              <RoleDialog role={role} groups={groups} />
              <ConfirmAction
                trigger={STRINGS.remove}
                triggerLabel={STRINGS.removeLabel(role.label)}
                title={STRINGS.removeTitle(role.label)}
                description={STRINGS.removeText}
                confirmLabel={STRINGS.remove}
                disabled={remove.isPending}
                onConfirm={() =>
                  remove.mutate(role.value as number, {
                    onSuccess: () => toast.success(STRINGS.removed(role.label)),
                    onError: (error) => reportApiError(error, { toast: true }),
                  })
                }
              />
            </>
          ) : null}
        </TableCell>
      ) : null}
    </TableRow>
  );
}

export function RolesTab() {
  const { can, ready } = usePermissions();
  const manage = ready && can('team.manage');
  const roles = useRoles();
  const groups = useChatGroupChoices();
  const groupList = groups.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
        {manage ? (
          <CardAction>
            <RoleDialog groups={groupList} />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {ready && !manage ? <p className="text-sm text-muted-foreground">{STRINGS.readOnly}</p> : null}
        {roles.isPending ? (
          <SectionLoading />
        ) : roles.isError ? (
          <SectionError error={roles.error} onRetry={() => void roles.refetch()} />
        ) : (
          <Table aria-label={STRINGS.title}>
            <TableHeader>
              <TableRow>
                <TableHead>{STRINGS.role}</TableHead>
                <TableHead>{STRINGS.permissions}</TableHead>
                <TableHead>{STRINGS.scope}</TableHead>
                {manage ? <TableHead className="text-right">{STRINGS.actions}</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {(roles.data as TRoleInfoOut[]).map((role) => (
                <RoleRow key={String(role.value)} role={role} groups={groupList} manage={manage} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
