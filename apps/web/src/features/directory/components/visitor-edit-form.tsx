// Edit a visitor's name, email and phone (engage.write); the server's field errors land on the fields.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ZUpdateDirectoryVisitorRequest,
  type TDirectoryVisitor,
  type TUpdateDirectoryVisitorRequest,
} from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useUpdateVisitor } from '../api/update-visitor';
import { DIRECTORY_STRINGS as S } from '../strings';

const VISITOR_FIELDS = ['name', 'email', 'phone'] as const;
/** Clearing a field removes the value on the server. */
const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

export function VisitorEditForm({ visitor }: { visitor: TDirectoryVisitor }) {
  const form = useForm<
    TUpdateDirectoryVisitorRequest,
    unknown,
    z.output<typeof ZUpdateDirectoryVisitorRequest>
  >({
    resolver: zodResolver(ZUpdateDirectoryVisitorRequest),
    defaultValues: { name: visitor.name, email: visitor.email, phone: visitor.phone },
  });
  const update = useUpdateVisitor();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ name, email, phone }) => {
    try {
      await update.mutateAsync({ id: visitor.id, name, email, phone });
      toast.success(S.saved);
    } catch (error) {
      applyApiErrorToForm(form, VISITOR_FIELDS, error);
    }
  });

  return (
    <form
      noValidate
      aria-label={S.editForm}
      onSubmit={(event) => void onSubmit(event)}
      className="grid max-w-md gap-4"
    >
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={`${S.name} ${S.optional}`}
        autoComplete="off"
        registration={form.register('name', { setValueAs: emptyToNull })}
        error={errors.name?.message}
      />
      <TextField
        label={`${S.email} ${S.optional}`}
        type="email"
        autoComplete="off"
        registration={form.register('email', { setValueAs: emptyToNull })}
        error={errors.email?.message}
      />
      <TextField
        label={`${S.phone} ${S.optional}`}
        type="tel"
        autoComplete="off"
        registration={form.register('phone', { setValueAs: emptyToNull })}
        error={errors.phone?.message}
      />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? S.saving : S.save}
        </Button>
      </div>
    </form>
  );
}
