// Creates an API key and shows it once, with a copy button and a warning that it will not be shown again.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateApiKeyRequest, type TCreatedApiKey } from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { CopyButton } from '../../../components/copy-button';
import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useRoles } from '../../../lib/business/roles';
import { useCreateApiKey } from '../api/create-api-key';
import { roleOptions, toRoleRef } from '../utils/display';
import { SETTINGS_STRINGS } from '../strings';

const STRINGS = SETTINGS_STRINGS.apiKeys;
const EXPIRY_CHOICES = ['never', '30', '90', '365'] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

// The contract's name, plus a choice of lifetime turned into its expires_at.
const ZCreateKeyForm = ZCreateApiKeyRequest.pick({ name: true }).extend({
  expiry: z.enum(EXPIRY_CHOICES),
  /** '' for the default (agent plus sending), else a built-in role's name or a custom role's id. */
  role: z.string(),
});
type TCreateKeyForm = z.input<typeof ZCreateKeyForm>;
const CREATE_FIELDS = ['name', 'role'] as const;

function expiresAt(expiry: TCreateKeyForm['expiry']): string | null {
  return expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString();
}

function CreatedKey({ created, onDone }: { created: TCreatedApiKey; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{STRINGS.createdTitle}</DialogTitle>
        <DialogDescription>{created.name}</DialogDescription>
      </DialogHeader>
      <Alert>
        <AlertDescription className="text-foreground">{STRINGS.createdWarning}</AlertDescription>
      </Alert>
      <div className="flex gap-2">
        <Input readOnly aria-label={STRINGS.keyLabel} value={created.key} className="font-mono" />
        <CopyButton value={created.key} label={STRINGS.copy} />
      </div>
      <DialogFooter>
        <Button onClick={onDone}>{STRINGS.done}</Button>
      </DialogFooter>
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: TCreatedApiKey) => void }) {
  const form = useForm<TCreateKeyForm, unknown, z.output<typeof ZCreateKeyForm>>({
    resolver: zodResolver(ZCreateKeyForm),
    defaultValues: { name: '', expiry: 'never', role: '' },
  });
  const create = useCreateApiKey();
  const roles = useRoles();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ name, expiry, role }) => {
    try {
      onCreated(
        await create.mutateAsync({
          name,
          expires_at: expiresAt(expiry),
          ...(role ? { role: toRoleRef(role) } : {}),
        }),
      );
    } catch (error) {
      applyApiErrorToForm(form, CREATE_FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{STRINGS.createTitle}</DialogTitle>
        <DialogDescription>{STRINGS.description}</DialogDescription>
      </DialogHeader>
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={STRINGS.keyName}
        autoComplete="off"
        hint={STRINGS.keyNameHint}
        registration={form.register('name')}
        error={errors.name?.message}
      />
      <SelectField
        label={STRINGS.expiry}
        options={EXPIRY_CHOICES.map((value) => ({ value, label: STRINGS.expiryOptions[value] }))}
        registration={form.register('expiry')}
      />
      <SelectField
        label={STRINGS.role}
        options={[{ value: '', label: STRINGS.defaultRole }, ...roleOptions(roles.data, [])]}
        registration={form.register('role')}
        error={errors.role?.message}
      />
      <DialogFooter>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? STRINGS.createSubmitting : STRINGS.createSubmit}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function CreateApiKeyDialog() {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // The key leaves memory with the dialog: it is never shown again.
    if (!next) setCreated(null);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>{STRINGS.create}</Button>
      </DialogTrigger>
      <DialogContent
        showCloseButton={!created}
        // Clicking outside must not lose a key the person has not copied yet.
        onInteractOutside={(event) => {
          if (created) event.preventDefault();
        }}
      >
        {created ? (
          <CreatedKey created={created} onDone={() => onOpenChange(false)} />
        ) : (
          <CreateKeyForm onCreated={setCreated} />
        )}
      </DialogContent>
    </Dialog>
  );
}
